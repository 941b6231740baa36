//! Device-mesh admission (`mesh-admission-contracts`): what a handshake between two of one user's
//! devices establishes about the peer.
//!
//! Trust, locality and workspace are separate axes and stay separate fields of
//! [`MeshAdmission`]: a proven same user says nothing about where the peer runs, a peer on this
//! machine proves nothing about whose it is, and a workspace the peer names grants nothing at all.
//! Authority comes only from the trust and the capabilities local policy leaves of the
//! certificate's ([`MeshCapabilities::granted`]), never from the locality or the workspace: a
//! [`ConnectionPeer`](crate::session_mobility::authority::ConnectionPeer) built from an admission carries no workspace, and the
//! connection authority reads nothing but the capabilities to decide.
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::agent_core::PeerReach;

use crate::session_mobility::peers::{AdmittedPeerTrust, PeerTrust};

string_enum! {
    /// What a peer device may be asked to do (`TMeshCapability`): a capability of its device
    /// certificate that local policy left it.
    ///
    /// The variants are declared in the order of their literals, so the derived `Ord` is the
    /// order of the wire's strictly ascending arrays. How often each needs the receiving
    /// operator's yes is [`capability_approval`](crate::session_mobility::authority::capability_approval).
    pub enum MeshCapability {
        /// `'delegate'`: ask this session to run a task (asked for every request).
        Delegate = "delegate",
        /// `'drive'`: operate this session (asked once per connection).
        Drive = "drive",
        /// `'file'`: send this session a file (asked for every request).
        File = "file",
        /// `'handoff'`: push a session to this machine (asked for every request).
        Handoff = "handoff",
        /// `'message'`: send this session a peer message (never asked: a message carries no
        /// authority).
        Message = "message",
        /// `'observe'`: watch this session (asked once per connection).
        Observe = "observe",
        /// `'presence'`: see that this session is there (never asked).
        Presence = "presence",
    }
}

impl MeshCapability {
    /// The capability's bit in a [`MeshCapabilities`] set.
    const fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of [`MeshCapability`]: what admission granted a peer (certificate ∩ local policy).
///
/// Being a set, it is strictly ascending and holds no duplicate by construction; iteration
/// yields the capabilities in ascending order. Wire form: the ascending array of literals
/// (`["delegate","message"]`); the decoder refuses an array out of order or with a repeated
/// capability, and an unknown literal.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "Vec<MeshCapability>", into = "Vec<MeshCapability>")
)]
pub struct MeshCapabilities(u8);

impl MeshCapabilities {
    /// The empty set.
    pub const EMPTY: Self = Self(0);

    /// Every capability.
    pub const ALL: Self = Self(((1_u16 << MeshCapability::ALL.len()) - 1) as u8);

    /// What admission grants: the capabilities the peer's `certificate` names that local
    /// `policy` also allows (their intersection), as a set.
    pub fn granted(
        certificate: impl IntoIterator<Item = MeshCapability>,
        policy: impl IntoIterator<Item = MeshCapability>,
    ) -> Self {
        Self::from_iter(certificate).intersection(Self::from_iter(policy))
    }

    /// Reads a list that must already be strictly ascending (the wire's rule).
    ///
    /// # Errors
    ///
    /// [`MeshCapabilitiesNotAscending`] naming the first capability that does not follow its
    /// predecessor (out of order or repeated).
    pub fn from_ascending(list: &[MeshCapability]) -> Result<Self, MeshCapabilitiesNotAscending> {
        let mut set = Self::EMPTY;
        let mut previous: Option<MeshCapability> = None;
        for &capability in list {
            if let Some(previous) = previous
                && capability <= previous
            {
                return Err(MeshCapabilitiesNotAscending {
                    previous,
                    found: capability,
                });
            }
            previous = Some(capability);
            set = set.with(capability);
        }
        Ok(set)
    }

    /// True when `capability` is in the set.
    #[must_use]
    pub const fn contains(self, capability: MeshCapability) -> bool {
        self.0 & capability.bit() != 0
    }

    /// The set with `capability` added.
    #[must_use]
    pub const fn with(self, capability: MeshCapability) -> Self {
        Self(self.0 | capability.bit())
    }

