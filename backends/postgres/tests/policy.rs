//! The policy store on a real PostgreSQL server: the library's conformance suite (every case),
//! a planted defect that the suite catches, the row layout, hand-corrupted rows, the revision
//! ceiling, and the refusals of schema names and connections.

mod support;

use agent_interface::agent_core::ErrorValue;
use agent_interface::conformance::{EveryCase, StopAtFirst, SuiteCase};
use agent_interface::runtime::policy::testing::{
    PolicyStoreCase, PolicyStoreFixture, run_policy_store_conformance,
};
use agent_interface::runtime::policy::{
    PutRulesError, PutRulesOptions, SessionPermissionRules, SessionPolicyError, SessionPolicyStore,
    SessionRulesRecord, StoredSessionRules,
};
use agent_interface_postgres::{
    Operation, PostgresError, PostgresPolicyStore, RowProblem, SchemaName, SchemaNameError,
};
use support::{PolicyFixture, admin, block_on, config, fresh_schema};

fn list(names: &[&str]) -> Option<Vec<String>> {
    Some(names.iter().map(|name| (*name).to_owned()).collect())
}

fn rules() -> SessionPermissionRules {
    SessionPermissionRules {
        tool_deny: list(&["bash"]),
        allow_dirs: list(&["/work/./src//"]),
        ..SessionPermissionRules::unrestricted()
    }
}

fn store(schema: &SchemaName) -> PostgresPolicyStore {
    PostgresPolicyStore::connect(config(), schema.clone()).expect("the store connects")
}

/// The raw `(rules, rev)` of a row, read past the store.
fn raw_row(schema: &SchemaName, session: &str, scope: &str, principal: &str) -> (String, i64) {
    let row = admin()
        .query_one(
            &format!(
                "SELECT rules, rev FROM \"{schema}\".session_rules \
                 WHERE session_id = $1 AND scope = $2 AND principal = $3"
            ),
            &[&session, &scope, &principal],
        )
        .expect("the row is there");
    (row.get(0), row.get(1))
}

fn set_column(schema: &SchemaName, assignment: &str) {
    let changed = admin()
        .execute(
            &format!("UPDATE \"{schema}\".session_rules SET {assignment} WHERE session_id = 's1'"),
            &[],
        )
        .expect("the hand edit runs");
    assert_eq!(changed, 1, "the hand edit changed one row");
}

#[test]
fn every_case_of_the_conformance_suite_passes_against_postgres() {
    let mut every = EveryCase::new();
    let outcome = block_on(run_policy_store_conformance(&mut PolicyFixture, &mut every));
    assert_eq!(outcome, Ok(()));
    let ran: Vec<PolicyStoreCase> = every.results.iter().map(|(case, _)| *case).collect();
    assert_eq!(ran, PolicyStoreCase::ALL, "every case ran, in order");
    let failures: Vec<String> = every
        .failures()
        .map(|(_, failure)| failure.to_string())
        .collect();
    assert!(failures.is_empty(), "failed cases: {failures:#?}");
}

/// The PostgreSQL store with one defect: it drops the caller's `expectedRev`.
struct IgnoresExpectedRev(PostgresPolicyStore);

impl SessionPolicyStore for IgnoresExpectedRev {
    type Error = PostgresError;

    async fn get_rules(
        &self,
        session_id: &str,
        principal: Option<&str>,
    ) -> Result<Option<StoredSessionRules>, PostgresError> {
        self.0.get_rules(session_id, principal).await
    }

    async fn put_rules(
        &self,
        session_id: &str,
        principal: Option<&str>,
        rules: SessionPermissionRules,
        options: PutRulesOptions,
    ) -> Result<StoredSessionRules, PutRulesError<PostgresError>> {
        let mut options = options;
        options.expected_rev = None;
        self.0
            .put_rules(session_id, principal, rules, options)
            .await
    }

    async fn list_by_session(
        &self,
        session_id: &str,
    ) -> Result<Vec<SessionRulesRecord>, PostgresError> {
        self.0.list_by_session(session_id).await
    }

    async fn delete_by_session(&self, session_id: &str) -> Result<(), PostgresError> {
        self.0.delete_by_session(session_id).await
    }
}

struct DefectFixture;

impl PolicyStoreFixture for DefectFixture {
    type Store = IgnoresExpectedRev;

