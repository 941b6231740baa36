//! Cases of records sealed at rest (`sealing`): the AEAD seal on its own (the documented layout,
//! owner attribution from provenance and keys, locked and unknown keys, every region tampered,
//! every truncation, bytes moved to another id, refusals, redacted `Debug`), the sealing store
//! (locked records loaded, listed and never overwritten, raise by the digest of exact bytes, held
//! sessions, the cross-store token round trip, what a store wrote since a token), a seeded
//! property test, and the record store conformance suite over the sealed store. Uses only
//! `core`, `alloc`, serde_json and the crate, so it also runs on the firmware and wasm.
#![allow(clippy::unwrap_used)]

use alloc::borrow::Cow;
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;
use core::convert::Infallible;
use core::fmt;

use agent_interface::runtime::record_codec::encode_session_record;
use agent_interface::runtime::record_store::rand_core::{TryCryptoRng, TryRng};
use agent_interface::runtime::record_store::*;
use agent_interface::session::records::{
    ContentProvenance, DigestAlgorithm, InteractiveSessionRecord, InteractiveSessionStore,
    LoadPurpose, LockedReason, RaiseOutcome, RecordDigest, RecordOwner, SaveOutcome, SavePurpose,
    SaveRefusal, SealingSessionStore, SessionLoadOutcome, TokenIssue,
};

use crate::support::{block_on, s};

#[path = "seeded.rs"]
mod seeded;

use seeded::Seeded;

// ---------------------------------------------------------------- doubles and fixtures

/// A deterministic RNG for tests (SplitMix64). It claims `TryCryptoRng` only so the seal accepts
/// it: test support, never a source of secrets.
struct TestRng(Seeded);

impl TryRng for TestRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.0.next_u64() as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let word = self.0.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        Ok(())
    }
}

impl TryCryptoRng for TestRng {}

/// The error of [`DeadRng`].
#[derive(Debug)]
struct EntropyDown;

impl fmt::Display for EntropyDown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("entropy down")
    }
}

impl core::error::Error for EntropyDown {}

/// An RNG that always fails.
struct DeadRng;

impl TryRng for DeadRng {
    type Error = EntropyDown;

    fn try_next_u32(&mut self) -> Result<u32, EntropyDown> {
        Err(EntropyDown)
    }

    fn try_next_u64(&mut self) -> Result<u64, EntropyDown> {
        Err(EntropyDown)
    }

    fn try_fill_bytes(&mut self, _dst: &mut [u8]) -> Result<(), EntropyDown> {
        Err(EntropyDown)
    }
}

impl TryCryptoRng for DeadRng {}

const OWNER_MATERIAL: [u8; 32] = [0xAB; 32];
const GRANT_MATERIAL: [u8; 32] = [0x5C; 32];

fn key(id: &str) -> KeyId {
    KeyId::new(id).unwrap()
}

fn owner_id() -> KeyId {
    key("owner-1")
}

fn grant_id() -> KeyId {
    key("grant-1")
}

/// The owner's process: the owner key and the grant it issued.
fn owner_keys() -> Keyring {
    let mut keys = Keyring::new();
    keys.add_key(owner_id(), KeyRole::Owner, OWNER_MATERIAL.into())
        .unwrap();
    keys.add_key(grant_id(), KeyRole::WriteGrant, GRANT_MATERIAL.into())
        .unwrap();
    keys
}

/// A process that holds no keys, only a write grant.
fn grant_keys() -> Keyring {
    let mut keys = Keyring::new();
    keys.add_key(grant_id(), KeyRole::WriteGrant, GRANT_MATERIAL.into())
        .unwrap();
    keys
}

fn seal_with(keys: Keyring, seed: u64) -> AeadSeal<TestRng> {
    AeadSeal::new(keys, TestRng(Seeded::new(seed)))
}

fn owner_seal() -> AeadSeal<TestRng> {
    seal_with(owner_keys(), 1)
}

fn grant_seal() -> AeadSeal<TestRng> {
    seal_with(grant_keys(), 2)
}

fn rid(id: &str) -> RecordId {
    RecordId::new(id).expect("a valid record id")
}

fn writer(name: &str) -> WriterId {
    WriterId::new(name).unwrap()
}

fn record(id: &str) -> InteractiveSessionRecord {
    InteractiveSessionRecord::new(
        id,
        "/work/app",
        "2026-09-24T10:00:00Z",
        "2026-09-24T10:00:00Z",
    )
}

fn renamed(id: &str, name: &str) -> InteractiveSessionRecord {
    record(id).with_name(name)
}

fn envelope(id: &str) -> Vec<u8> {
    encode_session_record(&record(id)).unwrap()
}

/// Seals `plaintext` for `id`, or panics.
fn sealed(
    seal: &AeadSeal<TestRng>,
    id: &str,
    plaintext: &[u8],
    from: ContentProvenance,
) -> Vec<u8> {
    match seal.seal(id, plaintext, from) {
        Ok(bytes) => bytes.into_owned(),
        Err(error) => panic!("sealing {id} failed: {error}"),
    }
}

fn plaintext(bytes: &[u8], owner: RecordOwner) -> Opened<'_> {
    Opened::Plaintext {
        bytes: Cow::Borrowed(bytes),
        owner: Some(owner),
    }
}

fn is_broken(opened: &Opened<'_>) -> bool {
    matches!(opened, Opened::Broken(_))
}

/// SHA-256 of `bytes`, through the crate (the test has no SHA-256 of its own).
fn sha256(bytes: &[u8]) -> [u8; 32] {
    sha256_digest(bytes).value.0
}

/// Recomputes the header check of `bytes` after a deliberate edit of the header, so the edit
/// reaches the rule behind the check.
fn fix_check(bytes: &mut [u8]) {
    let id_len = usize::from(bytes[6]);
    let nonce_end = 7 + id_len + 24;
    let check = sha256(&bytes[..nonce_end]);
    bytes[nonce_end..nonce_end + 4].copy_from_slice(&check[..4]);
}

fn stored(medium: &MemoryMedium, id: &str) -> Option<Vec<u8>> {
    block_on(medium.read(&rid(id))).unwrap()
}

fn plant(medium: &MemoryMedium, id: &str, bytes: &[u8]) {
    block_on(medium.write(&rid(id), bytes)).unwrap();
}

