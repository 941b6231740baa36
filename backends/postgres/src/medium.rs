//! The record medium on PostgreSQL.

use agent_interface::runtime::record_store::{RecordId, RecordMedium, WriterId, WriterMark};
use postgres::Config;

use crate::MAX_ATTEMPTS;
use crate::connection::{Connection, Retry, Sql};
use crate::error::{Operation, PostgresError, RowProblem};
use crate::schema::SchemaName;

struct Statements {
    read: Sql,
    write: Sql,
    remove: Sql,
    ids: Sql,
    mark: Sql,
    writer: Sql,
    unmark: Sql,
    transfer: Sql,
}

impl core::fmt::Debug for Statements {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Statements")
    }
}

impl Statements {
    fn new(schema: &SchemaName) -> Self {
        let records = format!("\"{schema}\".session_records");
        let writers = format!("\"{schema}\".session_writers");
        let sql = |name, text| Sql { name, text };
        Self {
            read: sql(
                "medium.read",
                format!("SELECT bytes FROM {records} WHERE id = $1"),
            ),
            write: sql(
                "medium.write",
                format!(
                    "INSERT INTO {records} (id, bytes) VALUES ($1, $2) \
                     ON CONFLICT (id) DO UPDATE SET bytes = EXCLUDED.bytes"
                ),
            ),
            remove: sql(
                "medium.remove",
                format!("DELETE FROM {records} WHERE id = $1"),
            ),
            ids: sql(
                "medium.ids",
                format!("SELECT id FROM {records} ORDER BY id COLLATE \"C\""),
            ),
            mark: sql(
                "medium.mark",
                format!(
                    "INSERT INTO {writers} (id, writer) VALUES ($1, $2) \
                     ON CONFLICT (id) DO NOTHING"
                ),
            ),
            writer: sql(
                "medium.writer",
                format!("SELECT writer FROM {writers} WHERE id = $1"),
            ),
            unmark: sql(
                "medium.unmark",
                format!("DELETE FROM {writers} WHERE id = $1 AND writer = $2"),
            ),
            transfer: sql(
                "medium.transfer",
                format!("UPDATE {writers} SET writer = $3 WHERE id = $1 AND writer = $2"),
            ),
        }
    }
}

/// The record ids among the `id`s of record rows, in their order: a row whose `id` is not a
/// valid [`RecordId`] (written by something other than a store, since a store writes record ids
/// only) is left out of the listing, never an error.
fn record_ids(names: Vec<String>) -> Vec<RecordId> {
    names
        .into_iter()
        .filter_map(|name| RecordId::new(name).ok())
        .collect()
}

/// The DDL of the record and marker tables in `schema` (idempotent).
fn schema_ddl(schema: &SchemaName) -> String {
    format!(
        "CREATE SCHEMA IF NOT EXISTS \"{schema}\";
         CREATE TABLE IF NOT EXISTS \"{schema}\".session_records (
             id text PRIMARY KEY,
             bytes bytea NOT NULL
         );
         CREATE TABLE IF NOT EXISTS \"{schema}\".session_writers (
             id text PRIMARY KEY,
             writer text NOT NULL
         );"
    )
}

/// [`RecordMedium`] on PostgreSQL: the bytes of every session record and the writer markers
/// beside them, shared by every replica that connects to the same database and schema. A
/// `RecordStore` over it keeps the store's outcomes, claims and lends, with writer exclusion
/// across replicas decided by the database, not by process memory.
///
/// # Tables
///
/// - `"<schema>".session_records (id text PRIMARY KEY, bytes bytea NOT NULL)`: a write is one
///   upsert statement, so a reader sees the prior bytes or the new ones, never a mix. The
///   medium never decodes the bytes: a row edited by hand reaches the store as it is, and the
///   store reports it as corrupt.
/// - `"<schema>".session_writers (id text PRIMARY KEY, writer text NOT NULL)`: one marker per
///   id. Marking is `INSERT … ON CONFLICT DO NOTHING` then a read of the row (the primary key
///   makes two replicas' inserts exclusive); unmarking is `DELETE … WHERE writer = <me>`;
///   handing over is `UPDATE … SET writer = <to> WHERE writer = <from>`, one compare-and-swap.
/// - [`ids`](RecordMedium::ids) is `ORDER BY id COLLATE "C"`: byte order, the order the port
///   promises (the database must be UTF-8, so byte order is code-point order). A row whose `id`
///   is not a valid [`RecordId`] (a store writes none; a hand-edited row may be one) is left out
///   of the listing, never an error.
///
/// # Reconnecting
///
/// The client sits in a `RefCell` (single-threaded, no `Send` forced). When the server
/// restarted or ended the connection, the next call connects again and runs its statement once
/// more: reads, the upsert, removing, and marking (insert-if-absent then read) are safe to
/// repeat. Unmarking and handing over repeat only when the server certainly did not run them;
/// otherwise they answer [`PostgresError::Interrupted`] (the marker changed whole or not at
/// all: read it with [`writer`](RecordMedium::writer)), and the next call connects afresh.
///
/// # Dead writers
///
/// A marker names a writer until that writer removes it; a replica that died holding one
/// leaves it. An operator who knows the replica is gone removes its markers
/// (`DELETE FROM "<schema>".session_writers WHERE writer = '<dead id>'`); nothing removes them
/// by age, since a slow replica is not a dead one.
#[derive(Debug)]
pub struct PostgresMedium {
    connection: Connection,
    sql: Statements,
}

