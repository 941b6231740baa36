//! The rules type, its stored form, normalising, stripping a caller-passed revision, and the
//! strict rules-document decoder.

use alloc::string::String;
use alloc::vec::Vec;
use core::num::NonZeroU64;

use crate::agent_core::{ReadLimits, Value, ValueMap, echoed};

use super::path::normalize_path;

string_enum! {
    /// A field of a rules document, by its wire name.
    pub closed enum RulesField {
        /// `toolAllow`: if set, only these tool names are allowed.
        ToolAllow = "toolAllow",
        /// `toolDeny`: tool names always denied.
        ToolDeny = "toolDeny",
        /// `allowDirs`: if set, write tools may only target paths within these directories.
        AllowDirs = "allowDirs",
        /// `commandAllow`: if set, only these command names (argv\[0\]) are allowed.
        CommandAllow = "commandAllow",
        /// `commandDeny`: command names (argv\[0\]) always denied.
        CommandDeny = "commandDeny",
    }
}

string_enum! {
    /// One of the two deny-lists (removing an entry loosens).
    pub closed enum DenyList {
        /// `toolDeny`.
        Tool = "toolDeny",
        /// `commandDeny`.
        Command = "commandDeny",
    }
}

string_enum! {
    /// One of the two allowlists (removing the list, or adding an entry outside it, loosens).
    pub closed enum AllowList {
        /// `toolAllow`.
        Tool = "toolAllow",
        /// `commandAllow`.
        Command = "commandAllow",
    }
}

impl From<DenyList> for RulesField {
    fn from(list: DenyList) -> Self {
        match list {
            DenyList::Tool => Self::ToolDeny,
            DenyList::Command => Self::CommandDeny,
        }
    }
}

impl From<AllowList> for RulesField {
    fn from(list: AllowList) -> Self {
        match list {
            AllowList::Tool => Self::ToolAllow,
            AllowList::Command => Self::CommandAllow,
        }
    }
}

/// The structured per-session rules (`SessionPermissionRules`). Every field is optional, and an
/// absent field imposes no constraint of its kind; a present empty list is a constraint (an
/// empty allowlist allows nothing, an empty `allowDirs` allows no write).
///
/// The type has no revision: the store stamps it ([`StoredSessionRules`]), so a caller cannot
/// pass one to a write. Its JSON decoder is strict (see [`SessionPermissionRules::from_json`])
/// and drops a caller-passed `rev`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SessionPermissionRules {
    /// If set, only these tool names are allowed; others are denied.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tool_allow: Option<Vec<String>>,
    /// Tool names always denied (deny wins over `tool_allow`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tool_deny: Option<Vec<String>>,
    /// If set, write tools may only target paths within these directories, and a write-capable
    /// tool that cannot be confined to a path (a shell) is denied. Stored normalised.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub allow_dirs: Option<Vec<String>>,
    /// If set, only these command names (argv\[0\]) are allowed.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub command_allow: Option<Vec<String>>,
    /// Command names (argv\[0\]) always denied.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub command_deny: Option<Vec<String>>,
}

impl SessionPermissionRules {
    /// The rules with no constraint at all (every field absent).
    #[must_use]
    pub const fn unrestricted() -> Self {
        Self {
            tool_allow: None,
            tool_deny: None,
            allow_dirs: None,
            command_allow: None,
            command_deny: None,
        }
    }

    /// True when no field is set, so the rules allow every call.
    #[must_use]
    pub const fn is_unrestricted(&self) -> bool {
        self.tool_allow.is_none()
            && self.tool_deny.is_none()
            && self.allow_dirs.is_none()
            && self.command_allow.is_none()
            && self.command_deny.is_none()
    }

    /// The list a field holds, if set.
    #[must_use]
    pub fn field(&self, field: RulesField) -> Option<&[String]> {
        match field {
            RulesField::ToolAllow => self.tool_allow.as_deref(),
            RulesField::ToolDeny => self.tool_deny.as_deref(),
            RulesField::AllowDirs => self.allow_dirs.as_deref(),
            RulesField::CommandAllow => self.command_allow.as_deref(),
            RulesField::CommandDeny => self.command_deny.as_deref(),
        }
    }

    fn field_mut(&mut self, field: RulesField) -> &mut Option<Vec<String>> {
        match field {
            RulesField::ToolAllow => &mut self.tool_allow,
            RulesField::ToolDeny => &mut self.tool_deny,
            RulesField::AllowDirs => &mut self.allow_dirs,
            RulesField::CommandAllow => &mut self.command_allow,
            RulesField::CommandDeny => &mut self.command_deny,
        }
    }

