//! Self-paced loops (`session-loop-contracts`): a loop's state as the session record keeps it,
//! the pure machine that moves it, and the rule that stops "the" waiting loop.
//!
//! A loop repeats an instruction at a pace it chooses itself. Its identity and lifecycle live in
//! the session record (never in a disposable scheduled-task id): a waiting loop records the next
//! instant it may run and why; a pending or running iteration records the generation that makes a
//! stale wake recognisable after a resume; stopped and expired loops stay as terminal records.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use crate::instant::format_instant;
use alloc::format;
use alloc::string::{String, ToString};
use core::fmt;

string_enum! {
    /// Where a self-paced loop stands (`TSessionLoopPhase`).
    pub enum SessionLoopPhase {
        /// Sleeping until its next allowed instant.
        Waiting = "waiting",
        /// Woken; its iteration is queued.
        Pending = "pending",
        /// Its iteration is running.
        Running = "running",
        /// Stopped for good (terminal).
        Stopped = "stopped",
        /// Past its expiry (terminal).
        Expired = "expired",
    }
}

impl SessionLoopPhase {
    /// True for `stopped` and `expired`, which accept no further input.
    #[must_use]
    pub const fn is_terminal(self) -> bool {
        matches!(self, Self::Stopped | Self::Expired)
    }
}

/// A loop's chosen delay between iterations, in whole seconds from 60 to 3600 (`delaySeconds`).
///
/// Cannot hold a value outside that range; on the wire it is the bare integer, and an integer out
/// of range fails to decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u32", into = "u32"))]
pub struct LoopDelay(u32);

impl LoopDelay {
    /// The shortest delay: 60 seconds.
    pub const MIN: Self = Self(60);
    /// The longest delay: 3600 seconds.
    pub const MAX: Self = Self(3600);

    /// A delay of `seconds`, if it lies in 60..=3600.
    ///
    /// # Errors
    ///
    /// [`LoopDelayOutOfRange`] for any other number of seconds.
    pub const fn new(seconds: u32) -> Result<Self, LoopDelayOutOfRange> {
        if seconds >= Self::MIN.0 && seconds <= Self::MAX.0 {
            Ok(Self(seconds))
        } else {
            Err(LoopDelayOutOfRange { seconds })
        }
    }

    /// The delay in seconds.
    #[must_use]
    pub const fn seconds(self) -> u32 {
        self.0
    }
}

impl TryFrom<u32> for LoopDelay {
    type Error = LoopDelayOutOfRange;

    fn try_from(seconds: u32) -> Result<Self, LoopDelayOutOfRange> {
        Self::new(seconds)
    }
}

impl From<LoopDelay> for u32 {
    fn from(delay: LoopDelay) -> Self {
        delay.0
    }
}

/// A delay outside 60..=3600 seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("`delaySeconds` must lie between 60 and 3600, found {seconds}")]
pub struct LoopDelayOutOfRange {
    /// The refused number of seconds.
    pub seconds: u32,
}

/// A loop's phase together with the data only that phase has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionLoopStatus {
    /// Sleeping until `next_allowed_at`.
    Waiting {
        /// The earliest instant the next iteration may run (ISO-8601).
        next_allowed_at: String,
        /// Why this delay was chosen, when a reason was given.
        reason: Option<String>,
    },
    /// Woken; the iteration of the loop's current generation is queued.
    Pending,
    /// The iteration of the loop's current generation is running.
    Running,
    /// Stopped for good.
    Stopped {
        /// Why, when a reason was given.
        terminal_reason: Option<String>,
    },
    /// Past its expiry.
    Expired {
        /// Why, when a reason was given.
        terminal_reason: Option<String>,
    },
}

impl SessionLoopStatus {
    /// The phase literal of this status.
    #[must_use]
    pub const fn phase(&self) -> SessionLoopPhase {
        match self {
            Self::Waiting { .. } => SessionLoopPhase::Waiting,
            Self::Pending => SessionLoopPhase::Pending,
            Self::Running => SessionLoopPhase::Running,
            Self::Stopped { .. } => SessionLoopPhase::Stopped,
            Self::Expired { .. } => SessionLoopPhase::Expired,
        }
    }
}

