//! A record store load over the in-memory medium, with arbitrary stored bytes.
//!
//! Input: the bytes stored under `sess-2` (the same seeds as `session_decode`, without an id).
//!
//! Properties (module docs of `runtime::record_store`):
//! - nothing panics;
//! - a probe answers what the session codec answers for the bytes and leaves nothing behind (no
//!   marker, no claim, the bytes as they were);
//! - a claiming load answers the same outcome; it keeps its claim (and marker) only for `valid`,
//!   and another store's claiming load is then refused `has-writer` with nothing read;
//! - a listing holds the one id with the same outcome;
//! - a run save over corrupt or unsupported bytes is refused `unreadable` and the bytes stay;
//!   over a valid record it is saved and loads back equal.
#![no_main]

use agent_interface::runtime::record_codec::decode_session_record;
use agent_interface::runtime::record_store::{
    MemoryMedium, OtherWriter, RecordId, RecordMedium, RecordStore, RecordStoreError, RecordWriter,
    Unsealed, WriterId,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionStore, LoadPurpose, SaveOutcome, SavePurpose, SaveRefusal,
    SessionLoadOutcome,
};
use agent_interface_fuzz::{block_on, record};
use libfuzzer_sys::fuzz_target;

const ID: &str = "sess-2";

fn rid() -> RecordId {
    RecordId::new(ID).unwrap()
}

fuzz_target!(|data: &[u8]| {
    block_on(async {
        let medium = MemoryMedium::new();
        let a = RecordStore::new(&medium, Unsealed, WriterId::new("writer-a").unwrap());
        let b = RecordStore::new(&medium, Unsealed, WriterId::new("writer-b").unwrap());
        medium.write(&rid(), data).await.unwrap();
        let expected = SessionLoadOutcome::from(decode_session_record(data, ID));

        let probed = a.load(ID, LoadPurpose::Probe).await.unwrap();
        assert_eq!(probed, expected, "a probe answers other than the codec");
        assert_eq!(
            medium.writer(&rid()).await.unwrap(),
            None,
            "a probe left a marker"
        );
        assert_eq!(a.writer_of(&rid()).await.unwrap(), RecordWriter::Nobody);

        let listing = a.list().await.unwrap();
        assert_eq!(listing.entries.len(), 1, "one id stored, one listed");
        assert_eq!(listing.entries[0].id, ID);
        assert_eq!(
            listing.entries[0].outcome, expected,
            "a listing answers other than a probe"
        );

        let resumed = a.load(ID, LoadPurpose::Resume).await.unwrap();
        assert_eq!(
            resumed, expected,
            "a claiming load answers other than a probe"
        );
        let valid = matches!(expected, SessionLoadOutcome::Valid { .. });
        if valid {
            assert_eq!(a.writer_of(&rid()).await.unwrap(), RecordWriter::ThisStore);
            match b.load(ID, LoadPurpose::Write).await {
                Err(RecordStoreError::HasWriter(OtherWriter::Marked(w))) => {
                    assert_eq!(w.as_str(), "writer-a");
                }
                other => panic!("a second writer's claiming load was not refused: {other:?}"),
            }
            let saved = record(ID, 2, 7);
            let outcome = a
                .save(&saved, SavePurpose::Run, ContentProvenance::Session)
                .await;
            assert_eq!(
                outcome.unwrap(),
                SaveOutcome::Saved,
                "the claim holder cannot save"
            );
            match b.load(ID, LoadPurpose::Probe).await.unwrap() {
                SessionLoadOutcome::Valid { record, .. } => assert_eq!(*record, saved),
                other => panic!("a saved record does not load back: {other:?}"),
            }
        } else {
            assert_eq!(
                medium.writer(&rid()).await.unwrap(),
                None,
                "an unreadable claiming load kept its marker"
            );
            let outcome = b
                .save(
                    &record(ID, 1, 0),
                    SavePurpose::Run,
                    ContentProvenance::Session,
                )
                .await
                .unwrap();
            assert_eq!(
                outcome,
                SaveOutcome::Refused {
                    reason: SaveRefusal::Unreadable
                },
                "a save over unreadable bytes was not refused"
            );
            assert_eq!(
                medium.read(&rid()).await.unwrap().as_deref(),
                Some(data),
                "bytes changed"
            );
            assert_eq!(
                medium.writer(&rid()).await.unwrap(),
                None,
                "a refused save kept a marker"
            );
        }
    });
});
