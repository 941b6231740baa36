//! What a resume picker and a session switcher list (`session-summary-contracts`): one session's
//! summary, a listing row that adds liveness, and the listing a host gives a client.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use alloc::vec::Vec;

/// One stored session as a resume picker renders it (`IResumableSessionSummary`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ResumableSessionSummary {
    /// The session's id.
    pub id: String,
    /// The name the user gave the session, when it has one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub name: Option<String>,
    /// The workspace directory the session belongs to.
    pub cwd: String,
    /// When the session last changed: an ISO-8601 timestamp, carried as written (not validated).
    pub updated_at: String,
    /// How many messages the session holds; a count, never negative.
    pub message_count: u32,
    /// The latest assistant reply, raw: what the session last said.
    pub preview: String,
    /// A stable one-line title taken from the session's first request (Markdown markers
    /// stripped, unchanged by later turns). Absent from older hosts; a client then falls back to
    /// `name` or `preview`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub title: Option<String>,
}

impl ResumableSessionSummary {
    /// A [`ResumableSessionSummary`] from the members the contract requires, in its order; the
    /// optional ones start absent.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        cwd: impl Into<String>,
        updated_at: impl Into<String>,
        message_count: u32,
        preview: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            cwd: cwd.into(),
            updated_at: updated_at.into(),
            message_count,
            preview: preview.into(),
            name: None,
            title: None,
        }
    }
}

optional_setters!(ResumableSessionSummary {
    /// The same value with `name` set: the name the user gave the session, when it has one.
    with_name => name: impl Into<String>,
    /// The same value with `title` set: a stable one-line title taken from the session's first
    /// request (Markdown markers stripped, unchanged by later turns).
    with_title => title: impl Into<String>,
});

/// One row of a session listing on a host that keeps sessions live (`ISessionListingEntry`): a
/// [`ResumableSessionSummary`] plus whether the session runs now and how many clients are on it.
///
/// Both extra fields are optional, so a row from an older host (which sends neither) reads as a
/// plain summary, and a summary converts into a row (`From`) and back.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SessionListingEntry {
    /// The summary fields, written flat into the same JSON object.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub summary: ResumableSessionSummary,
    /// True when the session is running in the host now, not only stored.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub live: Option<bool>,
    /// How many clients are bound to the session; a count, never negative.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub clients: Option<u32>,
}

optional_setters!(SessionListingEntry {
    /// The same value with `live` set: true when the session is running in the host now, not only
    /// stored.
    with_live => live: bool,
    /// The same value with `clients` set: how many clients are bound to the session; a count, never
    /// negative.
    with_clients => clients: u32,
});

impl SessionListingEntry {
    /// A row with this summary and no liveness information (what an older host lists).
    #[must_use]
    pub fn new(summary: ResumableSessionSummary) -> Self {
        Self {
            summary,
            live: None,
            clients: None,
        }
    }

    /// True only when the row says the session is live (`live: true`); absent reads as not live.
    #[must_use]
    pub fn is_live(&self) -> bool {
        self.live == Some(true)
    }
}

impl From<ResumableSessionSummary> for SessionListingEntry {
    fn from(summary: ResumableSessionSummary) -> Self {
        Self::new(summary)
    }
}

impl From<SessionListingEntry> for ResumableSessionSummary {
    fn from(entry: SessionListingEntry) -> Self {
        entry.summary
    }
}

impl AsRef<ResumableSessionSummary> for SessionListingEntry {
    fn as_ref(&self) -> &ResumableSessionSummary {
        &self.summary
    }
}

/// The sessions a client can switch to, as a host lists them (`ISessionListing`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SessionListing {
    /// The session the asking client's binding is on.
    pub current_session_id: String,
    /// This workspace's readable sessions, newest first.
    pub sessions: Vec<SessionListingEntry>,
    /// The ids of records that could not be read and belong to this workspace: listed rather
    /// than dropped, so an unreadable session never looks deleted. Records of another workspace,
    /// or whose workspace cannot be told, are not listed here.
    pub unreadable_session_ids: Vec<String>,
}

impl SessionListing {
    /// A [`SessionListing`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        current_session_id: impl Into<String>,
        sessions: Vec<SessionListingEntry>,
        unreadable_session_ids: Vec<String>,
    ) -> Self {
        Self {
            current_session_id: current_session_id.into(),
            sessions,
            unreadable_session_ids,
        }
    }
}

impl SessionListing {
    /// The row of session `id`, when the listing has one.
    #[must_use]
    pub fn entry(&self, id: &str) -> Option<&SessionListingEntry> {
        self.sessions.iter().find(|entry| entry.summary.id == id)
    }
}