    /// The set with `capability` removed.
    #[must_use]
    pub const fn without(self, capability: MeshCapability) -> Self {
        Self(self.0 & !capability.bit())
    }

    /// The capabilities in both sets.
    #[must_use]
    pub const fn intersection(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }

    /// How many capabilities the set holds.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when the set holds no capability.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The capabilities in ascending order.
    pub fn iter(self) -> impl Iterator<Item = MeshCapability> {
        MeshCapability::ALL
            .iter()
            .copied()
            .filter(move |capability| self.contains(*capability))
    }

    /// The capabilities as an ascending list (the wire's array).
    #[must_use]
    pub fn to_vec(self) -> Vec<MeshCapability> {
        self.iter().collect()
    }
}

/// Collects any capabilities into a set: order and repeats do not matter.
impl FromIterator<MeshCapability> for MeshCapabilities {
    fn from_iter<I: IntoIterator<Item = MeshCapability>>(capabilities: I) -> Self {
        capabilities
            .into_iter()
            .fold(Self::EMPTY, |set, capability| set.with(capability))
    }
}

impl fmt::Debug for MeshCapabilities {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl TryFrom<Vec<MeshCapability>> for MeshCapabilities {
    type Error = MeshCapabilitiesNotAscending;

    fn try_from(list: Vec<MeshCapability>) -> Result<Self, MeshCapabilitiesNotAscending> {
        Self::from_ascending(&list)
    }
}

impl From<MeshCapabilities> for Vec<MeshCapability> {
    fn from(set: MeshCapabilities) -> Self {
        set.to_vec()
    }
}

/// The refusal of a capability list that is not strictly ascending: `found` does not follow
/// `previous` (it comes before it, or repeats it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("capabilities must be strictly ascending: `{found}` follows `{previous}`")]
pub struct MeshCapabilitiesNotAscending {
    /// The capability before the offending one.
    pub previous: MeshCapability,
    /// The capability that does not follow it.
    pub found: MeshCapability,
}

string_enum! {
    /// What a device handshake proved about another of the user's devices: the two admitted
    /// trust levels of [`PeerTrust`] a handshake can produce.
    pub closed enum MeshTrust {
        /// `'same-user-same-host'`: the carrier's own kernel-enforced rendezvous proved the peer
        /// runs on this machine under this user.
        SameUserSameHost = "same-user-same-host",
        /// `'same-user-different-host'`: a verified device grant proved the user (the user's
        /// root key signed the device certificate); the machine is not proved to be this one.
        SameUserDifferentHost = "same-user-different-host",
    }
}

impl From<MeshTrust> for PeerTrust {
    fn from(trust: MeshTrust) -> Self {
        match trust {
            MeshTrust::SameUserSameHost => Self::SameUserSameHost,
            MeshTrust::SameUserDifferentHost => Self::SameUserDifferentHost,
        }
    }
}

impl From<MeshTrust> for AdmittedPeerTrust {
    fn from(trust: MeshTrust) -> Self {
        match trust {
            MeshTrust::SameUserSameHost => Self::SameUserSameHost,
            MeshTrust::SameUserDifferentHost => Self::SameUserDifferentHost,
        }
    }
}

/// The result of admitting another of the user's devices (`IMeshAdmission`): produced only on
/// success.
///
/// Trust, locality and workspace are separate fields. Authority comes from the trust and the
/// [`capabilities`](Self::capabilities) only: the locality is shown and passed to the operator's
/// question, never an authority input by itself, and the workspace is the peer's own claim and
/// grants nothing. The fields are private so that every admission holds at least one capability
/// and never claims `same-user-same-host` for a peer on another host.
///
/// Wire form: `{trust, locality, workspace?, deviceId, sessionId, capabilities}`, the decoder
/// refusing what [`new`](Self::new) refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::MeshAdmissionWire", into = "wire::MeshAdmissionWire")
)]
pub struct MeshAdmission {
    trust: MeshTrust,
    locality: PeerReach,
    workspace: Option<String>,
    device_id: String,
    session_id: String,
    capabilities: MeshCapabilities,
}

