//! The `Deserialize` of [`BackgroundTaskResult`], read in one pass (crate-private; only
//! compiled with `serde`).
//!
//! A result is tagged on `kind` and every kind flattens the shared base, checking the keys only
//! another kind has; serde's derived decoder buffered each result for the tag and again for
//! each flattened part, linking a second instance of every member's decoder, built for the
//! buffer. Read with `agent_core::tagged`, the base is read where it is written, and the
//! kind-specific keys once the kind is known: typed on their own kind, noticed (and refused
//! with [`ForeignField`]) on the others. Where it reads differently from the derived decoder
//! (which problem it names first when a result has several) is recorded in
//! `docs/decisions/session-record-codec.md` ("Tagged events read in one pass").

use alloc::string::String;

use serde::de::{self, IgnoredAny};

use super::task_result::{
    AgentBackgroundTaskResult, BackgroundTaskResult, BackgroundTaskResultBase, EXIT_OWNER,
    ProcessBackgroundTaskResult, ScheduledBackgroundTaskResult, ToolInvocationBackgroundTaskResult,
    USAGE_OWNER,
};
use super::task_vocabulary::{BackgroundPrimitiveMap, BackgroundTaskKind, BackgroundTaskUsage};
use super::wire_check::ForeignField;
use crate::agent_core::{MemberSource, TaggedMembers, decode_tagged, read_once, required};

/// A member some kind declares (or, for the kind-specific ones, notices to refuse).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Member {
    TaskId,
    Output,
    Metadata,
    Usage,
    ExitCode,
    SignalCode,
}

/// The members of a result read so far: a kind-specific key is typed on its own kind, and on
/// another only noticed.
#[derive(Default)]
struct ResultMembers {
    task_id: Option<String>,
    output: Option<String>,
    metadata: Option<Option<BackgroundPrimitiveMap>>,
    usage: Option<Option<BackgroundTaskUsage>>,
    exit_code: Option<Option<i32>>,
    signal_code: Option<Option<String>>,
    foreign_usage: Option<IgnoredAny>,
    foreign_exit_code: Option<IgnoredAny>,
    foreign_signal_code: Option<IgnoredAny>,
}

impl ResultMembers {
    /// The base every kind carries, a missing member refused in the order it declares them.
    fn base<E: de::Error>(&mut self) -> Result<BackgroundTaskResultBase, E> {
        Ok(BackgroundTaskResultBase {
            task_id: required(self.task_id.take(), "taskId")?,
            output: required(self.output.take(), "output")?,
            metadata: self.metadata.take().flatten(),
        })
    }

    /// Refuses, on `record`, the first of the keys only another kind has that was written:
    /// `usage` when `usage` says so, then `exitCode` and `signalCode` when `exit` says so.
    fn refuse<E: de::Error>(&self, record: &'static str, usage: bool, exit: bool) -> Result<(), E> {
        let check = |found: &Option<IgnoredAny>, field, owner| {
            ForeignField::check(found.as_ref(), field, record, owner).map_err(E::custom)
        };
        if usage {
            check(&self.foreign_usage, "usage", USAGE_OWNER)?;
        }
        if exit {
            check(&self.foreign_exit_code, "exitCode", EXIT_OWNER)?;
            check(&self.foreign_signal_code, "signalCode", EXIT_OWNER)?;
        }
        Ok(())
    }
}

impl TaggedMembers for ResultMembers {
    type Tag = BackgroundTaskKind;
    type Member = Member;
    type Output = BackgroundTaskResult;

    const TAG: &'static str = "kind";
    const EXPECTING: &'static str = "internally tagged enum BackgroundTaskResult";

    fn member(name: &str) -> Option<Member> {
        Some(match name {
            "taskId" => Member::TaskId,
            "output" => Member::Output,
            "metadata" => Member::Metadata,
            "usage" => Member::Usage,
            "exitCode" => Member::ExitCode,
            "signalCode" => Member::SignalCode,
            _ => return None,
        })
    }

    fn declares(_: Member, _: BackgroundTaskKind) -> bool {
        // Every kind reads every key: its own typed, another kind's to refuse it.
        true
    }

    fn shared(member: Member) -> bool {
        matches!(member, Member::TaskId | Member::Output | Member::Metadata)
    }

    fn read<S: MemberSource>(
        &mut self,
        member: Member,
        kind: Option<BackgroundTaskKind>,
        source: S,
    ) -> Result<(), S::Error> {
        let agent = kind == Some(BackgroundTaskKind::Agent);
        let process = kind == Some(BackgroundTaskKind::Process);
        match member {
            Member::TaskId => read_once(&mut self.task_id, "taskId", source),
            Member::Output => read_once(&mut self.output, "output", source),
            Member::Metadata => read_once(&mut self.metadata, "metadata", source),
            Member::Usage if agent => read_once(&mut self.usage, "usage", source),
            Member::Usage => read_once(&mut self.foreign_usage, "usage", source),
            Member::ExitCode if process => read_once(&mut self.exit_code, "exitCode", source),
            Member::ExitCode => read_once(&mut self.foreign_exit_code, "exitCode", source),
            Member::SignalCode if process => read_once(&mut self.signal_code, "signalCode", source),
            Member::SignalCode => read_once(&mut self.foreign_signal_code, "signalCode", source),
        }
    }

    fn build<E: de::Error>(mut self, kind: BackgroundTaskKind) -> Result<Self::Output, E> {
        let base = self.base()?;
        Ok(match kind {
            BackgroundTaskKind::Agent => {
                self.refuse("an agent result", false, true)?;
                BackgroundTaskResult::Agent(AgentBackgroundTaskResult {
                    base,
                    usage: self.usage.flatten(),
                })
            }
            BackgroundTaskKind::Process => {
                self.refuse("a process result", true, false)?;
                BackgroundTaskResult::Process(ProcessBackgroundTaskResult {
                    base,
                    exit_code: self.exit_code.flatten(),
                    signal_code: self.signal_code.flatten(),
                })
            }
            BackgroundTaskKind::Scheduled => {
                self.refuse("a scheduled result", true, true)?;
                BackgroundTaskResult::Scheduled(ScheduledBackgroundTaskResult { base })
            }
            BackgroundTaskKind::ToolInvocation => {
                self.refuse("a tool-invocation result", true, true)?;
                BackgroundTaskResult::ToolInvocation(ToolInvocationBackgroundTaskResult { base })
            }
        })
    }
}

impl<'de> de::Deserialize<'de> for BackgroundTaskResult {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        decode_tagged::<ResultMembers, D>(deserializer)
    }
}
