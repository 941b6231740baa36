//! The tighten-only diff: every way a new rule set loosens the one in force.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::path::lex_within;
use super::rules::{AllowList, DenyList, SessionPermissionRules};

/// One way a new rule set loosens the prior one. Its `Display` is a sentence for a person; its
/// wire form is tagged on `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "kind",
        rename_all = "snake_case",
        deny_unknown_fields,
        from = "LoosenReasonWire"
    )
)]
#[non_exhaustive]
pub enum LoosenReason {
    /// A deny-list entry of the prior rules is missing from the new ones (a missing deny-list
    /// removes every entry).
    DenyRemoved {
        /// The deny-list.
        list: DenyList,
        /// The entry removed.
        name: String,
    },
    /// The prior rules had this allowlist and the new ones have none (everything allowed).
    AllowlistRemoved {
        /// The allowlist.
        list: AllowList,
    },
    /// The new allowlist has an entry the prior one did not.
    AllowAdded {
        /// The allowlist.
        list: AllowList,
        /// The entry added.
        name: String,
    },
    /// The prior rules confined writes (`allowDirs`) and the new ones do not.
    ConfinementRemoved,
    /// A new `allowDirs` entry is not within any prior one ([`lex_within`]).
    DirOutside {
        /// The entry, as the new rules give it.
        dir: String,
    },
}

/// The decoder's view: the field-less kind is an empty struct variant, so that serde refuses
/// unknown fields on it too (it ignores them on a unit variant of a tagged enum).
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum LoosenReasonWire {
    DenyRemoved { list: DenyList, name: String },
    AllowlistRemoved { list: AllowList },
    AllowAdded { list: AllowList, name: String },
    ConfinementRemoved {},
    DirOutside { dir: String },
}

#[cfg(feature = "serde")]
impl From<LoosenReasonWire> for LoosenReason {
    fn from(wire: LoosenReasonWire) -> Self {
        match wire {
            LoosenReasonWire::DenyRemoved { list, name } => Self::DenyRemoved { list, name },
            LoosenReasonWire::AllowlistRemoved { list } => Self::AllowlistRemoved { list },
            LoosenReasonWire::AllowAdded { list, name } => Self::AllowAdded { list, name },
            LoosenReasonWire::ConfinementRemoved {} => Self::ConfinementRemoved,
            LoosenReasonWire::DirOutside { dir } => Self::DirOutside { dir },
        }
    }
}

impl fmt::Display for LoosenReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DenyRemoved { list, name } => write!(f, "removes `{name}` from {list}"),
            Self::AllowlistRemoved { list } => write!(f, "removes the {list} allowlist"),
            Self::AllowAdded { list, name } => {
                write!(f, "adds `{name}` to {list}, outside the prior set")
            }
            Self::ConfinementRemoved => f.write_str("removes the allowDirs confinement"),
            Self::DirOutside { dir } => {
                write!(f, "adds allowDirs entry `{dir}`, not within any prior dir")
            }
        }
    }
}

/// The reasons `next` loosens `prior` (`loosenReasons`); empty when `next` only tightens or
/// changes nothing.
///
/// Per field, in the order `toolAllow`, `toolDeny`, `allowDirs`, `commandAllow`,
/// `commandDeny`, and within a field in list order:
/// - deny-lists: each prior entry missing from `next` loosens;
/// - allowlists: dropping a prior list loosens, and so does each `next` entry the prior list
///   does not have; a list where the prior rules had none only narrows;
/// - `allowDirs`: dropping prior confinement loosens, and so does each `next` entry not
///   [`lex_within`] some prior entry; confinement where the prior rules had none only narrows.
///   [`lex_within`] is the containment enforcement decides with (Windows paths fold ASCII case,
///   POSIX paths do not), so an accepted entry allows no write the prior entries deny.
///
/// Tool and command names compare exactly. The gate never under-reports: a directory that only
/// looks nested (`<prior>/../etc`) or that the lexer cannot read with certainty (an opaque path)
/// is reported.
#[must_use]
pub fn loosen_reasons(
    prior: &SessionPermissionRules,
    next: &SessionPermissionRules,
) -> Vec<LoosenReason> {
    let mut reasons = Vec::new();
    allowlist(
        &mut reasons,
        AllowList::Tool,
        &prior.tool_allow,
        &next.tool_allow,
    );
    deny_list(
        &mut reasons,
        DenyList::Tool,
        &prior.tool_deny,
        &next.tool_deny,
    );
    if let Some(prior_dirs) = &prior.allow_dirs {
        match &next.allow_dirs {
            None => reasons.push(LoosenReason::ConfinementRemoved),
            Some(next_dirs) => reasons.extend(
                next_dirs
                    .iter()
                    .filter(|dir| !prior_dirs.iter().any(|root| lex_within(root, dir)))
                    .map(|dir| LoosenReason::DirOutside { dir: dir.clone() }),
            ),
        }
    }
    allowlist(
        &mut reasons,
        AllowList::Command,
        &prior.command_allow,
        &next.command_allow,
    );
    deny_list(
        &mut reasons,
        DenyList::Command,
        &prior.command_deny,
        &next.command_deny,
    );
    reasons
}

fn deny_list(
    reasons: &mut Vec<LoosenReason>,
    list: DenyList,
    prior: &Option<Vec<String>>,
    next: &Option<Vec<String>>,
) {
    let Some(prior) = prior else { return };
    let next = next.as_deref().unwrap_or_default();
    reasons.extend(
        prior
            .iter()
            .filter(|name| !next.contains(name))
            .map(|name| LoosenReason::DenyRemoved {
                list,
                name: name.clone(),
            }),
    );
}

fn allowlist(
    reasons: &mut Vec<LoosenReason>,
    list: AllowList,
    prior: &Option<Vec<String>>,
    next: &Option<Vec<String>>,
) {
    let Some(prior) = prior else { return };
    match next {
        None => reasons.push(LoosenReason::AllowlistRemoved { list }),
        Some(next) => reasons.extend(next.iter().filter(|name| !prior.contains(name)).map(
            |name| LoosenReason::AllowAdded {
                list,
                name: name.clone(),
            },
        )),
    }
}