/// One self-paced loop as the session record keeps it (`ISessionLoopState`).
///
/// On the wire a flat record: `loopId`, `instruction`, `useDefaultPrompt?`, `createdAt`,
/// `expiresAt`, `revision`, `generation`, `phase`, `nextAllowedAt?`, `delaySeconds?`, `reason?`,
/// `fallbackUsed`, `terminalReason?`. Move it with [`apply`](Self::apply) (or
/// [`next_loop_state`]).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::LoopWire", into = "wire::LoopWire")
)]
#[non_exhaustive]
pub struct SessionLoopState {
    /// The loop's stable id (the handle a user stops it by).
    pub loop_id: String,
    /// The instruction each iteration runs.
    pub instruction: String,
    /// The omitted-prompt marker: `Some(true)` when the loop was created without an instruction,
    /// so the host re-reads its default prompt before each iteration. Kept exactly as written.
    pub use_default_prompt: Option<bool>,
    /// When the loop was created (ISO-8601, not validated).
    pub created_at: String,
    /// When the loop expires (ISO-8601; read by [`LoopInput::Expire`]).
    pub expires_at: String,
    /// Monotonic change counter: incremented by every accepted input, so a writer can reconcile
    /// an ambiguous write.
    pub revision: u64,
    /// Committed opportunities to run: the identity of the pending or running iteration, and the
    /// generation a wake must name while waiting.
    pub generation: u64,
    /// The phase and the data only it has.
    pub status: SessionLoopStatus,
    /// The last committed delay choice.
    pub delay_seconds: Option<LoopDelay>,
    /// True when the last wait used the host's fallback delay because the iteration chose none.
    pub fallback_used: bool,
}

optional_setters!(SessionLoopState {
    /// The same value with the omitted-prompt marker `use_default_prompt` set: `true` when the loop
    /// was created without an instruction, so the host re-reads its default prompt before each
    /// iteration.
    with_use_default_prompt => use_default_prompt: bool,
    /// The same value with `delay_seconds` set: the last committed delay choice.
    with_delay_seconds => delay_seconds: LoopDelay,
});

impl SessionLoopState {
    /// A new loop whose first iteration is due: pending, generation 1, revision 0, no delay
    /// chosen yet, no omitted-prompt marker.
    #[must_use]
    pub fn new(
        loop_id: impl Into<String>,
        instruction: impl Into<String>,
        created_at: impl Into<String>,
        expires_at: impl Into<String>,
    ) -> Self {
        Self {
            loop_id: loop_id.into(),
            instruction: instruction.into(),
            use_default_prompt: None,
            created_at: created_at.into(),
            expires_at: expires_at.into(),
            revision: 0,
            generation: 1,
            status: SessionLoopStatus::Pending,
            delay_seconds: None,
            fallback_used: false,
        }
    }

    /// The phase literal.
    #[must_use]
    pub const fn phase(&self) -> SessionLoopPhase {
        self.status.phase()
    }

    /// True when stopped or expired.
    #[must_use]
    pub const fn is_terminal(&self) -> bool {
        self.phase().is_terminal()
    }

    /// True when the host must re-read its default prompt before each iteration.
    #[must_use]
    pub fn uses_default_prompt(&self) -> bool {
        self.use_default_prompt == Some(true)
    }

    /// The next allowed instant, while waiting.
    #[must_use]
    pub fn next_allowed_at(&self) -> Option<&str> {
        match &self.status {
            SessionLoopStatus::Waiting {
                next_allowed_at, ..
            } => Some(next_allowed_at),
            _ => None,
        }
    }

    /// The terminal reason, when stopped or expired with one.
    #[must_use]
    pub fn terminal_reason(&self) -> Option<&str> {
        match &self.status {
            SessionLoopStatus::Stopped { terminal_reason }
            | SessionLoopStatus::Expired { terminal_reason } => terminal_reason.as_deref(),
            _ => None,
        }
    }