    async fn create(&mut self) -> Result<IgnoresExpectedRev, ErrorValue> {
        PolicyFixture.create().await.map(IgnoresExpectedRev)
    }
}

#[test]
fn the_suite_catches_a_postgres_store_that_drops_expected_rev() {
    let failure = block_on(run_policy_store_conformance(
        &mut DefectFixture,
        &mut StopAtFirst,
    ))
    .expect_err("a store without compare-and-set fails the suite");
    assert_eq!(failure.case, PolicyStoreCase::CompareAndSet, "{failure}");
}

#[test]
fn rows_hold_the_normalised_rules_as_json_under_a_scope_that_never_collides() {
    let schema = fresh_schema("layout");
    let store = store(&schema);
    let keys = [None, Some(""), Some("session"), Some("alice")];
    for principal in keys {
        let stored =
            block_on(store.put_rules("s1", principal, rules(), PutRulesOptions::expecting(0)))
                .expect("each key is its own record");
        assert_eq!(stored.rev(), 1, "{principal:?}");
    }
    let (json, rev) = raw_row(&schema, "s1", "session", "");
    assert_eq!(
        json, r#"{"toolDeny":["bash"],"allowDirs":["/work/src"]}"#,
        "the stored JSON is the normalised rules"
    );
    assert_eq!(rev, 1);
    assert_eq!(raw_row(&schema, "s1", "principal", "").1, 1);
    let listed = block_on(store.list_by_session("s1")).expect("lists");
    let principals: Vec<Option<&str>> = listed
        .iter()
        .map(|record| record.principal.as_deref())
        .collect();
    assert_eq!(
        principals,
        [None, Some(""), Some("alice"), Some("session")],
        "the default first, then principals in byte order"
    );
    let count: i64 = admin()
        .query_one(
            &format!("SELECT count(*) FROM \"{schema}\".session_rules"),
            &[],
        )
        .expect("counts")
        .get(0);
    assert_eq!(count, 4);
}

#[test]
fn a_row_that_is_not_json_is_corrupt_never_absent_and_never_overwritten() {
    let schema = fresh_schema("notjson");
    let store = store(&schema);
    block_on(store.put_rules("s1", None, rules(), PutRulesOptions::expecting(0))).expect("writes");
    set_column(&schema, "rules = '{not json'");

    let read = block_on(store.get_rules("s1", None)).expect_err("a corrupt row is an error");
    assert!(
        matches!(
            &read,
            PostgresError::CorruptRow {
                operation: Operation::GetRules,
                problem: RowProblem::RulesNotJson(_),
                ..
            }
        ),
        "{read:?}"
    );
    assert!(read.to_string().contains("corrupt"), "{read}");
    let listed = block_on(store.list_by_session("s1")).expect_err("listing reports it");
    assert!(
        matches!(listed, PostgresError::CorruptRow { .. }),
        "{listed:?}"
    );
    for options in [
        PutRulesOptions::default(),
        PutRulesOptions::expecting(1),
        PutRulesOptions::default().as_operator(),
    ] {
        let written =
            block_on(store.put_rules("s1", None, SessionPermissionRules::unrestricted(), options))
                .expect_err("a write over a corrupt row is refused");
        assert!(
            matches!(
                written,
                PutRulesError::Backend(PostgresError::CorruptRow {
                    operation: Operation::PutRules,
                    ..
                })
            ),
            "{written:?}"
        );
    }
    assert_eq!(
        raw_row(&schema, "s1", "session", ""),
        ("{not json".to_owned(), 1),
        "the corrupt row is left as it was"
    );
}

