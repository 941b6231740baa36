//! PostgreSQL backends for `agent-interface`: the session record medium
//! ([`PostgresMedium`], under the library's one `RecordStore`) and the per-session policy store
//! ([`PostgresPolicyStore`]), so that several replicas of a host share sessions and permission
//! rules through one database.
//!
//! The library stays `no_std` and does no I/O; this crate is the std side that a deployment
//! links beside it. Both backends pass the same conformance suites as the in-memory stores,
//! run against a real server (`scripts/postgres.sh`).
//!
//! # Wiring a deployment
//!
//! Every replica connects to the same database and names the same [`SchemaName`]; each
//! replica gives its record store its own `WriterId` (unique per process and boot):
//!
//! ```no_run
//! use agent_interface::runtime::record_store::{RecordStore, Unsealed, WriterId};
//! use agent_interface_postgres::{PostgresMedium, PostgresPolicyStore, SchemaName};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let config: postgres::Config = "host=db.internal user=agent dbname=agents".parse()?;
//! let schema = SchemaName::new("agent_sessions")?;
//! let policy = PostgresPolicyStore::connect(config.clone(), schema.clone())?;
//! let medium = PostgresMedium::connect(config, schema)?;
//! let writer = WriterId::new(format!("replica-a-{}", std::process::id()))?;
//! let records = RecordStore::new(medium, Unsealed, writer);
//! # let _ = (policy, records);
//! # Ok(())
//! # }
//! ```
//!
//! The tables are created on connect when missing (`CREATE … IF NOT EXISTS` under an advisory
//! lock, so replicas may start together). Each store holds one connection in a `RefCell`:
//! single-threaded, no `Send` forced; a multi-threaded host makes one store per thread or task,
//! as it would hold one connection each. Connections are made without TLS: reach the server
//! over loopback, a Unix socket or a private network, or put a TLS tunnel in front.
//!
//! # What consistency you get
//!
//! - **One statement, one decision.** Every compare-and-set is a single conditional statement
//!   on a primary key: the policy write's `UPDATE … WHERE rev = <read>` (or
//!   `INSERT … ON CONFLICT DO NOTHING` for a new key), the marker's `INSERT … ON CONFLICT DO
//!   NOTHING`, `DELETE … WHERE writer = <me>` and `UPDATE … WHERE writer = <from>`. PostgreSQL
//!   runs each atomically under row locks, so on a single primary these are linearizable per
//!   key at any isolation level (the default `READ COMMITTED` is enough): two replicas with the
//!   same `expectedRev` never both succeed, two replicas never both hold one record's marker,
//!   and no accepted write is lost.
//! - **Reads are of committed data**, as of the statement. A policy read followed by a write is
//!   not a transaction, and need not be: the write's `WHERE` re-checks what the read saw.
//! - **Whole writes.** A record write is one upsert of the whole byte string; a reader sees the
//!   old bytes or the new ones.
//! - **Replicas of the database.** Read from the primary only. An asynchronous standby serves
//!   stale rows (a stale revision makes the next write a conflict, which is safe; a stale marker
//!   read is not), and a failover to an asynchronous standby can lose the last commits, so run
//!   synchronous replication (`synchronous_commit = on` with a synchronous standby) when an
//!   acknowledged write must survive losing the primary.
//! - **PostgreSQL-wire distributed databases** (CockroachDB, YugabyteDB) run these statements
//!   unchanged as single-row transactions and keep them linearizable per key across nodes, at
//!   the price of consensus latency per write. They answer contention with retryable
//!   serialization errors (`40001`) rather than blocking; this crate reports those as
//!   [`PostgresError::Statement`] (nothing was written) and the caller retries. Follower or
//!   stale reads (`AS OF SYSTEM TIME`, YugabyteDB follower reads) must stay off for these
//!   tables, for the reason given for standbys.
//!
//! # Failures
//!
//! A server restart between two calls loses nothing: the next call connects again and runs its
//! statement once more when that is safe (see [`PostgresPolicyStore`] and [`PostgresMedium`]);
//! a compare-and-set interrupted in flight answers [`PostgresError::Interrupted`] and the call
//! after it reconnects. A row the backends cannot have written (edited by hand) is reported
//! (the policy store's [`PostgresError::CorruptRow`]; the record store's `corrupt` outcome),
//! never read as absent and never overwritten.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod connection;
mod error;
mod medium;
mod policy;
mod schema;

pub use error::{Operation, PostgresError, RowProblem, SchemaNameError};
pub use medium::PostgresMedium;
pub use policy::PostgresPolicyStore;
pub use postgres;
pub use schema::SchemaName;

/// How many times a write that loses the race to another replica reads and decides again
/// before it gives up with [`PostgresError::Contended`].
pub const MAX_ATTEMPTS: usize = 16;

/// An arbitrary, fixed advisory-lock key that serialises creating the tables.
const SETUP_LOCK: i64 = 0x6167_656e_7473_716c;

/// Creates a store's schema and tables (idempotent), one replica at a time.
fn setup(connection: &connection::Connection, ddl: &str) -> Result<(), PostgresError> {
    // One simple-query message is one implicit transaction: the lock is held to its end, and
    // a failure rolls all of it back.
    let batch = format!("SELECT pg_advisory_xact_lock({SETUP_LOCK}); {ddl}");
    connection.run(Operation::Setup, connection::Retry::Idempotent, |session| {
        session.batch(&batch)
    })
}