    /// Applies `input`: on success the state becomes [`next_loop_state`]'s result; on refusal it
    /// is left exactly as it was.
    ///
    /// # Errors
    ///
    /// The [`LoopRefusal`] of [`next_loop_state`].
    pub fn apply(&mut self, input: &LoopInput) -> Result<(), LoopRefusal> {
        *self = next_loop_state(self, input)?;
        Ok(())
    }
}

/// Something that happens to a loop: the input of [`next_loop_state`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoopInput {
    /// The running iteration (or a reschedule while waiting) chose to wait `delay` from `now_ms`,
    /// for `reason`.
    ScheduleWait {
        /// Now, in milliseconds since the Unix epoch.
        now_ms: u64,
        /// The chosen delay.
        delay: LoopDelay,
        /// Why, when a reason was given.
        reason: Option<String>,
    },
    /// The running iteration ended without choosing a delay: wait the host's `fallback` from
    /// `now_ms`.
    Finish {
        /// Now, in milliseconds since the Unix epoch.
        now_ms: u64,
        /// The host's fallback delay.
        fallback: LoopDelay,
    },
    /// A wake timer armed for `generation` fired at `now_ms`.
    Wake {
        /// The generation the timer was armed for.
        generation: u64,
        /// Now, in milliseconds since the Unix epoch.
        now_ms: u64,
    },
    /// The pending iteration starts running.
    Start,
    /// Somebody stops the loop.
    Stop {
        /// Why, when a reason was given (kept as the terminal reason).
        reason: Option<String>,
    },
    /// The host reports the loop may have expired at `now_ms`.
    Expire {
        /// Now, in milliseconds since the Unix epoch.
        now_ms: u64,
    },
}

/// Which kind of [`LoopInput`] (without its data), for refusals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LoopInputKind {
    /// [`LoopInput::ScheduleWait`].
    ScheduleWait,
    /// [`LoopInput::Finish`].
    Finish,
    /// [`LoopInput::Wake`].
    Wake,
    /// [`LoopInput::Start`].
    Start,
    /// [`LoopInput::Stop`].
    Stop,
    /// [`LoopInput::Expire`].
    Expire,
}

impl LoopInput {
    /// The input's kind.
    #[must_use]
    pub const fn kind(&self) -> LoopInputKind {
        match self {
            Self::ScheduleWait { .. } => LoopInputKind::ScheduleWait,
            Self::Finish { .. } => LoopInputKind::Finish,
            Self::Wake { .. } => LoopInputKind::Wake,
            Self::Start => LoopInputKind::Start,
            Self::Stop { .. } => LoopInputKind::Stop,
            Self::Expire { .. } => LoopInputKind::Expire,
        }
    }
}

impl fmt::Display for LoopInputKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::ScheduleWait => "schedule-wait",
            Self::Finish => "finish",
            Self::Wake => "wake",
            Self::Start => "start",
            Self::Stop => "stop",
            Self::Expire => "expire",
        })
    }
}

/// Why [`next_loop_state`] refused an input. The state is unchanged whenever one is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LoopRefusal {
    /// The loop is stopped or expired and accepts nothing.
    #[error("the loop is {phase} and accepts nothing")]
    Terminal {
        /// Its terminal phase.
        phase: SessionLoopPhase,
    },
    /// A wake armed for another generation than the loop's current one.
    #[error("stale wake: armed for generation {received}, the loop is at {expected}")]
    StaleWake {
        /// The loop's current generation.
        expected: u64,
        /// The generation the wake named.
        received: u64,
    },
    /// The input has no meaning in this phase.
    #[error("a {phase} loop does not accept {input}")]
    WrongPhase {
        /// The loop's phase.
        phase: SessionLoopPhase,
        /// The refused input.
        input: LoopInputKind,
    },
    /// A wake before the loop's next allowed instant.
    #[error("woken before the loop's next allowed instant")]
    TooEarly,
    /// An expiry reported before the loop's `expiresAt`.
    #[error("the loop has not reached its expiry")]
    NotExpired,
    /// An instant the machine must compare is not in a form it reads.
    #[error("`{field}` is not an ISO-8601 instant this machine reads")]
    UnreadableInstant {
        /// The wire name of the field (`nextAllowedAt` or `expiresAt`).
        field: &'static str,
    },
    /// `now` plus the delay lies beyond what an ISO-8601 instant can say (after year 9999).
    #[error("the next instant lies beyond year 9999")]
    InstantOutOfRange,
    /// `revision` or `generation` cannot grow any further.
    #[error("the loop's counters cannot grow any further")]
    CounterExhausted,
}

