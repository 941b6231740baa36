//! The policy store on PostgreSQL.

use core::num::NonZeroU64;

use agent_interface::runtime::policy::{
    PutRulesError, PutRulesOptions, SessionPermissionRules, SessionPolicyError, SessionPolicyStore,
    SessionRulesRecord, StoredSessionRules, decide_put,
};
use postgres::{Config, Row};

use crate::MAX_ATTEMPTS;
use crate::connection::{Connection, Retry, Sql};
use crate::error::{Operation, PostgresError, RowProblem};
use crate::schema::SchemaName;

/// The `scope` of the session-wide default row.
const SESSION_SCOPE: &str = "session";
/// The `scope` of a principal's row.
const PRINCIPAL_SCOPE: &str = "principal";

/// The row key of (session, principal): the default is scope `session` with an empty
/// principal, a principal is scope `principal` with its name (the empty name included), so the
/// default never collides with any principal.
fn scope(principal: Option<&str>) -> (&'static str, &str) {
    match principal {
        None => (SESSION_SCOPE, ""),
        Some(name) => (PRINCIPAL_SCOPE, name),
    }
}

/// The display form of a row key, for errors.
fn key_text(session_id: &str, principal: Option<&str>) -> String {
    match principal {
        None => format!("{session_id} (session default)"),
        Some(name) => format!("{session_id} / {name:?}"),
    }
}

struct Statements {
    get: Sql,
    insert: Sql,
    update: Sql,
    list: Sql,
    delete: Sql,
}

impl Statements {
    fn new(schema: &SchemaName) -> Self {
        let table = format!("\"{schema}\".session_rules");
        Self {
            get: Sql {
                name: "policy.get",
                text: format!(
                    "SELECT rules, rev FROM {table} \
                     WHERE session_id = $1 AND scope = $2 AND principal = $3"
                ),
            },
            insert: Sql {
                name: "policy.insert",
                text: format!(
                    "INSERT INTO {table} (session_id, scope, principal, rules, rev) \
                     VALUES ($1, $2, $3, $4, 1) ON CONFLICT DO NOTHING"
                ),
            },
            update: Sql {
                name: "policy.update",
                text: format!(
                    "UPDATE {table} SET rules = $4, rev = $5 \
                     WHERE session_id = $1 AND scope = $2 AND principal = $3 AND rev = $6"
                ),
            },
            list: Sql {
                name: "policy.list",
                text: format!(
                    "SELECT scope, principal, rules, rev FROM {table} WHERE session_id = $1 \
                     ORDER BY scope = 'principal', principal COLLATE \"C\""
                ),
            },
            delete: Sql {
                name: "policy.delete",
                text: format!("DELETE FROM {table} WHERE session_id = $1"),
            },
        }
    }
}

/// The DDL of the policy table in `schema` (idempotent).
fn schema_ddl(schema: &SchemaName) -> String {
    format!(
        "CREATE SCHEMA IF NOT EXISTS \"{schema}\";
         CREATE TABLE IF NOT EXISTS \"{schema}\".session_rules (
             session_id text NOT NULL,
             scope text NOT NULL CHECK (scope IN ('session', 'principal')),
             principal text NOT NULL,
             rules text NOT NULL,
             rev bigint NOT NULL CHECK (rev >= 1),
             PRIMARY KEY (session_id, scope, principal),
             CHECK (scope = 'principal' OR principal = '')
         );"
    )
}

/// Decodes the `rules` and `rev` columns of a row.
fn decode_rules(
    operation: Operation,
    key: impl FnOnce() -> String,
    text: &str,
    rev: i64,
) -> Result<StoredSessionRules, PostgresError> {
    let corrupt = |key: String, problem| PostgresError::CorruptRow {
        operation,
        key,
        problem,
    };
    let Some(rev) = u64::try_from(rev).ok().and_then(NonZeroU64::new) else {
        return Err(corrupt(key(), RowProblem::RevOutOfRange(rev)));
    };
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => return Err(corrupt(key(), RowProblem::RulesNotJson(error))),
    };
    match SessionPermissionRules::from_json(&value) {
        Ok(rules) => Ok(StoredSessionRules { rev, rules }),
        Err(error) => Err(corrupt(key(), RowProblem::RulesDocument(error))),
    }
}

