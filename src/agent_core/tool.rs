//! Tool schemas (`IToolSchema`) and tool execution results (`IToolExecutionResult`).

use alloc::string::String;
use alloc::vec::Vec;

use super::value::{Value, ValueMap};

string_enum! {
    /// The JSON-schema `type` keyword values the universal schema subset uses (`TJSONSchemaKind`).
    pub enum JsonSchemaKind {
        /// A JSON string.
        String = "string",
        /// Any JSON number.
        Number = "number",
        /// A JSON number without a fraction.
        Integer = "integer",
        /// `true` or `false`.
        Boolean = "boolean",
        /// A JSON array.
        Array = "array",
        /// A JSON object.
        Object = "object",
        /// JSON `null`.
        Null = "null",
    }
}

/// The root of a tool's parameter schema (`IObjectParameterSchema`): an object node that names
/// its properties.
///
/// On the wire `{"type": "object", "properties": {..}, "required"?: [..], ..}`; any other `type`
/// fails to decode. Every other schema keyword (`description`, `additionalProperties`, `anyOf`, …)
/// is kept in [`extra`](Self::extra), so a round trip loses nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ObjectSchemaWire", into = "ObjectSchemaWire")
)]
#[non_exhaustive]
pub struct ObjectParameterSchema {
    /// Property name to the schema node that describes it; nodes are kept as JSON values.
    pub properties: ValueMap,
    /// The names of the properties a caller must supply.
    pub required: Option<Vec<String>>,
    /// Every other keyword of the node, as written. Keys named `type`, `properties` or `required`
    /// here are dropped on encoding: the fields above own them.
    pub extra: ValueMap,
}

impl ObjectParameterSchema {
    /// An object schema with these `properties`, none required and no other keywords.
    #[must_use]
    pub fn new(properties: ValueMap) -> Self {
        Self {
            properties,
            ..Self::default()
        }
    }

    /// The node's schema type, always [`JsonSchemaKind::Object`] (the wire `type`).
    #[must_use]
    pub const fn kind(&self) -> JsonSchemaKind {
        JsonSchemaKind::Object
    }
}

/// The wire form of [`ObjectParameterSchema`], whose `type` must be `'object'`.
// `Deserialize` is written out below: the derived one, with `extra` flattened, buffers every
// member into serde's `Content` and decodes `extra` from the buffer, a second `Value` decoder.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
struct ObjectSchemaWire {
    #[serde(rename = "type")]
    kind: JsonSchemaKind,
    properties: ValueMap,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    required: Option<Vec<String>>,
    #[serde(flatten)]
    extra: ValueMap,
}

/// Reads the object once: `type`, `properties` and `required` into their fields (refused when
/// written twice or of the wrong type, the first two when missing, as the derived decoder
/// does), every other member into `extra` (a name written twice keeps its last value).
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ObjectSchemaWire {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{Error, MapAccess, Visitor};

        struct Members;

        impl<'de> Visitor<'de> for Members {
            type Value = ObjectSchemaWire;

            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("struct ObjectSchemaWire")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut kind = None;
                let mut properties = None;
                let mut required = None;
                let mut extra = ValueMap::new();
                while let Some(name) = map.next_key::<String>()? {
                    match name.as_str() {
                        "type" if kind.is_some() => return Err(Error::duplicate_field("type")),
                        "type" => kind = Some(map.next_value()?),
                        "properties" if properties.is_some() => {
                            return Err(Error::duplicate_field("properties"));
                        }
                        "properties" => properties = Some(map.next_value()?),
                        "required" if required.is_some() => {
                            return Err(Error::duplicate_field("required"));
                        }
                        "required" => required = Some(map.next_value()?),
                        _ => {
                            let value = map.next_value()?;
                            extra.insert(name, value);
                        }
                    }
                }
                Ok(ObjectSchemaWire {
                    kind: kind.ok_or_else(|| Error::missing_field("type"))?,
                    properties: properties.ok_or_else(|| Error::missing_field("properties"))?,
                    required: required.flatten(),
                    extra,
                })
            }
        }

        deserializer.deserialize_map(Members)
    }
}

#[cfg(feature = "serde")]
impl TryFrom<ObjectSchemaWire> for ObjectParameterSchema {
    type Error = &'static str;

    fn try_from(wire: ObjectSchemaWire) -> Result<Self, Self::Error> {
        match wire.kind {
            JsonSchemaKind::Object => Ok(Self {
                properties: wire.properties,
                required: wire.required,
                extra: wire.extra,
            }),
            _ => Err("a tool's parameters schema must have type `object`"),
        }
    }
}

#[cfg(feature = "serde")]
impl From<ObjectParameterSchema> for ObjectSchemaWire {
    fn from(schema: ObjectParameterSchema) -> Self {
        let mut extra = schema.extra;
        extra.retain(|key, _| !matches!(key.as_str(), "type" | "properties" | "required"));
        Self {
            kind: JsonSchemaKind::Object,
            properties: schema.properties,
            required: schema.required,
            extra,
        }
    }
}

/// What a tool tells the model about itself (`IToolSchema`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ToolSchema {
    /// The tool's unique name, as the model calls it.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// The schema of the tool's arguments.
    pub parameters: ObjectParameterSchema,
    /// The schema the tool's output must match, when declared; any schema node (not only an
    /// object), kept as a JSON value.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub output_schema: Option<Value>,
    /// A client-side marker (newer TypeScript source): `true` withholds the tool from the model's
    /// list until it is loaded; absent means always offered.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub defer_loading: Option<bool>,
}

/// The outcome of running one tool (`IToolExecutionResult`).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ToolExecutionResult {
    /// True when the tool ran to completion without error.
    pub success: bool,
    /// The name of the tool that ran.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tool_name: Option<String>,
    /// What the tool returned. An absent key is `None`; a present `null` stays
    /// `Some(Value::Null)`.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "super::value::present"
        )
    )]
    pub result: Option<Value>,
    /// Why the tool failed, as text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub error: Option<String>,
    /// How long the run took, in milliseconds.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub duration: Option<f64>,
    /// The id of this execution (usually the tool call's id).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub execution_id: Option<String>,
    /// Free-form annotations about the run.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub metadata: Option<ValueMap>,
}

optional_setters!(ObjectParameterSchema { with_required => required: Vec<String> });

impl ToolSchema {
    /// The schema of the tool `name`, described by `description`, taking `parameters`; no
    /// output schema, loaded eagerly.
    #[must_use]
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: ObjectParameterSchema,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            parameters,
            output_schema: None,
            defer_loading: None,
        }
    }
}

optional_setters!(ToolSchema {
    with_output_schema => output_schema: Value,
    with_defer_loading => defer_loading: bool,
});

impl ToolExecutionResult {
    /// A run that succeeded (`success`) or not, with nothing else reported.
    #[must_use]
    pub fn new(success: bool) -> Self {
        Self {
            success,
            ..Self::default()
        }
    }
}

optional_setters!(ToolExecutionResult {
    with_tool_name => tool_name: impl Into<String>,
    with_result => result: Value,
    with_error => error: impl Into<String>,
    with_duration => duration: f64,
    with_execution_id => execution_id: impl Into<String>,
    with_metadata => metadata: ValueMap,
});
