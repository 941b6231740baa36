//! Decoding an enum tagged on a member of its object in one pass (crate-private; only compiled
//! with `serde`).
//!
//! serde's derived decoder for an internally tagged enum buffers the whole object before it
//! knows the variant, then decodes the variant's members a second time from the buffer: a copy
//! of every member type's decoder, instantiated for the buffer. [`decode_tagged`] reads the
//! object once: members after the tag, and members every variant declares alike, go straight
//! into their fields, and other declared members before it (a writer put them first) are kept
//! as [`Value`]s and decoded from their text once
//! the tag names the variant, with the decoder the direct path uses on JSON text.
//!
//! It keeps the derived decoder's rules and messages: the tag is required, once, and one of
//! its literals; a member the variant does not declare is ignored, whatever its value; a
//! declared member is refused when written twice or of the wrong type, and a required one when
//! missing. Where it reads differently (an array, a tag that is not a string, a numeric tag
//! nested below, a key repeated inside a member kept before the tag, a struct written as an array
//! inside a member kept before the tag, which of several problems is named first), and why, is
//! recorded in
//! `docs/decisions/session-record-codec.md` ("Tagged events read in one pass").

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use super::{ObjectsOnly, Value, json_message};

/// The members of one tagged enum as they are read: which there are, which variant declares
/// which, where each goes and how the variant is built.
pub(crate) trait TaggedMembers: Default {
    /// The tag's closed set of literals.
    type Tag: DeserializeOwned + Copy;
    /// A member some variant declares.
    type Member: Copy;
    /// The enum.
    type Output;

    /// The tag member's name.
    const TAG: &'static str;
    /// What the decoder expects, as serde's derived decoder says it
    /// (`internally tagged enum Name`).
    const EXPECTING: &'static str;

    /// The member named `name`, if a variant declares one.
    fn member(name: &str) -> Option<Self::Member>;

    /// Whether the variant `tag` declares `member` (always, for a [`shared`](Self::shared) one).
    fn declares(member: Self::Member, tag: Self::Tag) -> bool;

    /// Whether every variant declares `member`, with one type: it is then read where it is
    /// written, before the tag too, instead of being kept for later.
    fn shared(_member: Self::Member) -> bool {
        false
    }

    /// Reads `member` of the variant `tag` from `source` into its slot, refusing a second one
    /// (with [`read_once`]). The tag is known by then (for a member whose type is the
    /// variant's), except for a [`shared`](Self::shared) member written before it: `None`.
    fn read<S: MemberSource>(
        &mut self,
        member: Self::Member,
        tag: Option<Self::Tag>,
        source: S,
    ) -> Result<(), S::Error>;

    /// Called once the tag is read and the members written before it are decoded: refuses
    /// what a [`shared`](Self::shared) member read before the tag holds that the variant `tag`
    /// does not allow.
    fn tagged<E: de::Error>(&mut self, _tag: Self::Tag) -> Result<(), E> {
        Ok(())
    }

    /// The variant `tag` from the members read, a missing required one refused (with [`required`])
    /// in the order the variant declares them.
    fn build<E: de::Error>(self, tag: Self::Tag) -> Result<Self::Output, E>;
}

/// Decodes the enum `M` describes from `deserializer`, in one pass.
pub(crate) fn decode_tagged<'de, M: TaggedMembers, D: de::Deserializer<'de>>(
    deserializer: D,
) -> Result<M::Output, D::Error> {
    deserializer.deserialize_map(TaggedVisitor::<M>(PhantomData))
}

/// Where a member's value is read from.
pub(crate) trait MemberSource {
    /// The error it raises.
    type Error: de::Error;

    /// Reads the value.
    fn read<T: DeserializeOwned>(self) -> Result<T, Self::Error>;
}

/// Reads `member` (named `name`) from `source` into `slot`, refusing a second one.
pub(crate) fn read_once<T: DeserializeOwned, S: MemberSource>(
    slot: &mut Option<T>,
    name: &'static str,
    source: S,
) -> Result<(), S::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(source.read()?);
    Ok(())
}

/// The value of the required member `name`, or serde's "missing field".
pub(crate) fn required<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

/// The object being read: the value after the key just read.
struct Next<'m, 'de, A>(&'m mut A, PhantomData<&'de ()>);

impl<'de, A: MapAccess<'de>> MemberSource for Next<'_, 'de, A> {
    type Error = A::Error;

    fn read<T: DeserializeOwned>(self) -> Result<T, A::Error> {
        self.0.next_value()
    }
}

/// A value read before the tag, decoded from its text (exact: floats are written to
/// round-trip), its error raised again as `E` without serde_json's position.
struct Kept<E>(Value, PhantomData<E>);

impl<E: de::Error> MemberSource for Kept<E> {
    type Error = E;

    fn read<T: DeserializeOwned>(self) -> Result<T, E> {
        let raise = |error: serde_json::Error| E::custom(json_message(&error, usize::MAX));
        let text = serde_json::to_string(&self.0).map_err(raise)?;
        // Read as the record codec reads a member, structs from objects only: a member is read
        // the same whether it came before the tag or after it, below that reader.
        let mut reader = serde_json::Deserializer::from_str(&text);
        let value = T::deserialize(ObjectsOnly(&mut reader)).map_err(raise)?;
        reader.end().map_err(raise)?;
        Ok(value)
    }
}

/// A key of the object.
enum Key<M> {
    Tag,
    Member(M),
    Other,
}

/// Reads a key of `M`'s object.
struct KeySeed<M>(PhantomData<M>);

impl<'de, M: TaggedMembers> DeserializeSeed<'de> for KeySeed<M> {
    type Value = Key<M::Member>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<M: TaggedMembers> Visitor<'_> for KeySeed<M> {
    type Value = Key<M::Member>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Self::Value, E> {
        if name == M::TAG {
            return Ok(Key::Tag);
        }
        Ok(M::member(name).map_or(Key::Other, Key::Member))
    }
}

struct TaggedVisitor<M>(PhantomData<M>);

impl<'de, M: TaggedMembers> Visitor<'de> for TaggedVisitor<M> {
    type Value = M::Output;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(M::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<M::Output, A::Error> {
        let mut tag = None;
        let mut members = M::default();
        // Declared members written before the tag, in their order.
        let mut early: Vec<(M::Member, Value)> = Vec::new();
        while let Some(key) = map.next_key_seed(KeySeed::<M>(PhantomData))? {
            match (key, tag) {
                (Key::Tag, Some(_)) => return Err(de::Error::duplicate_field(M::TAG)),
                (Key::Tag, None) => {
                    let read: M::Tag = map.next_value()?;
                    for (member, value) in early.drain(..) {
                        if M::declares(member, read) {
                            members.read(member, Some(read), Kept(value, PhantomData))?;
                        }
                    }
                    members.tagged(read)?;
                    tag = Some(read);
                }
                (Key::Member(member), Some(read)) if M::declares(member, read) => {
                    members.read(member, Some(read), Next(&mut map, PhantomData))?;
                }
                (Key::Member(member), None) if M::shared(member) => {
                    members.read(member, None, Next(&mut map, PhantomData))?;
                }
                (Key::Member(member), None) => early.push((member, map.next_value()?)),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let tag = tag.ok_or_else(|| de::Error::missing_field(M::TAG))?;
        members.build(tag)
    }
}
