//! The `Deserialize` of the family's tagged events, [`BackgroundTaskEvent`] and
//! [`BackgroundJobGroupEvent`], read in one pass (crate-private; only compiled with `serde`).
//!
//! Each event carries a task's or a group's whole state, which a record also lists on its own;
//! serde's derived decoder would buffer the event and decode that state with a second copy of
//! its decoder. `agent_core::tagged` reads the object once, with serde's rules and messages
//! (see there for the two inputs it reads differently).

use alloc::boxed::Box;
use alloc::string::String;

use serde::de;

use super::groups::{
    BackgroundJobGroupEvent, BackgroundJobGroupEventType, BackgroundJobGroupState,
};
use super::task_event::{BackgroundTaskEvent, BackgroundTaskEventType as Type};
use super::task_state::BackgroundTaskState;
use super::task_vocabulary::BackgroundPrimitiveMap;
use crate::agent_core::{MemberSource, TaggedMembers, decode_tagged, read_once, required};

/// A member some [`BackgroundTaskEvent`] declares, by its wire name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Member {
    Task,
    TaskId,
    Delta,
    ToolName,
    FirstArg,
    Success,
    Error,
    RequestId,
    ToolArgs,
    Instruction,
}

impl Member {
    const ALL: [Self; 10] = [
        Self::Task,
        Self::TaskId,
        Self::Delta,
        Self::ToolName,
        Self::FirstArg,
        Self::Success,
        Self::Error,
        Self::RequestId,
        Self::ToolArgs,
        Self::Instruction,
    ];

    const fn name(self) -> &'static str {
        match self {
            Self::Task => "task",
            Self::TaskId => "taskId",
            Self::Delta => "delta",
            Self::ToolName => "toolName",
            Self::FirstArg => "firstArg",
            Self::Success => "success",
            Self::Error => "error",
            Self::RequestId => "requestId",
            Self::ToolArgs => "toolArgs",
            Self::Instruction => "instruction",
        }
    }
}

/// The members of a [`BackgroundTaskEvent`] read so far.
#[derive(Default)]
struct TaskEventMembers {
    task: Option<Box<BackgroundTaskState>>,
    task_id: Option<String>,
    delta: Option<String>,
    tool_name: Option<String>,
    first_arg: Option<Option<String>>,
    success: Option<bool>,
    error: Option<Option<String>>,
    request_id: Option<String>,
    tool_args: Option<BackgroundPrimitiveMap>,
    instruction: Option<Option<String>>,
}

impl TaggedMembers for TaskEventMembers {
    type Tag = Type;
    type Member = Member;
    type Output = BackgroundTaskEvent;

    const TAG: &'static str = "type";
    const EXPECTING: &'static str = "internally tagged enum BackgroundTaskEvent";

    fn member(name: &str) -> Option<Member> {
        Member::ALL.into_iter().find(|member| member.name() == name)
    }

    fn declares(member: Member, tag: Type) -> bool {
        use Member as M;
        match tag {
            Type::Created
            | Type::Started
            | Type::Updated
            | Type::Completed
            | Type::Failed
            | Type::Cancelled => member == M::Task,
            Type::TextDelta => matches!(member, M::TaskId | M::Delta),
            Type::ToolStart => matches!(member, M::TaskId | M::ToolName | M::FirstArg),
            Type::ToolEnd => matches!(member, M::TaskId | M::ToolName | M::Success | M::Error),
            Type::PermissionRequest => {
                matches!(member, M::TaskId | M::RequestId | M::ToolName | M::ToolArgs)
            }
            Type::Closed => member == M::TaskId,
            Type::Waking => matches!(member, M::TaskId | M::Instruction),
        }
    }