type Store<'a> = RecordStore<&'a MemoryMedium, &'a AeadSeal<TestRng>>;

fn store<'a>(medium: &'a MemoryMedium, seal: &'a AeadSeal<TestRng>, name: &str) -> Store<'a> {
    RecordStore::new(medium, seal, writer(name))
}

fn save(
    store: &Store<'_>,
    record: &InteractiveSessionRecord,
    from: ContentProvenance,
) -> SaveOutcome {
    block_on(store.save(record, SavePurpose::Run, from)).unwrap()
}

fn load(store: &Store<'_>, id: &str, purpose: LoadPurpose) -> SessionLoadOutcome {
    block_on(store.load(id, purpose)).unwrap()
}

fn locked(reason: LockedReason) -> SessionLoadOutcome {
    SessionLoadOutcome::Locked { reason }
}

fn digest_of_stored(medium: &MemoryMedium, id: &str) -> RecordDigest {
    sha256_digest(&stored(medium, id).unwrap())
}

/// The record store conformance fixture for the sealed store over a fresh memory medium: every
/// seal holds the owner key (and the grant it issued); the locked seal knows the same key ids
/// and holds no material. Each seal draws from its own seed.
struct SealedFixture {
    seed: u64,
}

impl SealedFixture {
    fn next_rng(&mut self) -> TestRng {
        self.seed += 1;
        TestRng(Seeded::new(self.seed))
    }
}

impl testing::RecordStoreFixture for SealedFixture {
    type Medium = MemoryMedium;
    type Seal = AeadSeal<TestRng>;

    async fn medium(&mut self) -> Result<MemoryMedium, agent_interface::agent_core::ErrorValue> {
        Ok(MemoryMedium::new())
    }

    fn seal(&mut self) -> AeadSeal<TestRng> {
        AeadSeal::new(owner_keys(), self.next_rng())
    }

    fn locked_seal(&mut self) -> Option<AeadSeal<TestRng>> {
        Some(AeadSeal::new(owner_keys().locked(), self.next_rng()))
    }

    fn attributes_owner(&self) -> bool {
        true
    }
}

/// One defect planted in an otherwise sound AEAD seal, to show the conformance suite catches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defect {
    /// Valid records come back without an owner.
    Unattributed,
    /// Locked records are reported broken (so corrupt) instead of locked.
    LockedAsBroken,
    /// The seal tracks no digest, so held sessions are not recognised.
    NoDigest,
    /// The "locked" seal still holds its keys.
    LockedSealOpens,
}

struct DefectiveSeal {
    inner: AeadSeal<TestRng>,
    defect: Defect,
}

impl RecordSeal for DefectiveSeal {
    fn open<'a>(&self, id: &str, stored: &'a [u8]) -> Opened<'a> {
        match (self.inner.open(id, stored), self.defect) {
            (Opened::Plaintext { bytes, .. }, Defect::Unattributed) => {
                Opened::Plaintext { bytes, owner: None }
            }
            (Opened::Locked(_), Defect::LockedAsBroken) => Opened::Broken("locked"),
            (opened, _) => opened,
        }
    }

    fn seal<'a>(
        &self,
        id: &str,
        plaintext: &'a [u8],
        provenance: ContentProvenance,
    ) -> Result<Cow<'a, [u8]>, SealError> {
        self.inner.seal(id, plaintext, provenance)
    }

    fn digest(&self, stored: &[u8]) -> Option<RecordDigest> {
        match self.defect {
            Defect::NoDigest => None,
            _ => self.inner.digest(stored),
        }
    }
}

struct DefectFixture {
    sound: SealedFixture,
    defect: Defect,
}

impl testing::RecordStoreFixture for DefectFixture {
    type Medium = MemoryMedium;
    type Seal = DefectiveSeal;

    async fn medium(&mut self) -> Result<MemoryMedium, agent_interface::agent_core::ErrorValue> {
        Ok(MemoryMedium::new())
    }

    fn seal(&mut self) -> DefectiveSeal {
        DefectiveSeal {
            inner: self.sound.seal(),
            defect: self.defect,
        }
    }

    fn locked_seal(&mut self) -> Option<DefectiveSeal> {
        let inner = if self.defect == Defect::LockedSealOpens {
            self.sound.seal()
        } else {
            self.sound.locked_seal()?
        };
        Some(DefectiveSeal {
            inner,
            defect: self.defect,
        })
    }

    fn attributes_owner(&self) -> bool {
        true
    }
}

