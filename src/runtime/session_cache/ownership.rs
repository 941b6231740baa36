//! Session ownership rows: the three-state lookup ([`OwnerRow`]), what a first write may store
//! ([`Registration`]), the principal a row names ([`Principal`]), and the rule a fork's row
//! follows ([`ForkOwner`], [`fork_ownership`]).

use alloc::string::String;
use core::fmt;

/// The principal an ownership row names: never empty and never only whitespace.
///
/// A blank principal is refused where it is made ([`Principal::new`], and decoding), because a
/// row owned by "" would refuse every real principal while matching any caller whose identity
/// failed to resolve to a name: it is neither a principal nor anonymous.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct Principal(String);

/// Why a principal was refused: it is empty or only whitespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("a principal is never empty or only whitespace")]
pub struct BlankPrincipal;

impl Principal {
    /// A principal, checked (kept as given: not trimmed).
    ///
    /// # Errors
    /// [`BlankPrincipal`] when `name` is empty or only whitespace.
    pub fn new(name: impl Into<String>) -> Result<Self, BlankPrincipal> {
        let name = name.into();
        if name.trim().is_empty() {
            Err(BlankPrincipal)
        } else {
            Ok(Self(name))
        }
    }

    /// The principal's name.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Principal {
    type Error = BlankPrincipal;

    fn try_from(name: String) -> Result<Self, BlankPrincipal> {
        Self::new(name)
    }
}

impl From<Principal> for String {
    fn from(principal: Principal) -> Self {
        principal.0
    }
}

impl fmt::Debug for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What the ownership lookup of one session id says (`ownerOf`): three states that are never
/// collapsed.
///
/// - [`NoRow`](Self::NoRow): no ownership row (an unknown id): an authorizer may claim it for
///   the calling principal, or answer "not found" under require-existing.
/// - [`Anonymous`](Self::Anonymous): the session exists and is unowned: admitted (single-tenant
///   or shared use).
/// - [`Owned`](Self::Owned): owned by a principal: any other principal is refused.
///
/// Reading `NoRow` as `Anonymous` would admit an unknown id as a shared session, and reading
/// `Anonymous` as `NoRow` would make a shared session claimable: the enum keeps them apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "state", content = "principal", rename_all = "lowercase")
)]
pub enum OwnerRow {
    /// No row: the id is unknown to the ownership table.
    #[cfg_attr(feature = "serde", serde(rename = "no-row"))]
    NoRow,
    /// A row that says the session exists and is unowned.
    Anonymous,
    /// A row naming the owning principal.
    Owned(Principal),
}

impl OwnerRow {
    /// The row a registration stores.
    #[must_use]
    pub fn of(registration: &Registration) -> Self {
        match registration {
            Registration::Anonymous => Self::Anonymous,
            Registration::Principal(principal) => Self::Owned(principal.clone()),
        }
    }

    /// True when there is a row (anonymous or owned).
    #[must_use]
    pub const fn exists(&self) -> bool {
        !matches!(self, Self::NoRow)
    }

    /// The owning principal, for an owned row.
    #[must_use]
    pub fn principal(&self) -> Option<&Principal> {
        match self {
            Self::Owned(principal) => Some(principal),
            Self::NoRow | Self::Anonymous => None,
        }
    }
}

/// What `register` may store as a session's first ownership row.
///
/// The contract refuses a first write that is neither a principal nor anonymous, because a row
/// that exists yet reads back as "no row" would be claimable forever and never ownable. Here
/// such a write cannot be expressed: this enum has no third value, a [`Principal`] is never
/// blank, and a stored row is always a `Registration`, so [`OwnerRow::NoRow`] is only ever the
/// answer for an id without a row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "kind", content = "principal", rename_all = "lowercase")
)]
pub enum Registration {
    /// The session exists and is unowned.
    Anonymous,
    /// The session is owned by this principal.
    Principal(Principal),
}

/// The owner argument of a fork (`fork(source, owner?)`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ForkOwner {
    /// No owner argument: the fork inherits the source's row (none when the source has none).
    #[default]
    Inherit,
    /// An explicit anonymous owner (`null`). Deliberately the same as
    /// [`Inherit`](Self::Inherit): anonymous on a copy of an owned source would make its history
    /// claimable by anyone, so it only ever takes effect where the source is anonymous itself.
    Anonymous,
    /// An explicit principal. It takes effect only where the source has no row or an anonymous
    /// one; an owned source's fork stays its owner's.
    Principal(Principal),
}

/// The row a fork gets, from the source's row and the fork's owner argument: never weaker than
/// the source's (`None` = no row is minted).
///
/// | source row | [`Inherit`](ForkOwner::Inherit) / [`Anonymous`](ForkOwner::Anonymous) | [`Principal(p)`](ForkOwner::Principal) |
/// |---|---|---|
/// | no row | no row | owned by `p` |
/// | anonymous | anonymous | owned by `p` |
/// | owned by `o` | owned by `o` | owned by `o` |
///
/// A source without a row mints none for an inheriting fork, so the authorizer's claim branch
/// stays intact for the copy as it is for the original.
#[must_use]
pub fn fork_ownership(source: &OwnerRow, owner: &ForkOwner) -> Option<Registration> {
    match (source, owner) {
        (OwnerRow::Owned(principal), _) => Some(Registration::Principal(principal.clone())),
        (OwnerRow::NoRow | OwnerRow::Anonymous, ForkOwner::Principal(principal)) => {
            Some(Registration::Principal(principal.clone()))
        }
        (OwnerRow::Anonymous, ForkOwner::Inherit | ForkOwner::Anonymous) => {
            Some(Registration::Anonymous)
        }
        (OwnerRow::NoRow, ForkOwner::Inherit | ForkOwner::Anonymous) => None,
    }
}