/// [`SessionPolicyStore`] on PostgreSQL: per-session permission rules shared by every replica
/// that connects to the same database and schema.
///
/// # Table
///
/// `"<schema>".session_rules (session_id, scope, principal, rules, rev)`, keyed on
/// `(session_id, scope, principal)`. The session-wide default is scope `session` with an empty
/// principal; a principal's rules are scope `principal` with its name, so no principal name
/// (the empty one included) can collide with the default. `rules` is the rules document as
/// JSON text (the crate's wire form, normalised); `rev` is a `bigint`, at least 1.
///
/// # Writes
///
/// [`put_rules`](SessionPolicyStore::put_rules) reads the row, runs
/// [`decide_put`] on it (a stale `expectedRev` is a conflict; a non-operator loosening is
/// refused before anything is written), then writes in one conditional statement:
/// `INSERT … ON CONFLICT DO NOTHING` for a key with no row, `UPDATE … WHERE rev = <read rev>`
/// otherwise. Zero rows written means another replica wrote in between: the write reads and
/// decides again, so a stale `expectedRev` comes back as a conflict naming the stored revision
/// and a write without one is applied on top of the winner (gated against it), exactly as the
/// in-memory store serialises the two. Each statement is atomic on a single primary, so two
/// replicas with the same `expectedRev` never both succeed. A write that keeps losing the race
/// gives up after [`MAX_ATTEMPTS`] tries with [`PostgresError::Contended`]. A revision past
/// `i64::MAX` (the column is a `bigint`) is refused as a conflict, like `u64::MAX` in memory.
///
/// # Reconnecting
///
/// The client sits in a `RefCell` (single-threaded, no `Send` forced; one store per thread or
/// task). When the server restarted or ended the connection, the next call connects again and
/// runs its statement once more, except a conditional write whose statement may already have
/// reached the server: that one answers [`PostgresError::Interrupted`] (it landed whole or not at
/// all; re-read) and the call after it connects afresh. A row the backend cannot have written
/// is [`PostgresError::CorruptRow`], never read as absent and never overwritten.
#[derive(Debug)]
pub struct PostgresPolicyStore {
    connection: Connection,
    sql: Statements,
}

impl core::fmt::Debug for Statements {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Statements")
    }
}

impl PostgresPolicyStore {
    /// Connects with `config` and creates the schema and table when they are missing
    /// (idempotent, safe when several replicas start at once).
    ///
    /// # Errors
    /// The server could not be reached, or refused to create the table.
    pub fn connect(config: Config, schema: SchemaName) -> Result<Self, PostgresError> {
        let connection = Connection::connect(config)?;
        crate::setup(&connection, &schema_ddl(&schema))?;
        Ok(Self {
            connection,
            sql: Statements::new(&schema),
        })
    }

    fn read(
        &self,
        operation: Operation,
        session_id: &str,
        principal: Option<&str>,
    ) -> Result<Option<StoredSessionRules>, PostgresError> {
        let (scope, name) = scope(principal);
        let row = self
            .connection
            .run(operation, Retry::Idempotent, |session| {
                session.query_opt(&self.sql.get, &[&session_id, &scope, &name])
            })?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (text, rev) = columns(operation, &row)?;
        decode_rules(operation, || key_text(session_id, principal), &text, rev).map(Some)
    }