    /// Decodes a rules document (a put's body, say) strictly, with a typed error naming what is
    /// wrong.
    ///
    /// The document is an object whose keys are the five field names, each a list of strings.
    /// Any other key, a value that is not a list (`null` included: an absent field is written
    /// by leaving the key out), or an entry that is not a string is refused. A `rev` key is
    /// stripped: the store is the sole authority on revisions, so a rules document read back
    /// from the store and edited may be written again as is. It must still be a non-negative
    /// integer. The `serde` decoder is this one, reading the object from the text.
    ///
    /// A repeated member cannot be seen here: a parsed [`Value`] holds each key once (serde_json
    /// keeps the last of a repeated member). The text entry point, `serde_json::from_str` or
    /// `from_slice` on this type (feature `serde`), is the strict one: it reads the members one
    /// by one and refuses a repeated member with [`RulesDocumentError::DuplicateField`] before
    /// checking anything else. Decode untrusted text through it, not through a [`Value`].
    ///
    /// # Errors
    /// The first problem found, fields checked in the order the [`Value`] holds them (sorted by
    /// key without `std`, as read with it).
    pub fn from_json(document: &Value) -> Result<Self, RulesDocumentError> {
        let object = document
            .as_object()
            .ok_or(RulesDocumentError::NotAnObject)?;
        Self::from_members(object)
    }

    /// The rules of an object's members; a `rev` member is checked and dropped.
    fn from_members(object: &ValueMap) -> Result<Self, RulesDocumentError> {
        let (rules, _rev) = decode_fields(object)?;
        Ok(rules)
    }
}

/// Stripping a caller-passed revision (`stripRev`): stored rules become plain rules again.
impl From<StoredSessionRules> for SessionPermissionRules {
    fn from(stored: StoredSessionRules) -> Self {
        stored.rules
    }
}

/// Strips the store's revision from stored rules (`stripRev`), so they can be edited and
/// written again: the store stamps the next revision itself.
#[must_use]
pub fn strip_rev(stored: StoredSessionRules) -> SessionPermissionRules {
    stored.rules
}

/// The rules with every `allowDirs` entry normalised (`normalizeRules`, see
/// [`normalize_path`]), so stored rules are `..`-free and the tighten gate compares the form
/// the runtime resolves. The other fields are kept as given. Normalising twice changes
/// nothing, and normalised rules give every call the verdict the rules as written give it.
#[must_use]
pub fn normalize_rules(mut rules: SessionPermissionRules) -> SessionPermissionRules {
    if let Some(dirs) = rules.allow_dirs.as_mut() {
        for dir in dirs.iter_mut() {
            let normalised = normalize_path(dir);
            if normalised != *dir {
                *dir = normalised;
            }
        }
    }
    rules
}

/// [`SessionPermissionRules`] plus the revision the store stamped (`StoredSessionRules`): the
/// key of compare-and-set. Revisions start at 1 for a new record and grow by one per accepted
/// write; the wire form is the rules' fields and `rev`, flat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StoredSessionRules {
    /// The store's revision of these rules.
    pub rev: NonZeroU64,
    /// The rules, normalised.
    pub rules: SessionPermissionRules,
}

impl StoredSessionRules {
    /// The revision as a number (`expectedRev` for the next write).
    #[must_use]
    pub const fn rev(&self) -> u64 {
        self.rev.get()
    }

    /// Decodes a stored-rules document strictly: a rules document (see
    /// [`SessionPermissionRules::from_json`]) whose `rev` is required and at least 1.
    ///
    /// As there, a parsed [`Value`] no longer shows a repeated member; the text entry point
    /// (`serde_json::from_str` or `from_slice` on this type, feature `serde`) is the strict one
    /// and refuses it with [`RulesDocumentError::DuplicateField`].
    ///
    /// # Errors
    /// What is wrong with the document.
    pub fn from_json(document: &Value) -> Result<Self, RulesDocumentError> {
        let object = document
            .as_object()
            .ok_or(RulesDocumentError::NotAnObject)?;
        Self::from_members(object)
    }