/// The loop machine: the state after `input`, or why `input` is refused (the state itself is
/// never touched).
///
/// | phase | accepted inputs |
/// |---|---|
/// | waiting | `Wake` (→ pending, generation + 1), `ScheduleWait`, `Stop`, `Expire` |
/// | pending | `Start` (→ running), `Stop`, `Expire` |
/// | running | `ScheduleWait` / `Finish` (→ waiting), `Stop`, `Expire` |
/// | stopped, expired | nothing |
///
/// A wake is accepted only for the loop's current generation (any other is refused as stale, in
/// every live phase) and not before `nextAllowedAt`; `ScheduleWait` while waiting reschedules;
/// `Expire` needs `now` at or after `expiresAt`. Every accepted input increments `revision`.
///
/// # Errors
///
/// A [`LoopRefusal`] for every refused pair.
pub fn next_loop_state(
    state: &SessionLoopState,
    input: &LoopInput,
) -> Result<SessionLoopState, LoopRefusal> {
    use LoopInput as In;
    use SessionLoopStatus as St;

    let mut next = state.clone();
    match (&state.status, input) {
        (St::Stopped { .. } | St::Expired { .. }, _) => {
            return Err(LoopRefusal::Terminal {
                phase: state.phase(),
            });
        }
        (_, In::Wake { generation, .. }) if *generation != state.generation => {
            return Err(LoopRefusal::StaleWake {
                expected: state.generation,
                received: *generation,
            });
        }
        (
            St::Waiting {
                next_allowed_at, ..
            },
            In::Wake { now_ms, .. },
        ) => {
            let allowed = parse_instant(next_allowed_at).ok_or(LoopRefusal::UnreadableInstant {
                field: "nextAllowedAt",
            })?;
            if *now_ms < allowed {
                return Err(LoopRefusal::TooEarly);
            }
            next.generation = state
                .generation
                .checked_add(1)
                .ok_or(LoopRefusal::CounterExhausted)?;
            next.status = St::Pending;
        }
        (
            St::Waiting { .. } | St::Running,
            In::ScheduleWait {
                now_ms,
                delay,
                reason,
            },
        ) => {
            next.status = St::Waiting {
                next_allowed_at: instant_after(*now_ms, *delay)?,
                reason: reason.clone(),
            };
            next.delay_seconds = Some(*delay);
            next.fallback_used = false;
        }
        (St::Running, In::Finish { now_ms, fallback }) => {
            next.status = St::Waiting {
                next_allowed_at: instant_after(*now_ms, *fallback)?,
                reason: None,
            };
            next.delay_seconds = Some(*fallback);
            next.fallback_used = true;
        }
        (St::Pending, In::Start) => next.status = St::Running,
        (_, In::Stop { reason }) => {
            next.status = St::Stopped {
                terminal_reason: reason.clone(),
            };
        }
        (_, In::Expire { now_ms }) => {
            let expires = parse_instant(&state.expires_at)
                .ok_or(LoopRefusal::UnreadableInstant { field: "expiresAt" })?;
            if *now_ms < expires {
                return Err(LoopRefusal::NotExpired);
            }
            next.status = St::Expired {
                terminal_reason: None,
            };
        }
        (status, input) => {
            return Err(LoopRefusal::WrongPhase {
                phase: status.phase(),
                input: input.kind(),
            });
        }
    }
    next.revision = state
        .revision
        .checked_add(1)
        .ok_or(LoopRefusal::CounterExhausted)?;
    Ok(next)
}