    fn read<S: MemberSource>(
        &mut self,
        member: Member,
        _: Option<Type>,
        source: S,
    ) -> Result<(), S::Error> {
        let name = member.name();
        match member {
            Member::Task => read_once(&mut self.task, name, source),
            Member::TaskId => read_once(&mut self.task_id, name, source),
            Member::Delta => read_once(&mut self.delta, name, source),
            Member::ToolName => read_once(&mut self.tool_name, name, source),
            Member::FirstArg => read_once(&mut self.first_arg, name, source),
            Member::Success => read_once(&mut self.success, name, source),
            Member::Error => read_once(&mut self.error, name, source),
            Member::RequestId => read_once(&mut self.request_id, name, source),
            Member::ToolArgs => read_once(&mut self.tool_args, name, source),
            Member::Instruction => read_once(&mut self.instruction, name, source),
        }
    }

    fn build<E: de::Error>(self, tag: Type) -> Result<BackgroundTaskEvent, E> {
        use BackgroundTaskEvent as Event;
        let task = || required(self.task, "task");
        let task_id = self.task_id;
        Ok(match tag {
            Type::Created => Event::Created { task: task()? },
            Type::Started => Event::Started { task: task()? },
            Type::Updated => Event::Updated { task: task()? },
            Type::Completed => Event::Completed { task: task()? },
            Type::Failed => Event::Failed { task: task()? },
            Type::Cancelled => Event::Cancelled { task: task()? },
            Type::TextDelta => Event::TextDelta {
                task_id: required(task_id, "taskId")?,
                delta: required(self.delta, "delta")?,
            },
            Type::ToolStart => Event::ToolStart {
                task_id: required(task_id, "taskId")?,
                tool_name: required(self.tool_name, "toolName")?,
                first_arg: self.first_arg.flatten(),
            },
            Type::ToolEnd => Event::ToolEnd {
                task_id: required(task_id, "taskId")?,
                tool_name: required(self.tool_name, "toolName")?,
                success: required(self.success, "success")?,
                error: self.error.flatten(),
            },
            Type::PermissionRequest => Event::PermissionRequest {
                task_id: required(task_id, "taskId")?,
                request_id: required(self.request_id, "requestId")?,
                tool_name: required(self.tool_name, "toolName")?,
                tool_args: required(self.tool_args, "toolArgs")?,
            },
            Type::Closed => Event::Closed {
                task_id: required(task_id, "taskId")?,
            },
            Type::Waking => Event::Waking {
                task_id: required(task_id, "taskId")?,
                instruction: self.instruction.flatten(),
            },
        })
    }
}

impl<'de> de::Deserialize<'de> for BackgroundTaskEvent {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        decode_tagged::<TaskEventMembers, D>(deserializer)
    }
}

/// The one member of a [`BackgroundJobGroupEvent`], `group`, read so far.
#[derive(Default)]
struct GroupEventMembers {
    group: Option<BackgroundJobGroupState>,
}

impl TaggedMembers for GroupEventMembers {
    type Tag = BackgroundJobGroupEventType;
    type Member = ();
    type Output = BackgroundJobGroupEvent;

    const TAG: &'static str = "type";
    const EXPECTING: &'static str = "internally tagged enum BackgroundJobGroupEvent";

    fn member(name: &str) -> Option<()> {
        (name == "group").then_some(())
    }

    fn declares((): (), _: BackgroundJobGroupEventType) -> bool {
        true
    }

    fn read<S: MemberSource>(
        &mut self,
        (): (),
        _: Option<BackgroundJobGroupEventType>,
        source: S,
    ) -> Result<(), S::Error> {
        read_once(&mut self.group, "group", source)
    }

    fn build<E: de::Error>(self, tag: BackgroundJobGroupEventType) -> Result<Self::Output, E> {
        use BackgroundJobGroupEvent as Event;
        use BackgroundJobGroupEventType as Tag;
        let group = required(self.group, "group")?;
        Ok(match tag {
            Tag::Created => Event::Created { group },
            Tag::Updated => Event::Updated { group },
            Tag::Completed => Event::Completed { group },
        })
    }
}

impl<'de> de::Deserialize<'de> for BackgroundJobGroupEvent {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        decode_tagged::<GroupEventMembers, D>(deserializer)
    }
}
