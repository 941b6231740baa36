//! Wire forms of the shared-memory seam (`runtime::shared_memory`, feature `serde`): camelCase
//! fields, absent optionals skipped, unknown fields refused, and a fixture decoder that refuses
//! what its constructor refuses. Uses only `core`, `alloc`, serde_json and the crate, so it also
//! runs on the firmware and wasm.

use alloc::vec::Vec;

use agent_interface::runtime::shared_memory::*;

use crate::support::{golden, rejects, to_json};

fn state(revision: u64) -> SharedMemoryState {
    SharedMemoryState {
        revision,
        taken_at_ms: None,
    }
}

cases! {
    fn snapshots_and_entries_have_camel_case_wire_forms() {
        let snapshot: SharedMemorySnapshot = golden(
            "snapshot",
            r#"{"state":{"revision":7,"takenAtMs":1700000000000},"stores":[{"id":"notes","description":"Team notes","updatedAtMs":12},{"id":"team"}]}"#,
        );
        assert_eq!(snapshot.state.taken_at_ms, Some(1_700_000_000_000));
        assert_eq!(snapshot.stores[1], SharedMemoryStoreInfo::new("team"));
        let entry: SharedMemoryEntry = golden("entry", r#"{"key":"a/b","value":"line\r\n\u0000"}"#);
        assert_eq!(entry.value, "line\r\n\u{0}");
        assert_eq!(to_json(&state(2)), serde_json::json!({"revision": 2}), "absent optionals are skipped");
        rejects::<SharedMemoryStoreInfo>(r#"{"id":"a","size":3}"#, "unknown field");
        rejects::<SharedMemoryEntry>(r#"{"key":"a"}"#, "missing field");
    }

    fn fixtures_decode_only_when_valid() {
        let fixture: SharedMemoryFixture = golden(
            "fixture",
            r#"{"state":{"revision":1},"stores":[{"info":{"id":"a"},"entries":[{"key":"k","value":"v"}]},{"info":{"id":"b"},"entries":[]}]}"#,
        );
        assert_eq!(fixture.value("a", "k"), Some("v"));
        assert_eq!(fixture.store_ids().collect::<Vec<_>>(), ["a", "b"]);
        rejects::<SharedMemoryFixture>(
            r#"{"state":{"revision":1},"stores":[{"info":{"id":"a"},"entries":[{"key":"k","value":"1"},{"key":"k","value":"2"}]}]}"#,
            "twice",
        );
        rejects::<SharedMemoryFixture>(
            r#"{"state":{"revision":1},"stores":[{"info":{"id":"a"},"entries":[]},{"info":{"id":"a"},"entries":[]}]}"#,
            "two shared-memory stores",
        );
        rejects::<SharedMemoryFixture>(r#"{"state":{"revision":1},"stores":[],"extra":1}"#, "unknown field");
    }

    fn every_wire_form_refuses_a_repeated_member() {
        rejects::<SharedMemoryState>(r#"{"revision":1,"revision":2}"#, "duplicate field `revision`");
        rejects::<SharedMemoryState>(
            r#"{"revision":1,"takenAtMs":5,"takenAtMs":6}"#,
            "duplicate field `takenAtMs`",
        );
        rejects::<SharedMemoryStoreInfo>(r#"{"id":"a","id":"b"}"#, "duplicate field `id`");
        rejects::<SharedMemoryStoreInfo>(
            r#"{"id":"a","description":"x","description":"y"}"#,
            "duplicate field `description`",
        );
        rejects::<SharedMemorySnapshot>(
            r#"{"state":{"revision":1},"stores":[],"stores":[{"id":"a"}]}"#,
            "duplicate field `stores`",
        );
        rejects::<SharedMemorySnapshot>(
            r#"{"state":{"revision":1},"stores":[{"id":"a","updatedAtMs":1,"updatedAtMs":2}]}"#,
            "duplicate field `updatedAtMs`",
        );
        rejects::<SharedMemoryEntry>(r#"{"key":"k","value":"a","value":"b"}"#, "duplicate field `value`");
        rejects::<SharedMemoryStoreFixture>(
            r#"{"info":{"id":"a"},"entries":[],"entries":[{"key":"k","value":"v"}]}"#,
            "duplicate field `entries`",
        );
        rejects::<SharedMemoryFixture>(
            r#"{"state":{"revision":1},"state":{"revision":2},"stores":[]}"#,
            "duplicate field `state`",
        );
        rejects::<SharedMemoryFixture>(
            r#"{"state":{"revision":1},"stores":[{"info":{"id":"a"},"entries":[{"key":"k","key":"j","value":"v"}]}]}"#,
            "duplicate field `key`",
        );
        // From bytes too (host only: a second reader instance costs flash on the firmware).
        #[cfg(not(target_os = "none"))]
        {
            let text = br#"{"key":"k","key":"j","value":"v"}"#;
            let error = serde_json::from_slice::<SharedMemoryEntry>(text).expect_err("refused");
            assert!(alloc::format!("{error}").contains("duplicate field `key`"), "{error}");
        }
    }
}
