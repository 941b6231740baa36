//! Sets of string literals (crate-private support, names no family).
//!
//! The TypeScript contracts use string-literal unions (`'exact' | 'estimated'`). [`string_enum!`]
//! turns one into a Rust enum whose wire form is exactly the literal, with `as_str`, `ALL`,
//! `from_literal` and `Display`, and (behind `serde`) a decoder that refuses any other string with
//! serde's usual "unknown variant" error.
//!
//! The enum is `#[non_exhaustive]`: contract literal sets grow, and a new literal must not break
//! callers that match on the set (they keep a wildcard arm). `pub closed enum` keeps a set
//! exhaustive where matching every value is the point (a trust level, an approval, the tag of an
//! exhaustive union); `docs/decisions/api-growth.md` lists which and why. Either way, decoding
//! refuses every literal the set does not list.

/// Declares a string-literal set; see the module docs.
#[allow(unused_macros)]
macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        $vis:vis closed enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $lit:literal ),+ $(,)?
        }
    ) => {
        string_enum! {
            @emit [$(#[$meta])*]
            $vis enum $name {
                $( $(#[$vmeta])* $variant = $lit ),+
            }
        }
    };
    (
        @emit [$(#[$meta:meta])*]
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $lit:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[cfg_attr(feature = "defmt", derive(defmt::Format))]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value of the set, in declaration order.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];
            /// Every wire literal of the set, in declaration order.
            pub const LITERALS: &'static [&'static str] = &[$($lit),+];

            /// The exact wire literal of this value.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $lit,)+
                }
            }

            /// Reads an exact wire literal (case-sensitive); `None` for any other text.
            #[must_use]
            pub fn from_literal(text: &str) -> Option<Self> {
                match text {
                    $($lit => Some(Self::$variant),)+
                    _ => None,
                }
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::literal::deserialize(deserializer, Self::LITERALS, Self::from_literal)
            }
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $lit:literal ),+ $(,)?
        }
    ) => {
        string_enum! {
            @emit [$(#[$meta])* #[non_exhaustive]]
            $vis enum $name {
                $( $(#[$vmeta])* $variant = $lit ),+
            }
        }
    };
}

/// Decodes one literal of a closed set, refusing anything else with serde's "unknown variant".
#[allow(dead_code)]
#[cfg(feature = "serde")]
pub(crate) fn deserialize<'de, D, T>(
    deserializer: D,
    literals: &'static [&'static str],
    lookup: fn(&str) -> Option<T>,
) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
{
    struct LiteralVisitor<T> {
        literals: &'static [&'static str],
        lookup: fn(&str) -> Option<T>,
    }

    impl<T> serde::de::Visitor<'_> for LiteralVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("one of the string literals ")?;
            for (i, literal) in self.literals.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "`{literal}`")?;
            }
            Ok(())
        }

        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<T, E> {
            (self.lookup)(text).ok_or_else(|| E::unknown_variant(text, self.literals))
        }
    }

    deserializer.deserialize_str(LiteralVisitor { literals, lookup })
}
