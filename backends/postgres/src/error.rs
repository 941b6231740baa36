//! The backends' typed errors.

use core::fmt;

use agent_interface::runtime::policy::RulesDocumentError;
use agent_interface::runtime::record_store::WriterIdError;

/// The operation a [`PostgresError`] happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// Connecting, or creating the schema and tables.
    Setup,
    /// `SessionPolicyStore::get_rules`.
    GetRules,
    /// `SessionPolicyStore::put_rules`.
    PutRules,
    /// `SessionPolicyStore::list_by_session`.
    ListBySession,
    /// `SessionPolicyStore::delete_by_session`.
    DeleteBySession,
    /// `RecordMedium::read`.
    Read,
    /// `RecordMedium::write`.
    Write,
    /// `RecordMedium::remove`.
    Remove,
    /// `RecordMedium::ids`.
    Ids,
    /// `RecordMedium::mark_writer`.
    MarkWriter,
    /// `RecordMedium::writer`.
    Writer,
    /// `RecordMedium::unmark_writer`.
    UnmarkWriter,
    /// `RecordMedium::transfer_writer`.
    TransferWriter,
}

impl Operation {
    /// The operation's name, as the port spells it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Setup => "setup",
            Self::GetRules => "get_rules",
            Self::PutRules => "put_rules",
            Self::ListBySession => "list_by_session",
            Self::DeleteBySession => "delete_by_session",
            Self::Read => "read",
            Self::Write => "write",
            Self::Remove => "remove",
            Self::Ids => "ids",
            Self::MarkWriter => "mark_writer",
            Self::Writer => "writer",
            Self::UnmarkWriter => "unmark_writer",
            Self::TransferWriter => "transfer_writer",
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What is wrong with a stored row this backend cannot have written (a row edited by hand, or
/// by another program).
#[derive(Debug)]
pub enum RowProblem {
    /// The `rules` column is not JSON.
    RulesNotJson(serde_json::Error),
    /// The `rules` column is JSON but not a rules document.
    RulesDocument(RulesDocumentError),
    /// The `rev` column is below 1.
    RevOutOfRange(i64),
    /// The `scope` column is neither `session` nor `principal`, or a `session` row names a
    /// principal.
    Scope(String),
    /// The `writer` column is not a valid writer id.
    WriterId(WriterIdError),
}

impl fmt::Display for RowProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RulesNotJson(error) => write!(f, "the rules column is not JSON: {error}"),
            Self::RulesDocument(error) => {
                write!(f, "the rules column is not a rules document: {error}")
            }
            Self::RevOutOfRange(rev) => write!(f, "the rev column is {rev}, below 1"),
            Self::Scope(scope) => write!(f, "the scope column {scope:?} is not a known scope"),
            Self::WriterId(error) => write!(f, "the writer column is not a writer id: {error}"),
        }
    }
}

impl core::error::Error for RowProblem {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::RulesNotJson(error) => Some(error),
            Self::RulesDocument(error) => Some(error),
            Self::WriterId(error) => Some(error),
            Self::RevOutOfRange(_) | Self::Scope(_) => None,
        }
    }
}

/// Why a backend call failed. Every variant leaves the stored data as it was, except where
/// [`Interrupted`](Self::Interrupted) says the outcome is unknown.
#[derive(Debug)]
pub enum PostgresError {
    /// No connection could be made (the server is down, the parameters are wrong): nothing
    /// was run.
    Connect(postgres::Error),
    /// The server refused or failed a statement; a refused statement changed nothing.
    Statement {
        /// The operation.
        operation: Operation,
        /// The client's error.
        source: postgres::Error,
    },
    /// The connection was lost while a compare-and-set statement was in flight, after it may
    /// have reached the server: it took effect whole or not at all, and which is unknown.
    /// Re-read before deciding again. The next call connects afresh.
    Interrupted {
        /// The operation.
        operation: Operation,
        /// The client's error.
        source: postgres::Error,
    },
    /// A stored row that this backend cannot have written; it is reported, never rewritten.
    CorruptRow {
        /// The operation that read it.
        operation: Operation,
        /// The row's key, as text.
        key: String,
        /// What is wrong with it.
        problem: RowProblem,
    },
    /// Rules could not be encoded as JSON (the rules type always encodes; kept so that no
    /// path panics).
    Encode(serde_json::Error),
    /// The operation lost the race to other writers more times than it retries
    /// ([`crate::MAX_ATTEMPTS`]); nothing was written.
    Contended {
        /// The operation.
        operation: Operation,
    },
}

impl fmt::Display for PostgresError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Connect(source) => write!(f, "could not connect to PostgreSQL: {source}"),
            Self::Statement { operation, source } => {
                write!(f, "{operation}: PostgreSQL failed the statement: {source}")
            }
            Self::Interrupted { operation, source } => write!(
                f,
                "{operation}: the connection was lost while the write was in flight, so whether \
                 it landed is unknown (re-read before retrying): {source}"
            ),
            Self::CorruptRow {
                operation,
                key,
                problem,
            } => write!(
                f,
                "{operation}: the stored row {key:?} is corrupt: {problem}"
            ),
            Self::Encode(error) => write!(f, "could not encode the rules as JSON: {error}"),
            Self::Contended { operation } => write!(
                f,
                "{operation}: lost the race to other writers {} times; nothing was written",
                crate::MAX_ATTEMPTS
            ),
        }
    }
}

impl core::error::Error for PostgresError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Connect(source)
            | Self::Statement { source, .. }
            | Self::Interrupted { source, .. } => Some(source),
            Self::CorruptRow { problem, .. } => Some(problem),
            Self::Encode(error) => Some(error),
            Self::Contended { .. } => None,
        }
    }
}

/// Why a schema name was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaNameError {
    /// The name is empty.
    Empty,
    /// The name is longer than [`SchemaName::MAX_LEN`](crate::SchemaName::MAX_LEN) bytes
    /// (PostgreSQL would silently truncate it).
    TooLong,
    /// The name holds a character other than `a`-`z`, `0`-`9` and `_`.
    InvalidCharacter(char),
    /// The name starts with a digit.
    StartsWithDigit,
    /// The name starts with `pg_`, which PostgreSQL reserves.
    Reserved,
}

impl fmt::Display for SchemaNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("a schema name is never empty"),
            Self::TooLong => f.write_str("a schema name is at most 63 bytes"),
            Self::InvalidCharacter(c) => {
                write!(f, "a schema name holds only a-z, 0-9 and _, not {c:?}")
            }
            Self::StartsWithDigit => f.write_str("a schema name does not start with a digit"),
            Self::Reserved => f.write_str("schema names starting with pg_ are reserved"),
        }
    }
}

impl core::error::Error for SchemaNameError {}
