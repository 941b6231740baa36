//! Replicas racing: several threads, each with its own connection and store over one schema, as
//! several hosts over one database. On one session's rules: no lost update (the accepted
//! revisions are unique and consecutive, and the final rules hold every accepted write in
//! revision order), every loser gets `conflict`. On one record: one claim per round, every
//! loser gets `has-writer` naming the winner, every record intact.

mod support;

use std::sync::Barrier;
use std::thread;

use agent_interface::runtime::policy::{
    PutRulesError, PutRulesOptions, SessionPermissionRules, SessionPolicyError, SessionPolicyStore,
};
use agent_interface::runtime::record_store::{
    OtherWriter, RecordMedium, RecordStore, RecordStoreError, Unsealed, WriterId, WriterMark,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SaveRefusal, SessionLoadOutcome,
};
use agent_interface_postgres::{PostgresMedium, PostgresPolicyStore};
use support::{block_on, config, fresh_schema, rid, writer};

const REPLICAS: usize = 4;
const ROUNDS: usize = 25;

#[derive(Debug)]
enum PutResult {
    Accepted { rev: u64, token: String },
    Conflict { expected: u64, current: u64 },
}

#[test]
fn replicas_racing_on_one_sessions_rules_lose_no_update() {
    let schema = fresh_schema("race_policy");
    let seed = SessionPermissionRules {
        tool_deny: Some(vec!["seed".to_owned()]),
        ..SessionPermissionRules::unrestricted()
    };
    let first = PostgresPolicyStore::connect(config(), schema.clone()).expect("connects");
    block_on(first.put_rules("s1", None, seed, PutRulesOptions::expecting(0))).expect("seeds");

    let barrier = Barrier::new(REPLICAS);
    let results: Vec<PutResult> = thread::scope(|scope| {
        let handles: Vec<_> = (0..REPLICAS)
            .map(|replica| {
                let (schema, barrier) = (schema.clone(), &barrier);
                scope.spawn(move || {
                    let store = PostgresPolicyStore::connect(config(), schema).expect("connects");
                    let mut results = Vec::new();
                    for round in 0..ROUNDS {
                        barrier.wait();
                        let current = block_on(store.get_rules("s1", None))
                            .expect("reads")
                            .expect("seeded");
                        let token = format!("r{round}-replica{replica}");
                        let mut rules = current.rules.clone();
                        rules
                            .tool_deny
                            .get_or_insert_with(Vec::new)
                            .push(token.clone());
                        let options = PutRulesOptions::expecting(current.rev());
                        match block_on(store.put_rules("s1", None, rules, options)) {
                            Ok(stored) => results.push(PutResult::Accepted {
                                rev: stored.rev(),
                                token,
                            }),
                            Err(PutRulesError::Refused(SessionPolicyError::Conflict {
                                expected_rev,
                                current_rev,
                            })) => results.push(PutResult::Conflict {
                                expected: expected_rev,
                                current: current_rev,
                            }),
                            Err(other) => panic!("replica {replica}: {other}"),
                        }
                    }
                    results
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().expect("a replica panicked"))
            .collect()
    });

    assert_eq!(results.len(), REPLICAS * ROUNDS);
    let mut accepted: Vec<(u64, String)> = Vec::new();
    let mut conflicts = 0;
    for result in results {
        match result {
            PutResult::Accepted { rev, token } => accepted.push((rev, token)),
            PutResult::Conflict { expected, current } => {
                assert!(
                    current > expected,
                    "a loser's conflict names a newer revision: {expected} -> {current}"
                );
                conflicts += 1;
            }
        }
    }
    accepted.sort();
    let revs: Vec<u64> = accepted.iter().map(|(rev, _)| *rev).collect();
    let consecutive: Vec<u64> = (2..).take(accepted.len()).collect();
    assert_eq!(
        revs, consecutive,
        "accepted revisions are unique and consecutive"
    );
    assert!(
        accepted.len() >= ROUNDS,
        "at least one write lands per round"
    );
    assert!(conflicts > 0, "the replicas raced: some writes lost");

    let last = block_on(first.get_rules("s1", None))
        .expect("reads")
        .expect("stored");
    assert_eq!(last.rev(), 1 + accepted.len() as u64);
    let mut expected_denies = vec!["seed".to_owned()];
    expected_denies.extend(accepted.into_iter().map(|(_, token)| token));
    assert_eq!(
        last.rules.tool_deny,
        Some(expected_denies),
        "the final rules are the last winner's, holding every accepted write in order"
    );
}

fn record(id: &str, name: &str) -> InteractiveSessionRecord {
    InteractiveSessionRecord::new(
        id,
        "/work/race",
        "2026-01-02T03:04:05.000Z",
        "2026-01-02T03:04:05.000Z",
    )
    .with_name(name)
}

#[derive(Debug)]
enum Claim {
    /// Won the round: what its claiming load saw.
    Won {
        round: usize,
        saw: SessionLoadOutcome,
    },
    /// Lost the round to this holder.
    Lost { round: usize, holder: WriterId },
}

#[test]
fn replicas_racing_on_one_record_give_one_writer_per_round_and_lose_nothing() {
    let schema = fresh_schema("race_record");
    let barrier = Barrier::new(REPLICAS);
    let claims: Vec<(usize, Claim)> = thread::scope(|scope| {
        let handles: Vec<_> = (0..REPLICAS)
            .map(|replica| {
                let (schema, barrier) = (schema.clone(), &barrier);
                scope.spawn(move || {
                    let medium = PostgresMedium::connect(config(), schema).expect("connects");
                    let me = writer(&format!("replica-{replica}"));
                    let store = RecordStore::new(medium, Unsealed, me.clone());
                    let mut claims = Vec::new();
                    for round in 0..ROUNDS {
                        barrier.wait();
                        let name = format!("round {round} by replica {replica}");
                        match block_on(store.load("s1", LoadPurpose::Write)) {
                            Ok(saw) => {
                                let saved = block_on(store.save(
                                    &record("s1", &name),
                                    SavePurpose::Run,
                                    ContentProvenance::Session,
                                ))
                                .expect("saves");
                                assert_eq!(saved, SaveOutcome::Saved, "{name}");
                                claims.push((replica, Claim::Won { round, saw }));
                            }
                            Err(RecordStoreError::HasWriter(OtherWriter::Marked(holder))) => {
                                let saved = block_on(store.save(
                                    &record("s1", &name),
                                    SavePurpose::Run,
                                    ContentProvenance::Session,
                                ))
                                .expect("answers");
                                assert_eq!(
                                    saved,
                                    SaveOutcome::Refused {
                                        reason: SaveRefusal::HasWriter
                                    },
                                    "{name}"
                                );
                                claims.push((replica, Claim::Lost { round, holder }));
                            }
                            Err(other) => panic!("{name}: {other}"),
                        }
                        // Everyone has tried; the winner lets go for the next round.
                        barrier.wait();
                        block_on(store.release(&rid("s1"))).expect("releases");
                        barrier.wait();
                    }
                    claims
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().expect("a replica panicked"))
            .collect()
    });

    let mut winners: Vec<Option<usize>> = vec![None; ROUNDS];
    for (replica, claim) in &claims {
        if let Claim::Won { round, .. } = claim {
            assert_eq!(winners[*round], None, "round {round} had two writers");
            winners[*round] = Some(*replica);
        }
    }
    let winners: Vec<usize> = winners
        .into_iter()
        .enumerate()
        .map(|(round, winner)| winner.unwrap_or_else(|| panic!("round {round} had no writer")))
        .collect();
    for (replica, claim) in &claims {
        match claim {
            Claim::Lost { round, holder } => {
                assert_eq!(
                    *holder,
                    writer(&format!("replica-{}", winners[*round])),
                    "replica {replica} lost round {round} to its winner"
                );
            }
            Claim::Won { round, saw } => {
                let expected = match round.checked_sub(1) {
                    None => SessionLoadOutcome::Missing,
                    Some(previous) => SessionLoadOutcome::valid(record(
                        "s1",
                        &format!("round {previous} by replica {}", winners[previous]),
                    )),
                };
                assert_eq!(*saw, expected, "round {round}: the previous record, intact");
            }
        }
    }
    assert_eq!(claims.len(), REPLICAS * ROUNDS);

    let reader = RecordStore::new(
        PostgresMedium::connect(config(), schema).expect("connects"),
        Unsealed,
        writer("reader"),
    );
    let last = ROUNDS - 1;
    assert_eq!(
        block_on(reader.load("s1", LoadPurpose::Probe)).expect("loads"),
        SessionLoadOutcome::valid(record(
            "s1",
            &format!("round {last} by replica {}", winners[last])
        ))
    );
}

#[test]
fn replicas_racing_to_mark_one_id_leave_exactly_one_writer() {
    let schema = fresh_schema("race_mark");
    let barrier = Barrier::new(REPLICAS);
    for round in 0..ROUNDS {
        let id = rid(&format!("s{round}"));
        let marks: Vec<(WriterId, WriterMark)> = thread::scope(|scope| {
            let handles: Vec<_> = (0..REPLICAS)
                .map(|replica| {
                    let (schema, barrier, id) = (schema.clone(), &barrier, id.clone());
                    scope.spawn(move || {
                        let medium = PostgresMedium::connect(config(), schema).expect("connects");
                        let me = writer(&format!("replica-{replica}"));
                        barrier.wait();
                        let mark = block_on(medium.mark_writer(&id, &me)).expect("marks");
                        (me, mark)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|handle| handle.join().expect("a replica panicked"))
                .collect()
        });
        let winners: Vec<&WriterId> = marks
            .iter()
            .filter(|(_, mark)| *mark == WriterMark::Marked)
            .map(|(me, _)| me)
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: {marks:?}");
        for (me, mark) in &marks {
            if me != winners[0] {
                assert_eq!(
                    *mark,
                    WriterMark::HeldBy(winners[0].clone()),
                    "round {round}"
                );
            }
        }
    }
}