    fn write(
        &self,
        session_id: &str,
        principal: Option<&str>,
        rules: &SessionPermissionRules,
        options: PutRulesOptions,
    ) -> Result<StoredSessionRules, PutRulesError<PostgresError>> {
        let operation = Operation::PutRules;
        let (scope, name) = scope(principal);
        for _ in 0..MAX_ATTEMPTS {
            let current = self
                .read(operation, session_id, principal)
                .map_err(PutRulesError::Backend)?;
            let stored = decide_put(current.as_ref(), rules.clone(), options)?;
            let current_rev = current.as_ref().map_or(0, StoredSessionRules::rev);
            let Ok(rev) = i64::try_from(stored.rev()) else {
                return Err(PutRulesError::Refused(SessionPolicyError::Conflict {
                    expected_rev: options.expected_rev.unwrap_or(current_rev),
                    current_rev,
                }));
            };
            let json = serde_json::to_string(&stored.rules)
                .map_err(|error| PutRulesError::Backend(PostgresError::Encode(error)))?;
            let written = match current {
                None => self
                    .connection
                    .run(operation, Retry::OnlyIfUnsent, |session| {
                        session.execute(&self.sql.insert, &[&session_id, &scope, &name, &json])
                    }),
                Some(_) => {
                    // `current_rev` came from an `i64` column, so it fits.
                    let prior = rev - 1;
                    self.connection
                        .run(operation, Retry::OnlyIfUnsent, |session| {
                            session.execute(
                                &self.sql.update,
                                &[&session_id, &scope, &name, &json, &rev, &prior],
                            )
                        })
                }
            }
            .map_err(PutRulesError::Backend)?;
            if written == 1 {
                return Ok(stored);
            }
            // Another replica wrote in between: read and decide again.
        }
        Err(PutRulesError::Backend(PostgresError::Contended {
            operation,
        }))
    }

    fn list(&self, session_id: &str) -> Result<Vec<SessionRulesRecord>, PostgresError> {
        let operation = Operation::ListBySession;
        let rows = self
            .connection
            .run(operation, Retry::Idempotent, |session| {
                session.query(&self.sql.list, &[&session_id])
            })?;
        let mut records = Vec::with_capacity(rows.len());
        for row in rows {
            let (scope, name): (String, String) = match (row.try_get(0), row.try_get(1)) {
                (Ok(scope), Ok(name)) => (scope, name),
                (Err(source), _) | (_, Err(source)) => {
                    return Err(PostgresError::Statement { operation, source });
                }
            };
            let principal = match scope.as_str() {
                SESSION_SCOPE if name.is_empty() => None,
                PRINCIPAL_SCOPE => Some(name),
                _ => {
                    return Err(PostgresError::CorruptRow {
                        operation,
                        key: format!("{session_id} / {scope} {name:?}"),
                        problem: RowProblem::Scope(scope),
                    });
                }
            };
            let text: String = row
                .try_get(2)
                .map_err(|source| PostgresError::Statement { operation, source })?;
            let rev: i64 = row
                .try_get(3)
                .map_err(|source| PostgresError::Statement { operation, source })?;
            let rules = decode_rules(
                operation,
                || key_text(session_id, principal.as_deref()),
                &text,
                rev,
            )?;
            let mut record = SessionRulesRecord::new(rules);
            record.principal = principal;
            records.push(record);
        }
        Ok(records)
    }

    fn delete(&self, session_id: &str) -> Result<(), PostgresError> {
        self.connection
            .run(Operation::DeleteBySession, Retry::Idempotent, |session| {
                session.execute(&self.sql.delete, &[&session_id])
            })
            .map(|_| ())
    }
}

/// The `rules` and `rev` columns of a `get` row.
fn columns(operation: Operation, row: &Row) -> Result<(String, i64), PostgresError> {
    let text = row
        .try_get(0)
        .map_err(|source| PostgresError::Statement { operation, source })?;
    let rev = row
        .try_get(1)
        .map_err(|source| PostgresError::Statement { operation, source })?;
    Ok((text, rev))
}

impl SessionPolicyStore for PostgresPolicyStore {
    type Error = PostgresError;

    async fn get_rules(
        &self,
        session_id: &str,
        principal: Option<&str>,
    ) -> Result<Option<StoredSessionRules>, PostgresError> {
        self.read(Operation::GetRules, session_id, principal)
    }

    async fn put_rules(
        &self,
        session_id: &str,
        principal: Option<&str>,
        rules: SessionPermissionRules,
        options: PutRulesOptions,
    ) -> Result<StoredSessionRules, PutRulesError<PostgresError>> {
        self.write(session_id, principal, &rules, options)
    }

    async fn list_by_session(
        &self,
        session_id: &str,
    ) -> Result<Vec<SessionRulesRecord>, PostgresError> {
        self.list(session_id)
    }

    async fn delete_by_session(&self, session_id: &str) -> Result<(), PostgresError> {
        self.delete(session_id)
    }
}