impl PostgresMedium {
    /// Connects with `config` and creates the schema and tables when they are missing
    /// (idempotent, safe when several replicas start at once).
    ///
    /// # Errors
    /// The server could not be reached, or refused to create the tables.
    pub fn connect(config: Config, schema: SchemaName) -> Result<Self, PostgresError> {
        let connection = Connection::connect(config)?;
        crate::setup(&connection, &schema_ddl(&schema))?;
        Ok(Self {
            connection,
            sql: Statements::new(&schema),
        })
    }

    fn read_writer(
        &self,
        operation: Operation,
        id: &str,
    ) -> Result<Option<WriterId>, PostgresError> {
        let row = self
            .connection
            .run(operation, Retry::Idempotent, |session| {
                session.query_opt(&self.sql.writer, &[&id])
            })?;
        let Some(row) = row else {
            return Ok(None);
        };
        let text: String = row
            .try_get(0)
            .map_err(|source| PostgresError::Statement { operation, source })?;
        WriterId::new(text)
            .map(Some)
            .map_err(|error| PostgresError::CorruptRow {
                operation,
                key: id.to_owned(),
                problem: RowProblem::WriterId(error),
            })
    }
}

impl RecordMedium for PostgresMedium {
    type Error = PostgresError;

    async fn read(&self, id: &RecordId) -> Result<Option<Vec<u8>>, PostgresError> {
        let id = id.as_str();
        let operation = Operation::Read;
        let row = self
            .connection
            .run(operation, Retry::Idempotent, |session| {
                session.query_opt(&self.sql.read, &[&id])
            })?;
        row.map(|row| row.try_get(0))
            .transpose()
            .map_err(|source| PostgresError::Statement { operation, source })
    }

    async fn write(&self, id: &RecordId, bytes: &[u8]) -> Result<(), PostgresError> {
        let id = id.as_str();
        self.connection
            .run(Operation::Write, Retry::Idempotent, |session| {
                session.execute(&self.sql.write, &[&id, &bytes])
            })
            .map(|_| ())
    }

    async fn remove(&self, id: &RecordId) -> Result<(), PostgresError> {
        let id = id.as_str();
        self.connection
            .run(Operation::Remove, Retry::Idempotent, |session| {
                session.execute(&self.sql.remove, &[&id])
            })
            .map(|_| ())
    }

    async fn ids(&self) -> Result<Vec<RecordId>, PostgresError> {
        let operation = Operation::Ids;
        let rows = self
            .connection
            .run(operation, Retry::Idempotent, |session| {
                session.query(&self.sql.ids, &[])
            })?;
        let names = rows
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<Vec<String>, _>>()
            .map_err(|source| PostgresError::Statement { operation, source })?;
        Ok(record_ids(names))
    }

    async fn mark_writer(
        &self,
        id: &RecordId,
        writer: &WriterId,
    ) -> Result<WriterMark, PostgresError> {
        let id = id.as_str();
        let operation = Operation::MarkWriter;
        let name = writer.as_str();
        for _ in 0..MAX_ATTEMPTS {
            self.connection
                .run(operation, Retry::Idempotent, |session| {
                    session.execute(&self.sql.mark, &[&id, &name])
                })?;
            match self.read_writer(operation, id)? {
                Some(holder) if holder == *writer => return Ok(WriterMark::Marked),
                Some(holder) => return Ok(WriterMark::HeldBy(holder)),
                // Its holder removed it between the two statements: try again.
                None => {}
            }
        }
        Err(PostgresError::Contended { operation })
    }

    async fn writer(&self, id: &RecordId) -> Result<Option<WriterId>, PostgresError> {
        let id = id.as_str();
        self.read_writer(Operation::Writer, id)
    }

    async fn unmark_writer(&self, id: &RecordId, writer: &WriterId) -> Result<bool, PostgresError> {
        let id = id.as_str();
        let name = writer.as_str();
        self.connection
            .run(Operation::UnmarkWriter, Retry::OnlyIfUnsent, |session| {
                session.execute(&self.sql.unmark, &[&id, &name])
            })
            .map(|rows| rows == 1)
    }

    async fn transfer_writer(
        &self,
        id: &RecordId,
        from: &WriterId,
        to: &WriterId,
    ) -> Result<bool, PostgresError> {
        let id = id.as_str();
        let (from, to) = (from.as_str(), to.as_str());
        self.connection
            .run(Operation::TransferWriter, Retry::OnlyIfUnsent, |session| {
                session.execute(&self.sql.transfer, &[&id, &from, &to])
            })
            .map(|rows| rows == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_id_that_is_not_a_record_id_is_left_out_of_the_listing() {
        let names = [
            "a",
            "../x",
            "",
            "b c",
            "s1",
            ".hidden",
            &"l".repeat(129),
            "z-9",
        ];
        let listed = record_ids(names.iter().map(|name| String::from(*name)).collect());
        let expected: Vec<RecordId> = ["a", "s1", "z-9"]
            .into_iter()
            .map(|id| RecordId::new(id).expect("a valid record id"))
            .collect();
        assert_eq!(listed, expected);
    }
}
