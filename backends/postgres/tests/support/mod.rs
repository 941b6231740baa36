//! What every test binary of the PostgreSQL backends shares: the server from
//! `scripts/postgres.sh`, fresh schemas, an administrator's connection for hand edits, and the
//! conformance fixtures.
#![allow(dead_code)] // Each test binary uses its own part.

use std::convert::Infallible;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use agent_interface::agent_core::ErrorValue;
use agent_interface::runtime::policy::testing::PolicyStoreFixture;
use agent_interface::runtime::record_store::rand_core::{TryCryptoRng, TryRng};
use agent_interface::runtime::record_store::testing::{RecordStoreFixture, UnsealedFixture};
use agent_interface::runtime::record_store::{
    AeadSeal, KeyId, KeyRole, Keyring, RecordId, WriterId,
};
use agent_interface_postgres::postgres::{Client, Config, NoTls};
use agent_interface_postgres::{PostgresMedium, PostgresPolicyStore, SchemaName};

pub use embassy_futures::block_on;

/// The variable `scripts/postgres.sh` sets to the throwaway server's connection parameters.
pub const SERVER_VAR: &str = "AGENT_INTERFACE_PG";
/// The variable naming the command that runs `pg_ctl` on that server.
pub const PG_CTL_VAR: &str = "AGENT_INTERFACE_PG_CTL";

/// The throwaway server's parameters. Fails loudly (never passes silently) when the tests are
/// run without a server.
pub fn config() -> Config {
    let Ok(params) = std::env::var(SERVER_VAR) else {
        panic!(
            "{SERVER_VAR} is not set: these tests need a PostgreSQL server. Run \
             scripts/postgres.sh, which starts a throwaway one and sets it."
        );
    };
    params
        .parse()
        .unwrap_or_else(|error| panic!("{SERVER_VAR}={params:?} does not parse: {error}"))
}

/// A schema name no other test of this run uses, and no earlier run left behind (dropped).
pub fn fresh_schema(tag: &str) -> SchemaName {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = format!("ai_test_{tag}_{}_{n}", std::process::id());
    let schema = SchemaName::new(name).expect("a valid schema name");
    admin()
        .batch_execute(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"))
        .expect("dropping a leftover schema");
    schema
}

/// A separate connection, as an operator at a `psql` prompt.
pub fn admin() -> Client {
    config()
        .connect(NoTls)
        .expect("connecting to the test server")
}

/// Runs `pg_ctl <action>` on the test server (`restart`, `stop`, `start`). Fails loudly when
/// the script did not say how.
pub fn pg_ctl(action: &str) {
    let Ok(command) = std::env::var(PG_CTL_VAR) else {
        panic!("{PG_CTL_VAR} is not set: run the tests through scripts/postgres.sh");
    };
    let status = Command::new(&command)
        .arg(action)
        .status()
        .unwrap_or_else(|error| panic!("running {command:?} {action}: {error}"));
    assert!(status.success(), "{command:?} {action} failed: {status}");
}

pub fn writer(id: &str) -> WriterId {
    WriterId::new(id).expect("a valid writer id")
}

pub fn rid(id: &str) -> RecordId {
    RecordId::new(id).expect("a valid record id")
}

fn fixture_error(error: &impl std::fmt::Display) -> ErrorValue {
    ErrorValue::new("PostgresError", error.to_string())
}

/// The policy suite's fixture: a fresh schema per case.
pub struct PolicyFixture;

impl PolicyStoreFixture for PolicyFixture {
    type Store = PostgresPolicyStore;

    async fn create(&mut self) -> Result<PostgresPolicyStore, ErrorValue> {
        PostgresPolicyStore::connect(config(), fresh_schema("policy"))
            .map_err(|error| fixture_error(&error))
    }
}

/// The record store suite's fixture: a fresh schema per medium, never sealed.
pub struct MediumFixture;

impl UnsealedFixture for MediumFixture {
    type UnsealedMedium = PostgresMedium;

    async fn unsealed_medium(&mut self) -> Result<PostgresMedium, ErrorValue> {
        PostgresMedium::connect(config(), fresh_schema("records"))
            .map_err(|error| fixture_error(&error))
    }
}

/// A SplitMix64 stream: a deterministic test RNG for the seal's nonces (a deployment passes an
/// operating-system RNG).
pub struct TestRng(u64);

impl TestRng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl TryRng for TestRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.next() >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let word = self.next().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        Ok(())
    }
}

impl TryCryptoRng for TestRng {}

fn owner_keys() -> Keyring {
    let mut keys = Keyring::new();
    keys.add_key(
        KeyId::new("owner-1").expect("a key id"),
        KeyRole::Owner,
        [0xAB; 32].into(),
    )
    .expect("a fresh keyring");
    keys
}

/// The record store suite's fixture for the sealed store: a fresh schema per medium, records
/// sealed at rest under one owner key (a locked copy for the locked cases).
#[derive(Default)]
pub struct SealedMediumFixture {
    seeds: u64,
}

impl SealedMediumFixture {
    fn rng(&mut self) -> TestRng {
        self.seeds += 1;
        TestRng::new(self.seeds)
    }
}

impl RecordStoreFixture for SealedMediumFixture {
    type Medium = PostgresMedium;
    type Seal = AeadSeal<TestRng>;

    async fn medium(&mut self) -> Result<PostgresMedium, ErrorValue> {
        PostgresMedium::connect(config(), fresh_schema("sealed"))
            .map_err(|error| fixture_error(&error))
    }

    fn seal(&mut self) -> AeadSeal<TestRng> {
        AeadSeal::new(owner_keys(), self.rng())
    }

    fn locked_seal(&mut self) -> Option<AeadSeal<TestRng>> {
        Some(AeadSeal::new(owner_keys().locked(), self.rng()))
    }

    fn attributes_owner(&self) -> bool {
        true
    }
}
