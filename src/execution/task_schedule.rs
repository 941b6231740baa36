//! The definition of a scheduled wake (`IBackgroundTaskSchedule`), shared by the scheduled
//! request and the persisted task state.

use alloc::collections::BTreeMap;
use alloc::string::String;

/// What a scheduled task does and when (`IBackgroundTaskSchedule`).
///
/// A scheduled request carries these fields directly (they are flattened into it), and a task
/// state keeps them so that a resumed session can arm the same schedule again.
///
/// On each fire the schedule runs `command`, wakes the host session with `agent_instruction`,
/// or both. A schedule with neither has nothing to do, so decoding refuses it (the error names
/// both keys).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", try_from = "ScheduleWire")
)]
#[non_exhaustive]
pub struct BackgroundTaskSchedule {
    /// When to fire, as a cron expression (kept as written; not parsed here).
    pub cron_expression: String,
    /// The instruction each fire hands to the host session as an agent-wakeup turn. That turn
    /// runs under the session's own permission configuration; a schedule has no policy of its
    /// own.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub agent_instruction: Option<String>,
    /// The shell command each fire runs.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub command: Option<String>,
    /// The shell that runs `command`, when not the default one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub shell: Option<String>,
    /// Extra environment variables for `command`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub env: Option<BTreeMap<String, String>>,
}

impl BackgroundTaskSchedule {
    /// A schedule that wakes the host session with `agent_instruction` on each fire of
    /// `cron_expression`. Add a command with [`with_command`](Self::with_command).
    #[must_use]
    pub fn waking(
        cron_expression: impl Into<String>,
        agent_instruction: impl Into<String>,
    ) -> Self {
        Self {
            cron_expression: cron_expression.into(),
            agent_instruction: Some(agent_instruction.into()),
            command: None,
            shell: None,
            env: None,
        }
    }

    /// A schedule that runs the shell `command` on each fire of `cron_expression`. Add a wake
    /// with [`with_agent_instruction`](Self::with_agent_instruction).
    #[must_use]
    pub fn running(cron_expression: impl Into<String>, command: impl Into<String>) -> Self {
        Self {
            cron_expression: cron_expression.into(),
            agent_instruction: None,
            command: Some(command.into()),
            shell: None,
            env: None,
        }
    }
}

optional_setters!(BackgroundTaskSchedule {
    with_agent_instruction => agent_instruction: impl Into<String>,
    with_command => command: impl Into<String>,
    with_shell => shell: impl Into<String>,
    with_env => env: BTreeMap<String, String>,
});

impl BackgroundTaskSchedule {
    /// True when a fire wakes the host session (an `agent_instruction` is set).
    #[must_use]
    pub const fn wakes_session(&self) -> bool {
        self.agent_instruction.is_some()
    }

    /// True when a fire runs a shell command (a `command` is set).
    #[must_use]
    pub const fn runs_command(&self) -> bool {
        self.command.is_some()
    }
}

/// The decoded form of [`BackgroundTaskSchedule`], checked for something to do.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ScheduleWire {
    cron_expression: String,
    #[serde(default)]
    agent_instruction: Option<String>,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    shell: Option<String>,
    #[serde(default)]
    env: Option<BTreeMap<String, String>>,
}

#[cfg(feature = "serde")]
impl TryFrom<ScheduleWire> for BackgroundTaskSchedule {
    type Error = &'static str;

    fn try_from(wire: ScheduleWire) -> Result<Self, Self::Error> {
        if wire.command.is_none() && wire.agent_instruction.is_none() {
            return Err("a schedule needs `command` or `agentInstruction` (or both)");
        }
        Ok(Self {
            cron_expression: wire.cron_expression,
            agent_instruction: wire.agent_instruction,
            command: wire.command,
            shell: wire.shell,
            env: wire.env,
        })
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use alloc::string::ToString;

    use super::BackgroundTaskSchedule;

    fn round_trip(schedule: &BackgroundTaskSchedule) -> BackgroundTaskSchedule {
        let text = serde_json::to_string(schedule).expect("a schedule encodes");
        serde_json::from_str(&text).expect("what a constructor builds decodes")
    }

    #[test]
    fn every_constructed_schedule_decodes_back() {
        let env = [("A".into(), "1".into())].into_iter().collect();
        for schedule in [
            BackgroundTaskSchedule::waking("0 * * * *", "look at the queue"),
            BackgroundTaskSchedule::running("0 * * * *", "make report"),
            BackgroundTaskSchedule::running("0 * * * *", "make")
                .with_agent_instruction("read the report")
                .with_shell("bash")
                .with_env(env),
        ] {
            assert_eq!(round_trip(&schedule), schedule);
            assert!(schedule.wakes_session() || schedule.runs_command());
        }
    }

    #[test]
    fn a_schedule_with_nothing_to_do_is_refused_naming_both_keys() {
        let error =
            serde_json::from_str::<BackgroundTaskSchedule>(r#"{"cronExpression":"* * * * *"}"#)
                .expect_err("nothing to do");
        let text = error.to_string();
        assert!(
            text.contains("command") && text.contains("agentInstruction"),
            "{text}"
        );
    }
}