/// What asking to stop "the" waiting loop came to (`TWaitingLoopStopOutcome`), tagged on `kind`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "kind",
        rename_all = "lowercase",
        rename_all_fields = "camelCase"
    )
)]
pub enum WaitingLoopStopOutcome {
    /// `none`: no loop was waiting.
    None,
    /// `several`: more than one loop was waiting, so none was stopped.
    Several {
        /// What to tell the user (name the loop to stop).
        message: String,
    },
    /// `stopped`: the one waiting loop was stopped.
    Stopped {
        /// The loop stopped.
        loop_id: String,
        /// What to tell the user, when there is anything.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        message: Option<String>,
    },
    /// `failed`: stopping the loop failed.
    Failed {
        /// The loop that could not be stopped, when known.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        loop_id: Option<String>,
        /// Why.
        message: String,
    },
}

/// The stop rule over a session's loops: with no loop waiting, `none`; with more than one
/// waiting, `several` and nothing changes; with exactly one, stop it (its terminal reason is
/// `reason`) and report `stopped`, or `failed` if the machine refuses.
///
/// Loops in other phases are never touched.
pub fn stop_waiting_loop(
    loops: &mut [SessionLoopState],
    reason: Option<String>,
) -> WaitingLoopStopOutcome {
    let waiting = |state: &&mut SessionLoopState| state.phase() == SessionLoopPhase::Waiting;
    let count = loops.iter_mut().filter(waiting).count();
    if count > 1 {
        return WaitingLoopStopOutcome::Several {
            message: format!("{count} self-paced loops are waiting; name the one to stop"),
        };
    }
    match loops.iter_mut().find(waiting) {
        None => WaitingLoopStopOutcome::None,
        Some(state) => match state.apply(&LoopInput::Stop { reason }) {
            Ok(()) => WaitingLoopStopOutcome::Stopped {
                loop_id: state.loop_id.clone(),
                message: None,
            },
            Err(refusal) => WaitingLoopStopOutcome::Failed {
                loop_id: Some(state.loop_id.clone()),
                message: refusal.to_string(),
            },
        },
    }
}

// ---- instants: milliseconds since the epoch <-> ISO-8601 (proleptic Gregorian, UTC) ----

/// `now_ms + delay`, written as an instant.
fn instant_after(now_ms: u64, delay: LoopDelay) -> Result<String, LoopRefusal> {
    now_ms
        .checked_add(u64::from(delay.seconds()) * 1000)
        .and_then(format_instant)
        .ok_or(LoopRefusal::InstantOutOfRange)
}