    /// The stored rules of an object's members: `rev` required and at least 1.
    fn from_members(object: &ValueMap) -> Result<Self, RulesDocumentError> {
        let (rules, rev) = decode_fields(object)?;
        let rev = rev.ok_or(RulesDocumentError::MissingRev)?;
        let rev = NonZeroU64::new(rev).ok_or(RulesDocumentError::InvalidRev)?;
        Ok(Self { rev, rules })
    }
}

/// A (principal, rules) pair of one session (`SessionRulesRecord`): what listing a session
/// returns, for export and for replaying into another store.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[non_exhaustive]
pub struct SessionRulesRecord {
    /// The principal these rules apply to; `None` is the session-wide default.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub principal: Option<String>,
    /// The stored rules.
    pub rules: StoredSessionRules,
}

impl SessionRulesRecord {
    /// The stored `rules`, attributed to no principal.
    #[must_use]
    pub fn new(rules: StoredSessionRules) -> Self {
        Self {
            principal: None,
            rules,
        }
    }
}

optional_setters!(SessionRulesRecord { with_principal => principal: impl Into<String> });

/// Why a rules document was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesDocumentError {
    /// The document is not a JSON object.
    #[error("a rules document must be a JSON object")]
    NotAnObject,
    /// A key that is neither a rules field nor `rev` (the key as written; the message and
    /// [`path`](Self::path) quote at most [`ReadLimits::DEFAULT`]'s `echo` bytes of it).
    #[error(
        "unknown rules field `{}`, expected one of `toolAllow`, `toolDeny`, `allowDirs`, \
         `commandAllow`, `commandDeny`, `rev`",
        echoed(.0, ReadLimits::DEFAULT.echo)
    )]
    UnknownField(String),
    /// A member written more than once (the key as written, quoted as for
    /// [`UnknownField`](Self::UnknownField)). Only the text decoder (serde) can see it: a parsed
    /// [`Value`] keeps one member per key.
    #[error(
        "duplicate rules field `{}`: a member may appear only once",
        echoed(.0, ReadLimits::DEFAULT.echo)
    )]
    DuplicateField(String),
    /// A field whose value is not a list (`null` included).
    #[error("`{0}` must be a list of strings")]
    NotAList(RulesField),
    /// A list entry that is not a string.
    #[error("`{field}[{index}]` must be a string")]
    NotAString {
        /// The field.
        field: RulesField,
        /// The entry's position in the list.
        index: usize,
    },
    /// `rev` is not a non-negative integer (for stored rules: not at least 1).
    #[error("`rev` must be a non-negative integer (at least 1 in stored rules)")]
    InvalidRev,
    /// A stored-rules document without `rev`.
    #[error("stored rules need a `rev`")]
    MissingRev,
}

impl RulesDocumentError {
    /// Where in the document the refusal is, in the form the other decoders' paths take
    /// (`agent_core::JsonDecodeError::path`): `toolDeny[1]`,
    /// `commandAllow`, `rev`, the key as written for an unknown or repeated field (cut as the
    /// message cuts it), and empty
    /// for the document itself (not an object, or a stored document without `rev`).
    #[must_use]
    pub fn path(&self) -> String {
        match self {
            Self::NotAnObject | Self::MissingRev => String::new(),
            Self::UnknownField(key) | Self::DuplicateField(key) => {
                echoed(key, ReadLimits::DEFAULT.echo).into_owned()
            }
            Self::NotAList(field) => String::from(field.as_str()),
            Self::NotAString { field, index } => alloc::format!("{field}[{index}]"),
            Self::InvalidRev => String::from("rev"),
        }
    }
}

/// The five fields and an optional `rev` of a rules object.
fn decode_fields(
    object: &ValueMap,
) -> Result<(SessionPermissionRules, Option<u64>), RulesDocumentError> {
    let mut rules = SessionPermissionRules::default();
    let mut rev = None;
    for (key, value) in object {
        if key == "rev" {
            rev = Some(value.as_u64().ok_or(RulesDocumentError::InvalidRev)?);
            continue;
        }
        let field = RulesField::from_literal(key)
            .ok_or_else(|| RulesDocumentError::UnknownField(key.clone()))?;
        let list = value
            .as_array()
            .ok_or(RulesDocumentError::NotAList(field))?;
        let names = list
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                entry
                    .as_str()
                    .map(String::from)
                    .ok_or(RulesDocumentError::NotAString { field, index })
            })
            .collect::<Result<Vec<_>, _>>()?;
        *rules.field_mut(field) = Some(names);
    }
    Ok((rules, rev))
}

