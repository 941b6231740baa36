//! Asking the user (`IActionRequest`) and their answer (`TActionResponse`).

use alloc::string::String;
use alloc::vec::Vec;

/// One predefined choice of an [`ActionRequest`] (`IActionOption`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ActionOption {
    /// The value an answer carries when this option is chosen.
    pub value: String,
    /// The text shown for the option.
    pub label: String,
    /// A longer explanation shown with the option.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub description: Option<String>,
}

/// What an [`ActionRequest`] starts with (`IActionDefault`): preselected options and/or prefilled
/// text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ActionDefault {
    /// The [`ActionOption::value`]s selected at the start.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub values: Option<Vec<String>>,
    /// The text the free-text field starts with.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub text: Option<String>,
}

/// One question put to the user (`IActionRequest`).
///
/// A single shape covers every kind of question through its fields: a confirmation is two options
/// with `max_select` 1, a single choice is options with `max_select` 1, a multiple choice is
/// options with `max_select` above 1, free text is no options with `allow_free_text`, and a secret
/// is free text with `masked`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ActionRequest {
    /// Correlation key: the answering port resolves one id exactly once (the first answer wins).
    pub id: String,
    /// The question's headline.
    pub title: String,
    /// More text under the title.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub description: Option<String>,
    /// The predefined choices; absent or empty means pure free-text entry.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub options: Option<Vec<ActionOption>>,
    /// The fewest selections an answer must make; absent means
    /// [`DEFAULT_MIN_SELECT`](Self::DEFAULT_MIN_SELECT).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub min_select: Option<u32>,
    /// The most selections an answer may make; absent means
    /// [`DEFAULT_MAX_SELECT`](Self::DEFAULT_MAX_SELECT) (a single choice).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub max_select: Option<u32>,
    /// True when a typed answer is allowed besides (or instead of) the options.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub allow_free_text: Option<bool>,
    /// True when typed input is secret and the renderer must hide it (an API key, a password).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub masked: Option<bool>,
    /// True when an empty typed answer may be submitted.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub allow_empty: Option<bool>,
    /// Hint text shown in an empty free-text field.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub placeholder: Option<String>,
    /// How many options a renderer shows before it scrolls (a hint, not a limit).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub max_visible: Option<u32>,
    /// Preselected options and/or prefilled text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub default: Option<ActionDefault>,
}

impl ActionOption {
    /// An option answering `value`, shown as `label`, without a description.
    #[must_use]
    pub fn new(value: impl Into<String>, label: impl Into<String>) -> Self {
        Self {
            value: value.into(),
            label: label.into(),
            description: None,
        }
    }
}

optional_setters!(ActionOption { with_description => description: impl Into<String> });

optional_setters!(ActionDefault {
    with_values => values: Vec<String>,
    with_text => text: impl Into<String>,
});

optional_setters!(ActionRequest {
    with_description => description: impl Into<String>,
    with_options => options: Vec<ActionOption>,
    with_min_select => min_select: u32,
    with_max_select => max_select: u32,
    with_allow_free_text => allow_free_text: bool,
    with_masked => masked: bool,
    with_allow_empty => allow_empty: bool,
    with_placeholder => placeholder: impl Into<String>,
    with_max_visible => max_visible: u32,
    with_default => default: ActionDefault,
});

impl ActionRequest {
    /// A request `id` titled `title`, every optional member absent (one choice among no
    /// options: set them with the `with_*` setters).
    #[must_use]
    pub fn new(id: impl Into<String>, title: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            title: title.into(),
            ..Self::default()
        }
    }

    /// The minimum number of selections when `min_select` is absent.
    pub const DEFAULT_MIN_SELECT: u32 = 1;
    /// The maximum number of selections when `max_select` is absent.
    pub const DEFAULT_MAX_SELECT: u32 = 1;

    /// `min_select`, or its documented default when absent.
    #[must_use]
    pub fn effective_min_select(&self) -> u32 {
        self.min_select.unwrap_or(Self::DEFAULT_MIN_SELECT)
    }

    /// `max_select`, or its documented default when absent.
    #[must_use]
    pub fn effective_max_select(&self) -> u32 {
        self.max_select.unwrap_or(Self::DEFAULT_MAX_SELECT)
    }
}

/// The user's answer to an [`ActionRequest`] (`TActionResponse`), tagged on `type`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "type",
        rename_all = "lowercase",
        rename_all_fields = "camelCase"
    )
)]
pub enum ActionResponse {
    /// `type: 'answer'`: what the user chose and/or typed.
    Answer {
        /// The chosen [`ActionOption::value`]s, in selection order (empty for a typed-only answer).
        values: Vec<String>,
        /// The typed text, when any.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        text: Option<String>,
    },
    /// `type: 'cancelled'`: the user dismissed the question, or no interactive renderer could
    /// answer it.
    Cancelled,
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use alloc::vec;

    use super::{ActionDefault, ActionOption, ActionRequest};

    #[test]
    fn a_request_built_with_setters_writes_the_contract_members() {
        let request = ActionRequest::new("q1", "Pick one")
            .with_description("two ways")
            .with_options(vec![
                ActionOption::new("a", "A").with_description("first"),
                ActionOption::new("b", "B"),
            ])
            .with_min_select(1)
            .with_max_select(2)
            .with_allow_free_text(true)
            .with_placeholder("or type")
            .with_max_visible(5)
            .with_default(ActionDefault::default().with_text("a"));
        let written = serde_json::to_value(&request).expect("a request encodes");
        let expected = serde_json::json!({
            "id": "q1", "title": "Pick one", "description": "two ways",
            "options": [{"value": "a", "label": "A", "description": "first"},
                        {"value": "b", "label": "B"}],
            "minSelect": 1, "maxSelect": 2, "allowFreeText": true,
            "placeholder": "or type", "maxVisible": 5, "default": {"text": "a"}
        });
        assert_eq!(written, expected);
        let read: ActionRequest = serde_json::from_value(expected).expect("it reads back");
        assert_eq!(read, request);
        assert_eq!(request.effective_max_select(), 2);
    }
}