cases! {
    mod seal {
        fn the_sealed_bytes_follow_the_documented_layout() {
            let seal = owner_seal();
            let plain = envelope("s1");
            let bytes = sealed(&seal, "s1", &plain, ContentProvenance::Session);
            let id = owner_id();
            let n = id.as_str().len();
            assert_eq!(&bytes[..4], b"AIRS");
            assert_eq!(&bytes[..4], &AeadSeal::<TestRng>::MAGIC);
            assert_eq!(bytes[4], 1);
            assert_eq!(bytes[5], 1, "session content under the owner key is the owner's");
            assert_eq!(usize::from(bytes[6]), n);
            assert_eq!(&bytes[7..7 + n], id.as_str().as_bytes());
            let check = sha256(&bytes[..7 + n + 24]);
            assert_eq!(&bytes[31 + n..35 + n], &check[..4]);
            assert_eq!(bytes.len(), 35 + n + plain.len() + 16);
            assert_ne!(&bytes[35 + n..35 + n + plain.len()], &plain[..], "encrypted");

            let header = SealedHeader::read(&bytes).unwrap();
            assert_eq!(header.key_id(), "owner-1");
            assert_eq!(header.role(), RecordOwner::Owner);
            assert_eq!(header.len(), 35 + n);
            assert_eq!(header.key_id_range(), 7..7 + n);
            assert_eq!(header.nonce_range(), 7 + n..31 + n);
            assert_eq!(header.check_range(), 31 + n..35 + n);
            assert_eq!(header.ciphertext_range(), 35 + n..bytes.len() - 16);
            assert_eq!(header.tag_range(), bytes.len() - 16..bytes.len());

            let external = sealed(&seal, "s1", &plain, ContentProvenance::External);
            assert_eq!(external[5], 2, "external content is the grantee's");
            assert_ne!(external[7 + n..31 + n], bytes[7 + n..31 + n], "a fresh nonce per seal");
        }

        fn whose_the_record_is_follows_provenance_and_keys() {
            let plain = envelope("s1");
            let owner = owner_seal();
            for (from, expected) in [
                (ContentProvenance::Session, RecordOwner::Owner),
                (ContentProvenance::Recovery, RecordOwner::Owner),
                (ContentProvenance::Fork, RecordOwner::Grantee),
                (ContentProvenance::Token, RecordOwner::Grantee),
                (ContentProvenance::External, RecordOwner::Grantee),
            ] {
                let bytes = sealed(&owner, "s1", &plain, from);
                assert_eq!(SealedHeader::read(&bytes).unwrap().key_id(), "owner-1", "{from}");
                assert_eq!(owner.open("s1", &bytes), plaintext(&plain, expected), "{from}");
            }
            let grant = grant_seal();
            for &from in ContentProvenance::ALL {
                let bytes = sealed(&grant, "s1", &plain, from);
                assert_eq!(SealedHeader::read(&bytes).unwrap().key_id(), "grant-1", "{from}");
                assert_eq!(
                    grant.open("s1", &bytes),
                    plaintext(&plain, RecordOwner::Grantee),
                    "{from}: a grant never seals the owner's content"
                );
                assert_eq!(
                    owner.open("s1", &bytes),
                    plaintext(&plain, RecordOwner::Grantee),
                    "{from}: the owner's process opens what its grantee wrote"
                );
            }
        }

        fn a_grant_never_opens_the_owners_records() {
            let plain = envelope("s1");
            let bytes = sealed(&owner_seal(), "s1", &plain, ContentProvenance::Session);
            assert_eq!(grant_seal().open("s1", &bytes), Opened::Locked(LockedReason::NoKeys));
        }

        fn locked_unknown_and_absent_keys_are_locked_with_their_reason() {
            let plain = envelope("s1");
            let bytes = sealed(&owner_seal(), "s1", &plain, ContentProvenance::Session);
            let locked_seal = seal_with(owner_keys().locked(), 3);
            assert_eq!(locked_seal.open("s1", &bytes), Opened::Locked(LockedReason::KeysLocked));
            assert_eq!(
                seal_with(Keyring::new(), 4).open("s1", &bytes),
                Opened::Locked(LockedReason::NoKeys),
                "no keys at all"
            );
            // A key that opens nothing: the keyring has keys, none under the record's key id.
            let mut others = Keyring::new();
            others
                .add_key(key("owner-2"), KeyRole::Owner, OWNER_MATERIAL.into())
                .unwrap();
            assert_eq!(
                seal_with(others, 5).open("s1", &bytes),
                Opened::Locked(LockedReason::NoKeys)
            );
            // An unlock in this process opens it.
            locked_seal.unlock_key(&owner_id(), OWNER_MATERIAL.into()).unwrap();
            assert_eq!(locked_seal.open("s1", &bytes), plaintext(&plain, RecordOwner::Owner));
            assert_eq!(locked_seal.lock_key(&owner_id()), Ok(true));
            assert_eq!(locked_seal.lock_key(&owner_id()), Ok(false));
            assert_eq!(locked_seal.open("s1", &bytes), Opened::Locked(LockedReason::KeysLocked));
        }

        fn other_material_under_the_same_key_id_is_broken() {
            let bytes = sealed(&owner_seal(), "s1", &envelope("s1"), ContentProvenance::Session);
            let mut wrong = Keyring::new();
            wrong.add_key(owner_id(), KeyRole::Owner, [0x11; 32].into()).unwrap();
            assert!(is_broken(&seal_with(wrong, 6).open("s1", &bytes)));
        }

        fn every_tampered_byte_is_broken_in_every_region() {
            let seal = owner_seal();
            let plain = envelope("s1");
            let bytes = sealed(&seal, "s1", &plain, ContentProvenance::Session);
            let header = SealedHeader::read(&bytes).unwrap();
            let regions = [
                ("magic", 0..4),
                ("version", 4..5),
                ("role", 5..6),
                ("key id length", 6..7),
                ("key id", header.key_id_range()),
                ("nonce", header.nonce_range()),
                ("header check", header.check_range()),
                ("ciphertext", header.ciphertext_range()),
                ("tag", header.tag_range()),
            ];
            let locked_seal = seal_with(owner_keys().locked(), 7);
            let mut covered = 0;
            for (region, range) in regions {
                assert!(!range.is_empty(), "{region}");
                covered += range.len();
                for index in range.clone() {
                    for flip in [0x01u8, 0x80, 0xFF] {
                        let mut tampered = bytes.clone();
                        tampered[index] ^= flip;
                        let opened = seal.open("s1", &tampered);
                        assert!(is_broken(&opened), "{region} byte {index} ^ {flip:#x}: {opened:?}");
                        if index < header.len() {
                            // The header check catches a damaged header without any key.
                            let opened = locked_seal.open("s1", &tampered);
                            assert!(is_broken(&opened), "{region} byte {index}, locked: {opened:?}");
                        }
                    }
                }
            }
            assert_eq!(covered, bytes.len(), "the regions cover every byte");
        }

        fn a_grant_cannot_make_its_content_the_owners() {
            let plain = envelope("s1");
            let mut bytes = sealed(&grant_seal(), "s1", &plain, ContentProvenance::Session);
            bytes[5] = 1;
            fix_check(&mut bytes);
            assert_eq!(
                owner_seal().open("s1", &bytes),
                Opened::Broken("an owner's record sealed under a write-grant key")
            );
        }

        fn another_version_or_role_is_broken_with_a_reason() {
            let mut bytes = sealed(&owner_seal(), "s1", &envelope("s1"), ContentProvenance::Session);
            let mut version = bytes.clone();
            version[4] = 2;
            fix_check(&mut version);
            assert_eq!(SealedHeader::read(&version), Err(SealedFormatError::UnknownVersion(2)));
            assert_eq!(
                owner_seal().open("s1", &version),
                Opened::Broken(SealedFormatError::UnknownVersion(2).message())
            );
            bytes[5] = 3;
            fix_check(&mut bytes);
            assert_eq!(SealedHeader::read(&bytes), Err(SealedFormatError::UnknownRole(3)));
            assert!(format!("{}", SealedFormatError::UnknownRole(3)).contains("(3)"));
            assert_eq!(SealedHeader::read(b"{\"schemaVersion\":1}"), Err(SealedFormatError::NotSealed));
            let mut empty_id = b"AIRS\x01\x01\x00".to_vec();
            empty_id.extend_from_slice(&[0; 60]);
            assert_eq!(SealedHeader::read(&empty_id), Err(SealedFormatError::BadKeyId));
        }

        fn every_truncation_is_broken() {
            let seal = owner_seal();
            let bytes = sealed(&seal, "s1", &envelope("s1"), ContentProvenance::Session);
            for len in 0..bytes.len() {
                let opened = seal.open("s1", &bytes[..len]);
                assert!(is_broken(&opened), "truncated to {len}: {opened:?}");
            }
            let mut longer = bytes.clone();
            longer.push(0);
            assert!(is_broken(&seal.open("s1", &longer)), "a byte appended");
        }

        fn bytes_moved_to_another_id_do_not_open() {
            let seal = owner_seal();
            let plain = envelope("s1");
            let bytes = sealed(&seal, "s1", &plain, ContentProvenance::Session);
            assert_eq!(seal.open("s1", &bytes), plaintext(&plain, RecordOwner::Owner));
            for other in ["s2", "s1 ", "S1", ""] {
                assert!(is_broken(&seal.open(other, &bytes)), "{other:?}");
            }
        }

        fn sealing_without_an_unlocked_key_or_entropy_fails_typed() {
            let plain = envelope("s1");
            assert_eq!(
                seal_with(Keyring::new(), 8).seal("s1", &plain, ContentProvenance::Session),
                Err(SealError::NoKey(LockedReason::NoKeys))
            );
            assert_eq!(
                seal_with(owner_keys().locked(), 9).seal("s1", &plain, ContentProvenance::Session),
                Err(SealError::NoKey(LockedReason::KeysLocked))
            );
            let dead = AeadSeal::new(owner_keys(), DeadRng);
            assert_eq!(
                dead.seal("s1", &plain, ContentProvenance::Session),
                Err(SealError::Entropy(s("entropy down")))
            );
            // With the owner key locked, an unlocked grant still seals, as the grantee's.
            let seal = owner_seal();
            seal.lock_key(&owner_id()).unwrap();
            let bytes = sealed(&seal, "s1", &plain, ContentProvenance::Session);
            assert_eq!(SealedHeader::read(&bytes).unwrap().key_id(), "grant-1");
            assert_eq!(seal.open("s1", &bytes), plaintext(&plain, RecordOwner::Grantee));
        }

        fn the_digest_is_sha256_of_the_exact_bytes() {
            let seal = owner_seal();
            assert_eq!(
                seal.digest(b"abc"),
                Some(RecordDigest {
                    algorithm: DigestAlgorithm::Sha256,
                    value: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
                        .parse()
                        .unwrap(),
                })
            );
            assert_eq!(
                format!("{}", sha256_digest(b"").value),
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
            );
            let bytes = sealed(&seal, "s1", &envelope("s1"), ContentProvenance::Session);
            let mut other = bytes.clone();
            other[40] ^= 1;
            assert_ne!(seal.digest(&bytes), seal.digest(&other));
        }

        fn debug_never_prints_key_material() {
            let seal = owner_seal();
            let texts = [
                format!("{:?}", KeyMaterial::from(OWNER_MATERIAL)),
                format!("{:?}", owner_keys()),
                format!("{seal:?}"),
            ];
            for text in &texts {
                assert!(!text.contains("171") && !text.to_lowercase().contains("abab"), "{text}");
                assert!(!text.contains("92") && !text.contains("5c5c"), "{text}");
            }
            assert!(texts[1].contains("\"owner-1\" (owner, unlocked)"), "{}", texts[1]);
            assert!(texts[1].contains("\"grant-1\" (write-grant, unlocked)"), "{}", texts[1]);
            assert!(format!("{:?}", owner_keys().locked()).contains("(owner, locked)"));
        }

        fn key_ids_and_keyrings_refuse_bad_input() {
            assert_eq!(KeyId::new(""), Err(KeyIdError::Empty));
            assert_eq!(KeyId::new("k".repeat(65)), Err(KeyIdError::TooLong));
            assert!(KeyId::new("k".repeat(64)).is_ok());
            assert_eq!(KeyId::new("a\nb"), Err(KeyIdError::ControlCharacter));
            for error in [KeyIdError::Empty, KeyIdError::TooLong, KeyIdError::ControlCharacter] {
                assert!(format!("{error}").starts_with("a key id"), "{error}");
            }
            let mut keys = owner_keys();
            assert_eq!(
                keys.add_locked_key(owner_id(), KeyRole::WriteGrant),
                Err(KeyringError::DuplicateKey(owner_id()))
            );
            assert_eq!(keys.len(), 2);
            assert_eq!(keys.lock(&key("nope")), Err(KeyringError::UnknownKey(key("nope"))));
            assert_eq!(
                keys.unlock(&key("nope"), [0; 32].into()),
                Err(KeyringError::UnknownKey(key("nope")))
            );
            assert_eq!(
                format!("{}", KeyringError::UnknownKey(key("nope"))),
                "the keyring holds no key named nope"
            );
            assert_eq!(keys.role("grant-1"), Some(KeyRole::WriteGrant));
            assert_eq!(keys.role("nope"), None);
            assert!(keys.is_unlocked("owner-1"));
            keys.lock_all();
            assert!(!keys.is_unlocked("owner-1") && !keys.is_empty());
            keys.add_locked_key(key("later"), KeyRole::Owner).unwrap();
            assert_eq!(keys.len(), 3);
            assert!(Keyring::new().is_empty());
            let seal = owner_seal();
            assert_eq!(seal.lock_key(&key("nope")), Err(KeyringError::UnknownKey(key("nope"))));
            assert_eq!(
                seal.unlock_key(&key("nope"), [0; 32].into()),
                Err(KeyringError::UnknownKey(key("nope")))
            );
            seal.lock_all();
            assert!(!seal.keyring().is_unlocked("grant-1"));
        }

        fn property_seal_and_open_round_trip() {
            let seed = 0x5EA1_ED00_u64;
            let mut rng = Seeded::new(seed);
            let owner = owner_seal();
            let grant = grant_seal();
            for round in 0..48 {
                let len = rng.below(300) as usize;
                let plain: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
                let id = format!("s{}", rng.below(1000));
                let from = *rng.pick(ContentProvenance::ALL);
                let by_owner = rng.chance(1, 2);
                let sealer = if by_owner { &owner } else { &grant };
                let bytes = sealed(sealer, &id, &plain, from);
                let expected = if by_owner
                    && matches!(from, ContentProvenance::Session | ContentProvenance::Recovery)
                {
                    RecordOwner::Owner
                } else {
                    RecordOwner::Grantee
                };
                let context = format!("seed {seed:#x} round {round}: {len} bytes, {from}");
                assert_eq!(owner.open(&id, &bytes), plaintext(&plain, expected), "{context}");
                let grantee_view = grant.open(&id, &bytes);
                if by_owner {
                    assert_eq!(grantee_view, Opened::Locked(LockedReason::NoKeys), "{context}");
                } else {
                    assert_eq!(grantee_view, plaintext(&plain, expected), "{context}");
                }
                let index = rng.below(bytes.len() as u64) as usize;
                let mut tampered = bytes.clone();
                tampered[index] ^= 1 << rng.below(8);
                assert!(is_broken(&owner.open(&id, &tampered)), "{context}: byte {index}");
                let cut = rng.below(bytes.len() as u64) as usize;
                assert!(is_broken(&owner.open(&id, &bytes[..cut])), "{context}: cut {cut}");
                assert!(is_broken(&owner.open(&format!("{id}x"), &bytes)), "{context}: moved");
            }
        }
    }

    mod store {
        fn a_record_no_key_here_opens_loads_locked_is_counted_and_never_overwritten() {
            let medium = MemoryMedium::new();
            let owner_seal = owner_seal();
            let owner = store(&medium, &owner_seal, "owner");
            assert_eq!(save(&owner, &record("s1"), ContentProvenance::Session), SaveOutcome::Saved);
            block_on(owner.release(&rid("s1"))).unwrap();
            let before = stored(&medium, "s1");

            let grant_seal = grant_seal();
            let grantee = store(&medium, &grant_seal, "grantee");
            let locked_seal = seal_with(owner_keys().locked(), 10);
            let locked_store = store(&medium, &locked_seal, "locked");
            for (view, reason) in [
                (&grantee, LockedReason::NoKeys),
                (&locked_store, LockedReason::KeysLocked),
            ] {
                for &purpose in LoadPurpose::ALL {
                    assert_eq!(load(view, "s1", purpose), locked(reason), "{purpose}");
                }
                let listing = block_on(view.list()).unwrap();
                assert!(listing.entries.is_empty(), "{listing:?}");
                assert_eq!(
                    (listing.locked_count, listing.unopenable_count),
                    if reason.opens_after_unlock() { (1, 0) } else { (0, 1) }
                );
                for &from in ContentProvenance::ALL {
                    assert_eq!(
                        save(view, &renamed("s1", "over"), from),
                        SaveOutcome::Refused { reason: SaveRefusal::Unreadable },
                        "{from}"
                    );
                }
                assert_eq!(stored(&medium, "s1"), before, "never overwritten");
                assert_eq!(block_on(view.writer_of(&rid("s1"))), Ok(RecordWriter::Nobody));
            }
            // A later unlock reads it.
            locked_seal.unlock_key(&owner_id(), OWNER_MATERIAL.into()).unwrap();
            assert_eq!(load(&locked_store, "s1", LoadPurpose::Probe).owner(), Some(RecordOwner::Owner));
        }

        fn every_valid_outcome_says_whose_the_record_is() {
            let medium = MemoryMedium::new();
            let seal = owner_seal();
            let owner = store(&medium, &seal, "owner");
            save(&owner, &record("mine"), ContentProvenance::Session);
            save(&owner, &record("imported"), ContentProvenance::External);
            save(&owner, &record("forked"), ContentProvenance::Fork);
            let expected = [
                ("mine", RecordOwner::Owner),
                ("imported", RecordOwner::Grantee),
                ("forked", RecordOwner::Grantee),
            ];
            for (id, whose) in expected {
                for &purpose in LoadPurpose::ALL {
                    let outcome = load(&owner, id, purpose);
                    assert_eq!(outcome.record(), Some(&record(id)), "{id} {purpose}");
                    assert_eq!(outcome.owner(), Some(whose), "{id} {purpose}");
                }
            }
            let listing = block_on(owner.list()).unwrap();
            assert_eq!(listing.entries.len(), 3);
            for entry in &listing.entries {
                assert!(entry.outcome.owner().is_some(), "{entry:?}");
            }
        }

        fn stored_bytes_tampered_or_truncated_load_corrupt_and_stay() {
            let medium = MemoryMedium::new();
            let seal = owner_seal();
            let owner = store(&medium, &seal, "owner");
            save(&owner, &record("s1"), ContentProvenance::Session);
            block_on(owner.release(&rid("s1"))).unwrap();
            let bytes = stored(&medium, "s1").unwrap();
            let mut tampered = bytes.clone();
            let last = tampered.len() - 1;
            tampered[last] ^= 0x40;
            for (what, planted) in [
                ("tampered", tampered),
                ("truncated", bytes[..bytes.len() / 2].to_vec()),
                ("garbage", b"\x00\x01not sealed".to_vec()),
                ("plaintext envelope", envelope("s1")),
            ] {
                plant(&medium, "s1", &planted);
                let outcome = load(&owner, "s1", LoadPurpose::Resume);
                assert!(
                    matches!(&outcome, SessionLoadOutcome::Corrupt { issues, .. } if !issues.is_empty()),
                    "{what}: {outcome:?}"
                );
                assert_eq!(
                    save(&owner, &record("s1"), ContentProvenance::Session),
                    SaveOutcome::Refused { reason: SaveRefusal::Unreadable },
                    "{what}"
                );
                assert_eq!(stored(&medium, "s1"), Some(planted), "{what}: left intact");
            }
            // A copy under another id does not open there.
            plant(&medium, "s2", &bytes);
            assert!(matches!(load(&owner, "s2", LoadPurpose::Probe), SessionLoadOutcome::Corrupt { .. }));
        }

        fn raising_needs_the_digest_of_the_exact_bytes() {
            let medium = MemoryMedium::new();
            let seal = owner_seal();
            let owner = store(&medium, &seal, "owner");
            save(&owner, &record("s1"), ContentProvenance::External);
            assert_eq!(load(&owner, "s1", LoadPurpose::Probe).owner(), Some(RecordOwner::Grantee));
            let exact = digest_of_stored(&medium, "s1");
            let before = stored(&medium, "s1");

            let raise = |digest: &RecordDigest| block_on(owner.raise_to_owner("s1", digest)).unwrap();
            let mut other_bytes = before.clone().unwrap();
            other_bytes[10] ^= 1;
            for wrong in [sha256_digest(&other_bytes), sha256_digest(b"")] {
                assert_eq!(raise(&wrong), RaiseOutcome::DigestMismatch, "{wrong:?}");
                assert_eq!(stored(&medium, "s1"), before, "nothing changed");
            }
            assert_eq!(raise(&exact), RaiseOutcome::Raised);
            let outcome = load(&owner, "s1", LoadPurpose::Probe);
            assert_eq!(outcome.owner(), Some(RecordOwner::Owner));
            assert_eq!(outcome.record(), Some(&record("s1")), "same content");
            assert_eq!(raise(&exact), RaiseOutcome::DigestMismatch, "the old bytes are gone");
            let now = digest_of_stored(&medium, "s1");
            assert_eq!(raise(&now), RaiseOutcome::AlreadyOwner);

            // Nothing openable: missing, corrupt, locked.
            assert_eq!(
                block_on(owner.raise_to_owner("missing", &exact)),
                Ok(RaiseOutcome::NotOpenable)
            );
            plant(&medium, "junk", b"junk");
            assert_eq!(
                block_on(owner.raise_to_owner("junk", &sha256_digest(b"junk"))),
                Ok(RaiseOutcome::NotOpenable)
            );
            assert_eq!(stored(&medium, "junk"), Some(b"junk".to_vec()));
            block_on(owner.release(&rid("s1"))).unwrap();
            let locked_seal = seal_with(owner_keys().locked(), 11);
            let locked_store = store(&medium, &locked_seal, "locked");
            assert_eq!(block_on(locked_store.raise_to_owner("s1", &now)), Ok(RaiseOutcome::NotOpenable));
            // Sealed plaintext that is not a session record under this id.
            let wrong_id = sealed(&seal, "s3", &envelope("other"), ContentProvenance::External);
            plant(&medium, "s3", &wrong_id);
            assert_eq!(
                block_on(owner.raise_to_owner("s3", &sha256_digest(&wrong_id))),
                Ok(RaiseOutcome::NotOpenable)
            );
            assert_eq!(
                block_on(owner.raise_to_owner("../s1", &now)),
                Err(RecordStoreError::InvalidId(RecordIdError::LeadingDot))
            );
        }

        fn raising_needs_the_owner_key_and_no_other_writer() {
            let medium = MemoryMedium::new();
            let grant_seal = grant_seal();
            let grantee = store(&medium, &grant_seal, "grantee");
            save(&grantee, &record("s1"), ContentProvenance::Session);
            let digest = digest_of_stored(&medium, "s1");
            let before = stored(&medium, "s1");
            // A grant-only process cannot raise: it holds no owner key.
            assert_eq!(
                block_on(grantee.raise_to_owner("s1", &digest)),
                Err(RecordStoreError::Seal(SealError::NoKey(LockedReason::NoKeys)))
            );
            // The grantee still writes it: the owner's process does not raise under it.
            let seal = owner_seal();
            let owner = store(&medium, &seal, "owner");
            assert_eq!(
                block_on(owner.raise_to_owner("s1", &digest)),
                Err(RecordStoreError::HasWriter(OtherWriter::Marked(writer("grantee"))))
            );
            assert_eq!(stored(&medium, "s1"), before);
            block_on(grantee.release(&rid("s1"))).unwrap();
            assert_eq!(block_on(owner.raise_to_owner("s1", &digest)), Ok(RaiseOutcome::Raised));
            assert_eq!(block_on(owner.writer_of(&rid("s1"))), Ok(RecordWriter::Nobody), "mark undone");
            // The owner key locked: what the grant sealed still opens, and the raise fails
            // typed and changes nothing.
            seal.lock_key(&owner_id()).unwrap();
            save(&owner, &record("s2"), ContentProvenance::Session);
            assert_eq!(load(&owner, "s2", LoadPurpose::Probe).owner(), Some(RecordOwner::Grantee));
            let digest = digest_of_stored(&medium, "s2");
            let before = stored(&medium, "s2");
            assert_eq!(
                block_on(owner.raise_to_owner("s2", &digest)),
                Err(RecordStoreError::Seal(SealError::NoKey(LockedReason::KeysLocked)))
            );
            assert_eq!(stored(&medium, "s2"), before);
            assert_eq!(block_on(owner.writer_of(&rid("s2"))), Ok(RecordWriter::ThisStore), "its claim stays");
        }

        fn a_held_session_whose_keys_lock_is_handed_back() {
            let medium = MemoryMedium::new();
            let seal = owner_seal();
            let owner = store(&medium, &seal, "owner");
            save(&owner, &record("s1"), ContentProvenance::Session);
            block_on(owner.release(&rid("s1"))).unwrap();
            let resumed = load(&owner, "s1", LoadPurpose::Resume);
            assert_eq!(resumed.owner(), Some(RecordOwner::Owner));
            seal.lock_all();
            for &purpose in LoadPurpose::ALL {
                assert_eq!(load(&owner, "s1", purpose), resumed, "{purpose}: handed back");
            }
            // Another store over the same bytes and locked keys sees it locked.
            let other = store(&medium, &seal, "other");
            assert_eq!(load(&other, "s1", LoadPurpose::Probe), locked(LockedReason::KeysLocked));
            // Saving needs a key: the seal refuses, nothing is written.
            let before = stored(&medium, "s1");
            assert_eq!(
                block_on(owner.save(&renamed("s1", "x"), SavePurpose::Run, ContentProvenance::Session)),
                Err(RecordStoreError::Seal(SealError::NoKey(LockedReason::KeysLocked)))
            );
            assert_eq!(stored(&medium, "s1"), before);
        }

        fn a_held_session_whose_file_changed_is_locked_held_file_changed() {
            let medium = MemoryMedium::new();
            let seal = owner_seal();
            let owner = store(&medium, &seal, "owner");
            save(&owner, &record("s1"), ContentProvenance::Session);
            let resumed = load(&owner, "s1", LoadPurpose::Resume);
            assert!(resumed.record().is_some());
            // Other bytes land under the id behind the store's back (a restore, another host).
            let other_seal = seal_with(owner_keys(), 12);
            let changed = sealed(&other_seal, "s1", &envelope("s1"), ContentProvenance::Session);
            plant(&medium, "s1", &changed);
            seal.lock_all();
            assert_eq!(load(&owner, "s1", LoadPurpose::Probe), locked(LockedReason::HeldFileChanged));
            let listing = block_on(owner.list()).unwrap();
            assert_eq!((listing.locked_count, listing.unopenable_count), (0, 1));
            assert_eq!(load(&owner, "s1", LoadPurpose::Resume), locked(LockedReason::HeldFileChanged));
            assert_eq!(stored(&medium, "s1"), Some(changed), "left intact");
        }

        fn a_token_carries_a_session_to_a_grant_only_process_and_back() {
            // The owner's process over its own files, the grantee's over its own.
            let (home, sandbox) = (MemoryMedium::new(), MemoryMedium::new());
            let owner_seal = owner_seal();
            let grant_seal = grant_seal();
            let owner = store(&home, &owner_seal, "owner");
            let grantee = store(&sandbox, &grant_seal, "grantee");
            save(&owner, &record("s1"), ContentProvenance::Session);

            let TokenIssue::Issued { token } = block_on(owner.issue_token("s1")).unwrap() else {
                panic!("no token");
            };
            assert_eq!(token.record, record("s1"));
            assert_eq!(token.owner, RecordOwner::Owner);
            assert_eq!(token.sealed_digest, digest_of_stored(&home, "s1"));

            // The grant-only process continues the session from the token.
            assert_eq!(block_on(grantee.accept_token(&token, SavePurpose::Run)), Ok(SaveOutcome::Saved));
            let continued = load(&grantee, "s1", LoadPurpose::Resume);
            assert_eq!(continued.record(), Some(&record("s1")));
            assert_eq!(continued.owner(), Some(RecordOwner::Grantee));
            let mut written = vec![digest_of_stored(&sandbox, "s1")];
            for name in ["one", "two"] {
                save(&grantee, &renamed("s1", name), ContentProvenance::Session);
                written.push(digest_of_stored(&sandbox, "s1"));
            }
            assert_eq!(
                block_on(grantee.written_since("s1", &token.sealed_digest)),
                Ok(written.clone()),
                "oldest first, the accepted bytes first"
            );
            assert_eq!(block_on(grantee.written_since("s1", &written[0])), Ok(vec![]));
            assert_eq!(block_on(grantee.written_since("s9", &token.sealed_digest)), Ok(vec![]));
            // The grantee cannot open the owner's own file.
            assert_eq!(
                block_on(grantee.raise_to_owner("s1", &written[2])),
                Err(RecordStoreError::Seal(SealError::NoKey(LockedReason::NoKeys)))
            );

            // Back in the owner's process, by the grantee's files: only bytes the grantee says
            // it wrote since the token are vouched for.
            block_on(grantee.release(&rid("s1"))).unwrap();
            let owner_over_sandbox = store(&sandbox, &owner_seal, "owner");
            assert_eq!(
                load(&owner_over_sandbox, "s1", LoadPurpose::Probe).owner(),
                Some(RecordOwner::Grantee)
            );
            let vouched = block_on(grantee.written_since("s1", &token.sealed_digest)).unwrap();
            let current = digest_of_stored(&sandbox, "s1");
            assert!(vouched.contains(&current));
            assert_eq!(
                block_on(owner_over_sandbox.raise_to_owner("s1", &vouched[0])),
                Ok(RaiseOutcome::DigestMismatch),
                "older bytes are not the ones stored"
            );
            assert_eq!(block_on(owner_over_sandbox.raise_to_owner("s1", &current)), Ok(RaiseOutcome::Raised));
            let raised = load(&owner_over_sandbox, "s1", LoadPurpose::Probe);
            assert_eq!(raised.owner(), Some(RecordOwner::Owner));
            assert_eq!(raised.record(), Some(&renamed("s1", "two")));
            assert_eq!(
                load(&grantee, "s1", LoadPurpose::Probe),
                locked(LockedReason::NoKeys),
                "now the owner's: the grant no longer opens it"
            );

            // And by a token back into the owner's own files.
            let (home2, sandbox2) = (MemoryMedium::new(), MemoryMedium::new());
            let grantee2 = store(&sandbox2, &grant_seal, "grantee");
            assert_eq!(block_on(grantee2.accept_token(&token, SavePurpose::Run)), Ok(SaveOutcome::Saved));
            save(&grantee2, &renamed("s1", "three"), ContentProvenance::Session);
            let TokenIssue::Issued { token: back } = block_on(grantee2.issue_token("s1")).unwrap() else {
                panic!("no token back");
            };
            assert_eq!(back.owner, RecordOwner::Grantee, "the grantee held it as the grantee's");
            assert_eq!(back.sealed_digest, digest_of_stored(&sandbox2, "s1"));
            let owner2 = store(&home2, &owner_seal, "owner");
            assert_eq!(block_on(owner2.accept_token(&back, SavePurpose::Run)), Ok(SaveOutcome::Saved));
            assert_eq!(load(&owner2, "s1", LoadPurpose::Probe).owner(), Some(RecordOwner::Grantee));
            let accepted = block_on(owner2.written_since("s1", &back.sealed_digest)).unwrap();
            assert_eq!(accepted, vec![digest_of_stored(&home2, "s1")]);
            assert_eq!(block_on(owner2.raise_to_owner("s1", &accepted[0])), Ok(RaiseOutcome::Raised));
            let home_outcome = load(&owner2, "s1", LoadPurpose::Resume);
            assert_eq!(home_outcome.owner(), Some(RecordOwner::Owner));
            assert_eq!(home_outcome.record(), Some(&renamed("s1", "three")));
        }

        fn tokens_are_refused_for_anything_but_a_valid_record() {
            let medium = MemoryMedium::new();
            let seal = owner_seal();
            let owner = store(&medium, &seal, "owner");
            assert_eq!(
                block_on(owner.issue_token("none")),
                Ok(TokenIssue::Unreadable { outcome: SessionLoadOutcome::Missing })
            );
            plant(&medium, "junk", b"junk");
            assert!(matches!(
                block_on(owner.issue_token("junk")),
                Ok(TokenIssue::Unreadable { outcome: SessionLoadOutcome::Corrupt { .. } })
            ));
            let grant_only = grant_seal();
            let other_owner = sealed(&seal, "theirs", &envelope("theirs"), ContentProvenance::Session);
            plant(&medium, "theirs", &other_owner);
            let grantee = store(&medium, &grant_only, "grantee");
            assert_eq!(
                block_on(grantee.issue_token("theirs")),
                Ok(TokenIssue::Unreadable { outcome: locked(LockedReason::NoKeys) })
            );
            assert_eq!(
                block_on(owner.issue_token("bad/id")),
                Err(RecordStoreError::InvalidId(RecordIdError::ForbiddenByte { index: 3, byte: b'/' }))
            );
            // Accepting over an unreadable record is refused, and starts no log.
            save(&owner, &record("lockd"), ContentProvenance::Session);
            let TokenIssue::Issued { token } = block_on(owner.issue_token("lockd")).unwrap() else {
                panic!("no token");
            };
            block_on(owner.release(&rid("lockd"))).unwrap();
            assert_eq!(
                block_on(grantee.accept_token(&token, SavePurpose::Run)),
                Ok(SaveOutcome::Refused { reason: SaveRefusal::Unreadable })
            );
            assert_eq!(block_on(grantee.written_since("lockd", &token.sealed_digest)), Ok(vec![]));
            assert_eq!(
                block_on(grantee.written_since("..", &token.sealed_digest)),
                Err(RecordStoreError::InvalidId(RecordIdError::LeadingDot))
            );
        }

        fn a_new_token_restarts_the_log_and_a_forgotten_log_is_empty() {
            let (home, sandbox) = (MemoryMedium::new(), MemoryMedium::new());
            let seal = owner_seal();
            let grant_seal = grant_seal();
            let owner = store(&home, &seal, "owner");
            let grantee = store(&sandbox, &grant_seal, "grantee");
            save(&owner, &record("s1"), ContentProvenance::Session);
            let issue = |store: &Store<'_>| match block_on(store.issue_token("s1")).unwrap() {
                TokenIssue::Issued { token } => *token,
                other => panic!("no token: {other:?}"),
            };
            let first = issue(&owner);
            block_on(grantee.accept_token(&first, SavePurpose::Run)).unwrap();
            save(&grantee, &renamed("s1", "a"), ContentProvenance::Session);
            save(&owner, &renamed("s1", "b"), ContentProvenance::Session);
            let second = issue(&owner);
            assert_ne!(first.sealed_digest, second.sealed_digest);
            assert_eq!(block_on(grantee.accept_token(&second, SavePurpose::Run)), Ok(SaveOutcome::Saved));
            assert_eq!(block_on(grantee.written_since("s1", &first.sealed_digest)), Ok(vec![]));
            assert_eq!(
                block_on(grantee.written_since("s1", &second.sealed_digest)),
                Ok(vec![digest_of_stored(&sandbox, "s1")])
            );
            assert!(grant_seal.forget_written("s1"));
            assert!(!grant_seal.forget_written("s1"));
            assert_eq!(block_on(grantee.written_since("s1", &second.sealed_digest)), Ok(vec![]));
        }

        fn seal_failures_reach_the_caller_and_write_nothing() {
            let medium = MemoryMedium::new();
            let empty = seal_with(Keyring::new(), 14);
            let keyless = store(&medium, &empty, "keyless");
            assert_eq!(
                block_on(keyless.save(&record("s1"), SavePurpose::Run, ContentProvenance::Session)),
                Err(RecordStoreError::Seal(SealError::NoKey(LockedReason::NoKeys)))
            );
            assert_eq!(stored(&medium, "s1"), None);
            let dead = AeadSeal::new(owner_keys(), DeadRng);
            let dead_store = RecordStore::new(&medium, &dead, writer("dead"));
            assert_eq!(
                block_on(dead_store.save(&record("s1"), SavePurpose::Run, ContentProvenance::Session)),
                Err(RecordStoreError::Seal(SealError::Entropy(s("entropy down"))))
            );
            assert_eq!(stored(&medium, "s1"), None);
        }
    }

    mod conformance {
        fn the_sealed_store_passes_the_record_store_suite() {
            let mut fixture = SealedFixture { seed: 100 };
            let outcome = block_on(testing::run_record_store_conformance(
                &mut fixture,
                &mut agent_interface::conformance::StopAtFirst,
            ));
            assert_eq!(outcome, Ok(()));
        }

        fn every_case_passes_on_its_own() {
            let mut fixture = SealedFixture { seed: 200 };
            let mut every = agent_interface::conformance::EveryCase::new();
            let outcome = block_on(testing::run_record_store_conformance(&mut fixture, &mut every));
            assert_eq!(outcome, Ok(()));
            assert_eq!(every.results.len(), testing::RecordStoreCase::ALL.len());
            let failures: Vec<_> = every.failures().collect();
            assert!(failures.is_empty(), "{failures:?}");
        }

        fn a_seal_with_one_defect_fails_the_suite_at_its_case() {
            for (defect, case) in [
                (Defect::Unattributed, testing::RecordStoreCase::LoadValid),
                (Defect::LockedAsBroken, testing::RecordStoreCase::LoadLocked),
                (Defect::NoDigest, testing::RecordStoreCase::HeldSession),
                (Defect::LockedSealOpens, testing::RecordStoreCase::LoadLocked),
            ] {
                let mut fixture = DefectFixture {
                    sound: SealedFixture { seed: 300 },
                    defect,
                };
                let failure = block_on(testing::run_record_store_conformance(
                    &mut fixture,
                    &mut agent_interface::conformance::StopAtFirst,
                ))
                .expect_err("a defective seal fails");
                assert_eq!(failure.case, case, "{defect:?}: {failure}");
            }
        }
    }
}