/// Days since 1970-01-01 of a civil date (H. Hinnant's `days_from_civil`).
const fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Reads `YYYY-MM-DDTHH:MM:SS[.f…]` followed by `Z` or `±HH:MM` as milliseconds since the epoch
/// (fraction digits past the third are dropped); `None` for any other text or an instant before
/// the epoch.
fn parse_instant(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    let digits = |from: usize, len: usize| -> Option<i64> {
        let part = bytes.get(from..from + len)?;
        part.iter().try_fold(0_i64, |acc, byte| {
            byte.is_ascii_digit()
                .then(|| acc * 10 + i64::from(byte - b'0'))
        })
    };
    let at = |index: usize, byte: u8| bytes.get(index) == Some(&byte);
    if !(at(4, b'-') && at(7, b'-') && at(10, b'T') && at(13, b':') && at(16, b':')) {
        return None;
    }
    let (year, month, day) = (digits(0, 4)?, digits(5, 2)?, digits(8, 2)?);
    let (hour, minute, second) = (digits(11, 2)?, digits(14, 2)?, digits(17, 2)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if day < 1 || day > month_days || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut index = 19;
    let mut milli = 0;
    if at(index, b'.') {
        let start = index + 1;
        let len = bytes[start..]
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        if !(1..=9).contains(&len) {
            return None;
        }
        let kept = len.min(3);
        milli = digits(start, kept)? * [100, 10, 1][kept - 1];
        index = start + len;
    }
    let offset_minutes = match bytes.get(index) {
        Some(b'Z') if bytes.len() == index + 1 => 0,
        Some(&sign @ (b'+' | b'-')) if bytes.len() == index + 6 && at(index + 3, b':') => {
            let (oh, om) = (digits(index + 1, 2)?, digits(index + 4, 2)?);
            if oh > 23 || om > 59 {
                return None;
            }
            let minutes = oh * 60 + om;
            if sign == b'+' { minutes } else { -minutes }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
    u64::try_from(seconds * 1000 + milli).ok()
}

#[cfg(feature = "serde")]
mod wire {
    //! The flat wire record of a loop and its checks.

    use alloc::string::String;

    use super::{LoopDelay, SessionLoopPhase, SessionLoopState, SessionLoopStatus};

    /// The catalog's flat shape.
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(super) struct LoopWire {
        loop_id: String,
        instruction: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        use_default_prompt: Option<bool>,
        created_at: String,
        expires_at: String,
        revision: u64,
        generation: u64,
        phase: SessionLoopPhase,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_allowed_at: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        delay_seconds: Option<LoopDelay>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        fallback_used: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        terminal_reason: Option<String>,
    }

    /// A flat record whose optional fields do not fit its phase.
    #[derive(Debug, thiserror::Error)]
    pub(super) enum LoopShapeError {
        /// A waiting loop without its next allowed instant.
        #[error("a waiting loop needs `nextAllowedAt`")]
        WaitingWithoutInstant,
        /// A field written on a phase that does not have it.
        #[error("a {phase} loop cannot carry `{field}`")]
        Foreign {
            field: &'static str,
            phase: SessionLoopPhase,
        },
    }

    impl TryFrom<LoopWire> for SessionLoopState {
        type Error = LoopShapeError;

        fn try_from(wire: LoopWire) -> Result<Self, LoopShapeError> {
            let phase = wire.phase;
            let foreign = |present: bool, field: &'static str| {
                if present {
                    Err(LoopShapeError::Foreign { field, phase })
                } else {
                    Ok(())
                }
            };
            let status = match phase {
                SessionLoopPhase::Waiting => {
                    foreign(wire.terminal_reason.is_some(), "terminalReason")?;
                    SessionLoopStatus::Waiting {
                        next_allowed_at: wire
                            .next_allowed_at
                            .ok_or(LoopShapeError::WaitingWithoutInstant)?,
                        reason: wire.reason,
                    }
                }
                _ => {
                    foreign(wire.next_allowed_at.is_some(), "nextAllowedAt")?;
                    foreign(wire.reason.is_some(), "reason")?;
                    match phase {
                        SessionLoopPhase::Stopped => SessionLoopStatus::Stopped {
                            terminal_reason: wire.terminal_reason,
                        },
                        SessionLoopPhase::Expired => SessionLoopStatus::Expired {
                            terminal_reason: wire.terminal_reason,
                        },
                        _ => {
                            foreign(wire.terminal_reason.is_some(), "terminalReason")?;
                            if phase == SessionLoopPhase::Pending {
                                SessionLoopStatus::Pending
                            } else {
                                SessionLoopStatus::Running
                            }
                        }
                    }
                }
            };
            Ok(Self {
                loop_id: wire.loop_id,
                instruction: wire.instruction,
                use_default_prompt: wire.use_default_prompt,
                created_at: wire.created_at,
                expires_at: wire.expires_at,
                revision: wire.revision,
                generation: wire.generation,
                status,
                delay_seconds: wire.delay_seconds,
                fallback_used: wire.fallback_used,
            })
        }
    }

    impl From<SessionLoopState> for LoopWire {
        fn from(state: SessionLoopState) -> Self {
            let phase = state.phase();
            let (next_allowed_at, reason, terminal_reason) = match state.status {
                SessionLoopStatus::Waiting {
                    next_allowed_at,
                    reason,
                } => (Some(next_allowed_at), reason, None),
                SessionLoopStatus::Pending | SessionLoopStatus::Running => (None, None, None),
                SessionLoopStatus::Stopped { terminal_reason }
                | SessionLoopStatus::Expired { terminal_reason } => (None, None, terminal_reason),
            };
            Self {
                loop_id: state.loop_id,
                instruction: state.instruction,
                use_default_prompt: state.use_default_prompt,
                created_at: state.created_at,
                expires_at: state.expires_at,
                revision: state.revision,
                generation: state.generation,
                phase,
                next_allowed_at,
                delay_seconds: state.delay_seconds,
                reason,
                fallback_used: state.fallback_used,
                terminal_reason,
            }
        }
    }
}
