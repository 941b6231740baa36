//! The sealed record format and open path (feature `sealing`): `SealedHeader::read` and a sealed
//! store's load through an `AeadSeal` with fixed keys, over bytes stored in a memory medium.
//!
//! Input: a mode byte, then:
//! - mode 0: the stored bytes, as they are;
//! - mode 1: a header built from the input (role byte, a key id chosen or taken from the input,
//!   the nonce) with a correct header check, then the rest as ciphertext and tag: it passes the
//!   header and reaches the AEAD, which must refuse it;
//! - mode 2: the rest sealed properly (as a plaintext envelope, provenance from the input), then
//!   possibly damaged (one byte changed, or truncated), then loaded.
//!
//! Properties:
//! - nothing panics; the header's ranges lie inside the bytes and tile them;
//! - bytes that were not sealed by the key (modes 0, 1) never load `valid`;
//! - an undamaged sealed envelope loads exactly as the codec reads its plaintext, attributed as
//!   the seal decided; any damage makes it `corrupt` or `locked`, never `valid`;
//! - with the keys locked, nothing is `valid` and intact bytes are `locked: keys-locked`;
//! - a probe leaves no marker.
#![no_main]

use std::borrow::Cow;

use agent_interface::runtime::record_codec::decode_session_record;
use agent_interface::runtime::record_store::{
    AeadSeal, KeyId, KeyRole, Keyring, MemoryMedium, Opened, RecordId, RecordMedium, RecordSeal,
    RecordStore, SealedHeader, WriterId,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionStore, LoadPurpose, LockedReason, RecordOwner,
    SessionLoadOutcome,
};
use agent_interface_fuzz::{FuzzRng, block_on};
use libfuzzer_sys::fuzz_target;
use sha2::{Digest, Sha256};

const ID: &str = "sess-2";
const OWNER_MATERIAL: [u8; 32] = [0xAB; 32];
const GRANT_MATERIAL: [u8; 32] = [0x5C; 32];

fn rid() -> RecordId {
    RecordId::new(ID).unwrap()
}

fn keys() -> Keyring {
    let mut keys = Keyring::new();
    keys.add_key(
        KeyId::new("owner-1").unwrap(),
        KeyRole::Owner,
        OWNER_MATERIAL.into(),
    )
    .unwrap();
    keys.add_key(
        KeyId::new("grant-1").unwrap(),
        KeyRole::WriteGrant,
        GRANT_MATERIAL.into(),
    )
    .unwrap();
    keys
}

fn header_check(header: &[u8]) -> [u8; 4] {
    let digest = Sha256::digest(header);
    [digest[0], digest[1], digest[2], digest[3]]
}

fn check_header(stored: &[u8]) {
    if let Ok(header) = SealedHeader::read(stored) {
        let len = stored.len();
        assert_eq!(header.key_id_range().start, 7);
        assert_eq!(header.key_id_range().end, header.nonce_range().start);
        assert_eq!(header.nonce_range().end, header.check_range().start);
        assert_eq!(header.check_range().end, header.len());
        assert_eq!(header.ciphertext_range().start, header.len());
        assert_eq!(header.ciphertext_range().end, header.tag_range().start);
        assert_eq!(header.tag_range().end, len, "the tag ends the bytes");
        assert!(header.ciphertext_range().start <= header.ciphertext_range().end);
        assert_eq!(&stored[header.key_id_range()], header.key_id().as_bytes());
        assert!(KeyId::new(header.key_id()).is_ok());
    }
}

async fn load(seal: &AeadSeal<FuzzRng>, stored: &[u8]) -> (SessionLoadOutcome, SessionLoadOutcome) {
    let medium = MemoryMedium::new();
    medium.write(&rid(), stored).await.unwrap();
    let store = RecordStore::new(&medium, seal, WriterId::new("writer-a").unwrap());
    let probed = store.load(ID, LoadPurpose::Probe).await.unwrap();
    assert_eq!(
        medium.writer(&rid()).await.unwrap(),
        None,
        "a probe left a marker"
    );
    let listed = store.list().await.unwrap();
    let resumed = store.load(ID, LoadPurpose::Resume).await.unwrap();
    assert_eq!(
        resumed, probed,
        "a claiming load answers other than a probe"
    );
    if probed.is_listed() {
        assert_eq!(listed.entries.len(), 1);
        assert_eq!(
            listed.entries[0].outcome, probed,
            "a listing answers other than a probe"
        );
    }
    (probed, resumed)
}