#[test]
fn a_row_that_is_json_but_not_rules_or_has_a_bad_rev_is_corrupt() {
    let schema = fresh_schema("notrules");
    let store = store(&schema);
    block_on(store.put_rules("s1", None, rules(), PutRulesOptions::expecting(0))).expect("writes");
    set_column(&schema, r#"rules = '{"toolDeny": "bash"}'"#);
    let read = block_on(store.get_rules("s1", None)).expect_err("not a rules document");
    assert!(
        matches!(
            read,
            PostgresError::CorruptRow {
                problem: RowProblem::RulesDocument(_),
                ..
            }
        ),
        "{read:?}"
    );

    // The table's CHECK keeps rev at 1 or more; a copy of the table without it may not.
    admin()
        .batch_execute(&format!(
            "ALTER TABLE \"{schema}\".session_rules DROP CONSTRAINT session_rules_rev_check"
        ))
        .expect("drops the check");
    set_column(&schema, r#"rules = '{}', rev = 0"#);
    let read = block_on(store.get_rules("s1", None)).expect_err("rev 0 is not a revision");
    assert!(
        matches!(
            read,
            PostgresError::CorruptRow {
                problem: RowProblem::RevOutOfRange(0),
                ..
            }
        ),
        "{read:?}"
    );
}

#[test]
fn a_record_at_the_bigint_ceiling_takes_no_further_write() {
    let schema = fresh_schema("ceiling");
    let store = store(&schema);
    block_on(store.put_rules("s1", None, rules(), PutRulesOptions::expecting(0))).expect("writes");
    set_column(&schema, &format!("rev = {}", i64::MAX));
    let max = u64::try_from(i64::MAX).expect("fits");
    let refused = block_on(store.put_rules("s1", None, rules(), PutRulesOptions::default()))
        .expect_err("no revision past i64::MAX");
    assert_eq!(
        refused.refusal(),
        Some(&SessionPolicyError::Conflict {
            expected_rev: max,
            current_rev: max
        })
    );
    let (_, rev) = raw_row(&schema, "s1", "session", "");
    assert_eq!(rev, i64::MAX, "nothing was written");
}

#[test]
fn a_loosening_write_is_refused_before_anything_reaches_the_table() {
    let schema = fresh_schema("loosen");
    let store = store(&schema);
    block_on(store.put_rules("s1", None, rules(), PutRulesOptions::expecting(0))).expect("writes");
    let before = raw_row(&schema, "s1", "session", "");
    let refused = block_on(store.put_rules(
        "s1",
        None,
        SessionPermissionRules::unrestricted(),
        PutRulesOptions::expecting(1),
    ))
    .expect_err("dropping the deny list loosens");
    assert!(
        matches!(
            refused.refusal(),
            Some(SessionPolicyError::LoosenForbidden { reasons }) if !reasons.is_empty()
        ),
        "{refused:?}"
    );
    assert_eq!(raw_row(&schema, "s1", "session", ""), before);
    let stored = block_on(store.put_rules(
        "s1",
        None,
        SessionPermissionRules::unrestricted(),
        PutRulesOptions::expecting(1).as_operator(),
    ))
    .expect("an operator may loosen");
    assert_eq!(stored.rev(), 2);
    assert_eq!(raw_row(&schema, "s1", "session", ""), ("{}".to_owned(), 2));
}

#[test]
fn schema_names_are_checked_before_they_reach_sql() {
    let long = "a".repeat(SchemaName::MAX_LEN + 1);
    let cases = [
        ("", SchemaNameError::Empty),
        (long.as_str(), SchemaNameError::TooLong),
        ("Agent", SchemaNameError::InvalidCharacter('A')),
        (
            "a\"; DROP TABLE x; --",
            SchemaNameError::InvalidCharacter('"'),
        ),
        ("a-b", SchemaNameError::InvalidCharacter('-')),
        ("1agents", SchemaNameError::StartsWithDigit),
        ("pg_agents", SchemaNameError::Reserved),
    ];
    for (name, expected) in cases {
        assert_eq!(SchemaName::new(name), Err(expected), "{name:?}");
        assert!(!expected.to_string().is_empty());
    }
    let longest = "a".repeat(SchemaName::MAX_LEN);
    for name in ["agents", "_a", "a1_b", longest.as_str()] {
        assert_eq!(
            SchemaName::new(name).map(|schema| schema.as_str().to_owned()),
            Ok(name.to_owned())
        );
    }
}

#[test]
fn an_unreachable_server_is_a_connect_error() {
    // Port 1 on loopback: nothing listens there.
    let config = "host=127.0.0.1 port=1 user=postgres connect_timeout=5"
        .parse()
        .expect("parses");
    let error = PostgresPolicyStore::connect(config, fresh_schema("unreachable"))
        .expect_err("nothing listens on port 1");
    assert!(matches!(error, PostgresError::Connect(_)), "{error:?}");
    assert!(
        error.to_string().starts_with("could not connect"),
        "{error}"
    );
}
