//! Enforcement: one tool call against the rules in force, allowed or denied with a reason.

use crate::agent_core::ToolCall;

use super::path::lex_within_any;
use super::rules::SessionPermissionRules;

/// What a tool call can do, as the host's tool declares it. The crate does not parse tool
/// arguments: the host knows its tools, so it names the path a write tool is about to write or
/// the program a shell is about to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolAccess<'a> {
    /// The call writes nothing the rules confine (reading files, searching, asking the user).
    /// Only `toolAllow` and `toolDeny` apply.
    ReadOnly,
    /// The call writes the file at this path (`write_file`, `edit_file`): it can be confined.
    /// Pass the path the tool will really open, resolved against the tool's working directory
    /// (a relative target is never within an absolute `allowDirs` entry) and, where the host
    /// can, with symlinks resolved. A tool that writes several paths is checked once per path.
    WritePath(&'a str),
    /// The call runs a command whose program is this `argv[0]` (`bash`): it is write-capable
    /// and cannot be confined to a path.
    Command(&'a str),
    /// The call can write but names no single path it writes (a tool that writes where its
    /// arguments do not say): it cannot be confined.
    UnconfinedWrite,
}

/// One tool call as the rules see it: the tool's name and what it can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ToolInvocation<'a> {
    /// The tool's name, as the model called it.
    pub tool_name: &'a str,
    /// What the call can do.
    pub access: ToolAccess<'a>,
}

impl<'a> ToolInvocation<'a> {
    /// A call of `tool_name` with `access`.
    #[must_use]
    pub const fn new(tool_name: &'a str, access: ToolAccess<'a>) -> Self {
        Self { tool_name, access }
    }

    /// The model's tool call, with the access the host's tool declares for it.
    #[must_use]
    pub fn of(call: &'a ToolCall, access: ToolAccess<'a>) -> Self {
        Self::new(&call.function.name, access)
    }
}

string_enum! {
    /// Why a tool call was denied.
    pub enum DenyReason {
        /// The tool is in `toolDeny`.
        ToolDenied = "tool_denied",
        /// `toolAllow` is set and does not name the tool.
        ToolNotAllowed = "tool_not_allowed",
        /// `allowDirs` is set and the write target is within none of its entries.
        WriteOutsideAllowDirs = "write_outside_allow_dirs",
        /// The command's `argv[0]` is in `commandDeny`.
        CommandDenied = "command_denied",
        /// `commandAllow` is set and does not name the command's `argv[0]`.
        CommandNotAllowed = "command_not_allowed",
        /// `allowDirs` is set and the call can write without being confined to a path.
        UnconfinableWrite = "unconfinable_write",
    }
}

impl DenyReason {
    /// A sentence for the model or a person.
    #[must_use]
    pub const fn message(self) -> &'static str {
        match self {
            Self::ToolDenied => "this tool is denied for this session",
            Self::ToolNotAllowed => "this tool is not on the session's allowlist",
            Self::WriteOutsideAllowDirs => {
                "the write target is outside the directories this session may write"
            }
            Self::CommandDenied => "this command is denied for this session",
            Self::CommandNotAllowed => "this command is not on the session's allowlist",
            Self::UnconfinableWrite => {
                "writes are confined to directories, and this tool cannot be confined"
            }
        }
    }
}

/// The decision on one tool call. Its wire form is tagged on `decision`:
/// `{"decision":"allow"}`, `{"decision":"deny","reason":"tool_denied"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "decision",
        rename_all = "snake_case",
        deny_unknown_fields,
        from = "VerdictWire"
    )
)]
#[must_use]
pub enum Verdict {
    /// The rules allow the call.
    Allow,
    /// The rules deny the call.
    Deny {
        /// Why (the first rule that denies, in the order of [`SessionPermissionRules::check`]).
        reason: DenyReason,
    },
}

/// The decoder's view: `allow` is an empty struct variant, so that serde refuses unknown fields
/// on it too (it ignores them on a unit variant of a tagged enum).
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case", deny_unknown_fields)]
enum VerdictWire {
    Allow {},
    Deny { reason: DenyReason },
}