#[cfg(feature = "serde")]
mod wire {
    use core::fmt;

    use super::*;
    use serde::de::{EnumAccess, Error as _, MapAccess, SeqAccess, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Through the members [`SessionPermissionRules::from_json`] checks: one decoder, one set of
    /// errors, plus [`RulesDocumentError::DuplicateField`], which only the text shows.
    impl<'de> Deserialize<'de> for SessionPermissionRules {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let members = deserializer.deserialize_any(Members)?;
            Self::from_members(&members).map_err(D::Error::custom)
        }
    }

    /// Through the members [`StoredSessionRules::from_json`] checks, a repeated member refused.
    impl<'de> Deserialize<'de> for StoredSessionRules {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let members = deserializer.deserialize_any(Members)?;
            Self::from_members(&members).map_err(D::Error::custom)
        }
    }

    /// Reads the members of a rules object as written, refusing a key seen before
    /// ([`RulesDocumentError::DuplicateField`], in document order, before any member is
    /// checked); anything but an object is [`RulesDocumentError::NotAnObject`]. A `Value` would
    /// keep only the last of a repeated member.
    struct Members;

    fn not_an_object<T, E: serde::de::Error>() -> Result<T, E> {
        Err(E::custom(RulesDocumentError::NotAnObject))
    }

    impl<'de> Visitor<'de> for Members {
        type Value = ValueMap;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a rules document (a JSON object)")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<ValueMap, A::Error> {
            let mut members = ValueMap::new();
            while let Some(key) = access.next_key::<String>()? {
                if members.contains_key(&key) {
                    return Err(A::Error::custom(RulesDocumentError::DuplicateField(key)));
                }
                let value = access.next_value::<Value>()?;
                members.insert(key, value);
            }
            Ok(members)
        }

        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<ValueMap, E> {
            not_an_object()
        }

        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<ValueMap, E> {
            not_an_object()
        }

        fn visit_i128<E: serde::de::Error>(self, _: i128) -> Result<ValueMap, E> {
            not_an_object()
        }

        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<ValueMap, E> {
            not_an_object()
        }

        fn visit_u128<E: serde::de::Error>(self, _: u128) -> Result<ValueMap, E> {
            not_an_object()
        }

        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<ValueMap, E> {
            not_an_object()
        }

        fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<ValueMap, E> {
            not_an_object()
        }

        fn visit_bytes<E: serde::de::Error>(self, _: &[u8]) -> Result<ValueMap, E> {
            not_an_object()
        }

        fn visit_unit<E: serde::de::Error>(self) -> Result<ValueMap, E> {
            not_an_object()
        }

        fn visit_none<E: serde::de::Error>(self) -> Result<ValueMap, E> {
            not_an_object()
        }

        fn visit_some<D: Deserializer<'de>>(self, _: D) -> Result<ValueMap, D::Error> {
            not_an_object()
        }

        fn visit_newtype_struct<D: Deserializer<'de>>(self, _: D) -> Result<ValueMap, D::Error> {
            not_an_object()
        }

        fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<ValueMap, A::Error> {
            not_an_object()
        }

        fn visit_enum<A: EnumAccess<'de>>(self, _: A) -> Result<ValueMap, A::Error> {
            not_an_object()
        }
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct StoredWire<'a> {
        #[serde(skip_serializing_if = "absent")]
        tool_allow: &'a Option<Vec<String>>,
        #[serde(skip_serializing_if = "absent")]
        tool_deny: &'a Option<Vec<String>>,
        #[serde(skip_serializing_if = "absent")]
        allow_dirs: &'a Option<Vec<String>>,
        #[serde(skip_serializing_if = "absent")]
        command_allow: &'a Option<Vec<String>>,
        #[serde(skip_serializing_if = "absent")]
        command_deny: &'a Option<Vec<String>>,
        rev: u64,
    }

    #[allow(clippy::ref_option)] // the signature serde's `skip_serializing_if` calls
    fn absent(list: &&Option<Vec<String>>) -> bool {
        list.is_none()
    }

    impl Serialize for StoredSessionRules {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            StoredWire {
                tool_allow: &self.rules.tool_allow,
                tool_deny: &self.rules.tool_deny,
                allow_dirs: &self.rules.allow_dirs,
                command_allow: &self.rules.command_allow,
                command_deny: &self.rules.command_deny,
                rev: self.rev.get(),
            }
            .serialize(serializer)
        }
    }
}
