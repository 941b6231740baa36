//! A deserializer adapter that reads a derived struct from an object only (crate-private; only
//! compiled with `serde`).
//!
//! serde's derived decoder of a struct also reads it from an array of its members in order
//! (its `visit_seq`), and a JSON reader asked for a struct calls it on `[`. The TypeScript
//! contracts have no such form. Decoded through [`ObjectOnly`], a derived struct is asked for as
//! a map: an array is refused (`invalid type: sequence, expected struct …`), and the
//! array-reading code is never instantiated.

use serde::de::{Deserializer, Visitor};

/// Wraps a deserializer so that a struct is read from an object only; everything else is
/// passed through.
pub(crate) struct ObjectOnly<D>(pub(crate) D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ObjectOnly<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}