impl MeshAdmission {
    /// The admission of the device `device_id` (its session `session_id`), at `trust`, where the
    /// carrier established it runs (`locality`), granted `capabilities` (build them with
    /// [`MeshCapabilities::granted`]). It carries no workspace claim; add one with
    /// [`with_workspace_claim`](Self::with_workspace_claim).
    ///
    /// # Errors
    ///
    /// [`MeshAdmissionError::NoCapabilities`] for an empty set (a refusal is a different outcome)
    /// and [`MeshAdmissionError::SameHostTrustOnAnotherHost`] for `same-user-same-host` with the
    /// locality `another-host`.
    pub fn new(
        trust: MeshTrust,
        locality: PeerReach,
        device_id: impl Into<String>,
        session_id: impl Into<String>,
        capabilities: MeshCapabilities,
    ) -> Result<Self, MeshAdmissionError> {
        if capabilities.is_empty() {
            return Err(MeshAdmissionError::NoCapabilities);
        }
        if trust == MeshTrust::SameUserSameHost && locality == PeerReach::AnotherHost {
            return Err(MeshAdmissionError::SameHostTrustOnAnotherHost);
        }
        Ok(Self {
            trust,
            locality,
            workspace: None,
            device_id: device_id.into(),
            session_id: session_id.into(),
            capabilities,
        })
    }

    /// What the handshake proved.
    #[must_use]
    pub const fn trust(&self) -> MeshTrust {
        self.trust
    }

    /// Where the carrier established the peer runs (never an authority input by itself).
    #[must_use]
    pub const fn locality(&self) -> PeerReach {
        self.locality
    }

    /// The workspace the peer claims, if it claimed one (grants nothing).
    #[must_use]
    pub fn workspace_claim(&self) -> Option<&str> {
        self.workspace.as_deref()
    }

    /// The peer device's id.
    #[must_use]
    pub fn device_id(&self) -> &str {
        &self.device_id
    }

    /// The peer's session id.
    #[must_use]
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// What the admission grants: the certificate's capabilities as local policy narrowed them
    /// (never empty).
    #[must_use]
    pub const fn capabilities(&self) -> MeshCapabilities {
        self.capabilities
    }
}

optional_setters!(MeshAdmission {
    /// The same admission carrying the workspace the peer's signed session descriptor claims. A
    /// claim, never a grant: nothing in this family reads it to decide.
    with_workspace_claim => workspace: impl Into<String>,
});

/// Why [`MeshAdmission::new`] (or its decoder) refused an admission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MeshAdmissionError {
    /// The capability set is empty: a refusal is a different outcome, never an empty grant.
    #[error("a mesh admission grants at least one capability (a refusal is a different outcome)")]
    NoCapabilities,
    /// `same-user-same-host` claimed for a peer whose locality is `another-host`: that trust
    /// exists only where a kernel-enforced rendezvous proved the peer is on this machine.
    #[error("`same-user-same-host` trust cannot come with the locality `another-host`")]
    SameHostTrustOnAnotherHost,
}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;

    use super::{MeshAdmission, MeshAdmissionError, MeshCapabilities, MeshTrust, PeerReach};

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct MeshAdmissionWire {
        trust: MeshTrust,
        locality: PeerReach,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        workspace: Option<String>,
        device_id: String,
        session_id: String,
        capabilities: MeshCapabilities,
    }

    impl TryFrom<MeshAdmissionWire> for MeshAdmission {
        type Error = MeshAdmissionError;

        fn try_from(wire: MeshAdmissionWire) -> Result<Self, MeshAdmissionError> {
            let admission = Self::new(
                wire.trust,
                wire.locality,
                wire.device_id,
                wire.session_id,
                wire.capabilities,
            )?;
            Ok(match wire.workspace {
                Some(workspace) => admission.with_workspace_claim(workspace),
                None => admission,
            })
        }
    }

    impl From<MeshAdmission> for MeshAdmissionWire {
        fn from(admission: MeshAdmission) -> Self {
            Self {
                trust: admission.trust,
                locality: admission.locality,
                workspace: admission.workspace,
                device_id: admission.device_id,
                session_id: admission.session_id,
                capabilities: admission.capabilities,
            }
        }
    }
}
