//! One client connection behind a `RefCell`, its prepared statements, and the one reconnect.

use core::cell::RefCell;
use std::collections::HashMap;

use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{Client, Config, NoTls, Row, Statement};

use crate::error::{Operation, PostgresError};

/// Whether a statement may run again after the connection was lost while it ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Retry {
    /// Running it twice leaves what running it once leaves, and answers the same (reads,
    /// upserts, deletes by key, insert-if-absent then read).
    Idempotent,
    /// A compare-and-set: it runs again only when the server certainly did not run it.
    OnlyIfUnsent,
}

/// A live connection and the statements prepared on it.
struct Live {
    client: Client,
    statements: HashMap<&'static str, Statement>,
}

/// A statement by name, with its SQL text (built once per store, with the schema in it).
pub(crate) struct Sql {
    pub(crate) name: &'static str,
    pub(crate) text: String,
}

/// What one attempt of an operation sees: the live connection, statements prepared once per
/// connection and reused.
pub(crate) struct Session<'c> {
    live: &'c mut Live,
}

impl Session<'_> {
    fn statement(&mut self, sql: &Sql) -> Result<Statement, postgres::Error> {
        if let Some(statement) = self.live.statements.get(sql.name) {
            return Ok(statement.clone());
        }
        let statement = self.live.client.prepare(&sql.text)?;
        self.live.statements.insert(sql.name, statement.clone());
        Ok(statement)
    }

    /// Runs `sql`, returning the rows.
    pub(crate) fn query(
        &mut self,
        sql: &Sql,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, postgres::Error> {
        let statement = self.statement(sql)?;
        self.live.client.query(&statement, params)
    }

    /// Runs `sql`, returning at most one row.
    pub(crate) fn query_opt(
        &mut self,
        sql: &Sql,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, postgres::Error> {
        let statement = self.statement(sql)?;
        self.live.client.query_opt(&statement, params)
    }

    /// Runs a batch of statements given as text (one implicit transaction).
    pub(crate) fn batch(&mut self, text: &str) -> Result<(), postgres::Error> {
        self.live.client.batch_execute(text)
    }

    /// Runs `sql`, returning the number of rows it changed.
    pub(crate) fn execute(
        &mut self,
        sql: &Sql,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, postgres::Error> {
        let statement = self.statement(sql)?;
        self.live.client.execute(&statement, params)
    }
}

/// One connection to the server, made lazily and made again once after it was lost.
pub(crate) struct Connection {
    config: Config,
    live: RefCell<Option<Live>>,
}

/// True when the server certainly did not run the statement: it ended the session (shutdown,
/// restart, termination) and said so in place of answering, which rolls back whatever of the
/// statement ran. (A connection found closed before a statement is sent is made anew before
/// sending, in [`Connection::run`].)
fn not_run(error: &postgres::Error) -> bool {
    error.code().is_some_and(|code| {
        [
            SqlState::ADMIN_SHUTDOWN,
            SqlState::CRASH_SHUTDOWN,
            SqlState::CANNOT_CONNECT_NOW,
            SqlState::IDLE_SESSION_TIMEOUT,
        ]
        .contains(code)
    })
}

impl Connection {
    /// Connects now, so a wrong configuration fails at construction.
    pub(crate) fn connect(config: Config) -> Result<Self, PostgresError> {
        let client = config.connect(NoTls).map_err(PostgresError::Connect)?;
        Ok(Self {
            config,
            live: RefCell::new(Some(Live {
                client,
                statements: HashMap::new(),
            })),
        })
    }

    fn fresh(&self) -> Result<Live, PostgresError> {
        let client = self.config.connect(NoTls).map_err(PostgresError::Connect)?;
        Ok(Live {
            client,
            statements: HashMap::new(),
        })
    }

    /// Runs one operation; on a lost connection, connects afresh and runs it once more when
    /// `retry` allows it (see [`Retry`]).
    pub(crate) fn run<T>(
        &self,
        operation: Operation,
        retry: Retry,
        mut attempt: impl FnMut(&mut Session<'_>) -> Result<T, postgres::Error>,
    ) -> Result<T, PostgresError> {
        let mut slot = self.live.borrow_mut();
        let mut reconnected = false;
        if slot.as_ref().is_none_or(|live| live.client.is_closed()) {
            *slot = Some(self.fresh()?);
            reconnected = true;
        }
        loop {
            let Some(live) = slot.as_mut() else {
                *slot = Some(self.fresh()?);
                continue;
            };
            let error = match attempt(&mut Session { live }) {
                Ok(value) => return Ok(value),
                Err(error) => error,
            };
            let io = core::error::Error::source(&error).is_some_and(|s| s.is::<std::io::Error>());
            let lost = io
                || error.is_closed()
                || not_run(&error)
                || slot.as_ref().is_none_or(|live| live.client.is_closed());
            if !lost {
                return Err(PostgresError::Statement {
                    operation,
                    source: error,
                });
            }
            // The connection is gone: the next attempt, here or in the next call, connects anew.
            *slot = None;
            if retry == Retry::OnlyIfUnsent && !not_run(&error) {
                return Err(PostgresError::Interrupted {
                    operation,
                    source: error,
                });
            }
            if reconnected {
                return Err(PostgresError::Statement {
                    operation,
                    source: error,
                });
            }
            *slot = Some(self.fresh()?);
            reconnected = true;
        }
    }
}

impl core::fmt::Debug for Connection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Connection")
            .field(
                "connected",
                &self.live.try_borrow().map(|live| live.is_some()).ok(),
            )
            .finish_non_exhaustive()
    }
}