fn provenance(byte: u8) -> ContentProvenance {
    ContentProvenance::ALL[usize::from(byte) % ContentProvenance::ALL.len()]
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let seal = AeadSeal::new(keys(), FuzzRng::new(7));
    block_on(async {
        match mode % 3 {
            0 => {
                check_header(rest);
                let (outcome, _) = load(&seal, rest).await;
                assert!(
                    !matches!(outcome, SessionLoadOutcome::Valid { .. }),
                    "bytes nobody sealed loaded valid"
                );
            }
            1 => {
                let [role, key, nonce @ ..] = rest else {
                    return;
                };
                let (nonce, body) = nonce.split_at(nonce.len().min(24));
                let key_id: Cow<'_, [u8]> = match key % 4 {
                    0 => Cow::Borrowed(b"owner-1"),
                    1 => Cow::Borrowed(b"grant-1"),
                    2 => Cow::Borrowed(b"other-key"),
                    _ => Cow::Borrowed(body.get(..usize::from(key / 4 % 70)).unwrap_or(body)),
                };
                let mut stored = b"AIRS\x01".to_vec();
                stored.push(role % 4);
                stored.push(u8::try_from(key_id.len()).unwrap_or(u8::MAX));
                stored.extend_from_slice(&key_id);
                stored.extend_from_slice(nonce);
                let check = header_check(&stored);
                stored.extend_from_slice(&check);
                stored.extend_from_slice(body);
                check_header(&stored);
                let (outcome, _) = load(&seal, &stored).await;
                assert!(
                    !matches!(outcome, SessionLoadOutcome::Valid { .. }),
                    "a forged header loaded valid"
                );
            }
            _ => {
                let [prov, damage, at, plaintext @ ..] = rest else {
                    return;
                };
                let provenance = provenance(*prov);
                let sealed = seal.seal(ID, plaintext, provenance).unwrap().into_owned();
                check_header(&sealed);
                let owner = match provenance {
                    ContentProvenance::Session | ContentProvenance::Recovery => RecordOwner::Owner,
                    _ => RecordOwner::Grantee,
                };
                match seal.open(ID, &sealed) {
                    Opened::Plaintext {
                        bytes,
                        owner: opened,
                    } => {
                        assert_eq!(&*bytes, plaintext, "opening gives other plaintext");
                        assert_eq!(
                            opened,
                            Some(owner),
                            "the seal attributes other than it sealed"
                        );
                    }
                    other => panic!("freshly sealed bytes do not open: {other:?}"),
                }
                let mut stored = sealed.clone();
                let at = usize::from(*at) % stored.len().max(1);
                match damage % 4 {
                    0 => {}
                    1 => stored[at] ^= damage | 1,
                    2 => stored.truncate(at),
                    _ => stored.insert(at, *damage),
                }
                let (outcome, _) = load(&seal, &stored).await;
                if stored == sealed {
                    let expected =
                        match SessionLoadOutcome::from(decode_session_record(plaintext, ID)) {
                            SessionLoadOutcome::Valid { record, .. } => SessionLoadOutcome::Valid {
                                record,
                                owner: Some(owner),
                            },
                            other => other,
                        };
                    assert_eq!(
                        outcome, expected,
                        "a sealed envelope loads other than its plaintext"
                    );
                } else {
                    assert!(
                        matches!(
                            outcome,
                            SessionLoadOutcome::Corrupt { .. } | SessionLoadOutcome::Locked { .. }
                        ),
                        "damaged sealed bytes loaded {outcome:?}"
                    );
                }
                // The same bytes with every key locked: nothing opens.
                let locked = AeadSeal::new(keys().locked(), FuzzRng::new(9));
                let (outcome, _) = load(&locked, &stored).await;
                if stored == sealed {
                    assert_eq!(
                        outcome,
                        SessionLoadOutcome::Locked {
                            reason: LockedReason::KeysLocked
                        },
                        "intact bytes under a locked key"
                    );
                } else {
                    assert!(!matches!(outcome, SessionLoadOutcome::Valid { .. }));
                }
            }
        }
    });
});