#[cfg(feature = "serde")]
impl From<VerdictWire> for Verdict {
    fn from(wire: VerdictWire) -> Self {
        match wire {
            VerdictWire::Allow {} => Self::Allow,
            VerdictWire::Deny { reason } => Self::Deny { reason },
        }
    }
}

impl Verdict {
    /// True when the call is allowed.
    #[must_use]
    pub const fn is_allowed(self) -> bool {
        matches!(self, Self::Allow)
    }

    /// The reason, when denied.
    #[must_use]
    pub const fn deny_reason(self) -> Option<DenyReason> {
        match self {
            Self::Allow => None,
            Self::Deny { reason } => Some(reason),
        }
    }
}

/// The program name of `argv[0]`: what follows its last `/` or `\`.
fn program_name(argv0: &str) -> &str {
    argv0.rsplit(['/', '\\']).next().unwrap_or(argv0)
}

fn names(list: &[alloc::string::String], name: &str) -> bool {
    list.iter().any(|entry| entry == name)
}

impl SessionPermissionRules {
    /// Checks one tool call against these rules (the rules in force). Deny wins, and the first
    /// rule that denies is the reason, in this order:
    ///
    /// 1. `toolDeny` names the tool → [`ToolDenied`](DenyReason::ToolDenied);
    /// 2. `toolAllow` is set and does not name it →
    ///    [`ToolNotAllowed`](DenyReason::ToolNotAllowed);
    /// 3. a [`WritePath`](ToolAccess::WritePath) while `allowDirs` is set and the path is
    ///    [`lex_within`](super::lex_within) none of its entries →
    ///    [`WriteOutsideAllowDirs`](DenyReason::WriteOutsideAllowDirs);
    /// 4. a [`Command`](ToolAccess::Command) whose `argv[0]`, or its program name (after the
    ///    last `/` or `\`), `commandDeny` names → [`CommandDenied`](DenyReason::CommandDenied);
    /// 5. a command while `commandAllow` is set and does not name `argv[0]` exactly →
    ///    [`CommandNotAllowed`](DenyReason::CommandNotAllowed) (`/tmp/x/git` is not `git`);
    /// 6. a command or an [`UnconfinedWrite`](ToolAccess::UnconfinedWrite) while `allowDirs` is
    ///    set → [`UnconfinableWrite`](DenyReason::UnconfinableWrite).
    ///
    /// Tool and command names compare exactly; paths compare as in
    /// [`lex_within`](super::lex_within), the containment the tighten gate uses (Windows paths
    /// fold ASCII case, POSIX paths do not). It allocates nothing and is linear in the size of
    /// the rules and the call. It is a policy fold, not a sandbox: see the module docs.
    pub fn check(&self, call: &ToolInvocation<'_>) -> Verdict {
        let deny = |reason| Verdict::Deny { reason };
        if self
            .tool_deny
            .as_deref()
            .is_some_and(|list| names(list, call.tool_name))
        {
            return deny(DenyReason::ToolDenied);
        }
        if self
            .tool_allow
            .as_deref()
            .is_some_and(|list| !names(list, call.tool_name))
        {
            return deny(DenyReason::ToolNotAllowed);
        }
        let confined = self.allow_dirs.as_deref();
        match call.access {
            ToolAccess::ReadOnly => Verdict::Allow,
            ToolAccess::WritePath(path) => match confined {
                Some(dirs) if !lex_within_any(dirs, path) => {
                    deny(DenyReason::WriteOutsideAllowDirs)
                }
                _ => Verdict::Allow,
            },
            ToolAccess::Command(argv0) => {
                let program = program_name(argv0);
                if self
                    .command_deny
                    .as_deref()
                    .is_some_and(|list| names(list, argv0) || names(list, program))
                {
                    deny(DenyReason::CommandDenied)
                } else if self
                    .command_allow
                    .as_deref()
                    .is_some_and(|list| !names(list, argv0))
                {
                    deny(DenyReason::CommandNotAllowed)
                } else if confined.is_some() {
                    deny(DenyReason::UnconfinableWrite)
                } else {
                    Verdict::Allow
                }
            }
            ToolAccess::UnconfinedWrite => match confined {
                Some(_) => deny(DenyReason::UnconfinableWrite),
                None => Verdict::Allow,
            },
        }
    }
}
