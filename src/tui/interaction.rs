//! The command-interaction vocabulary (`command-interaction` in the TypeScript package).

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

string_enum! {
    /// What a renderer does when a command is invoked without its arguments.
    pub enum OnMissingArgsAction {
        /// Show a list to pick the argument from.
        Picker = "picker",
        /// Walk the user through the arguments step by step (vocabulary only: no interaction
        /// variant carries it, and a renderer may leave it unimplemented).
        Wizard = "wizard",
        /// Ask a yes/no question before running the command.
        Confirm = "confirm",
    }
}

/// One entry of a picker: what is shown, and the argument value it stands for.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct TuiPickerItem {
    /// Text shown for the entry.
    pub label: String,
    /// The argument value the entry stands for.
    pub value: String,
    /// Optional second line shown under the label.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub description: Option<String>,
}

impl TuiPickerItem {
    /// A [`TuiPickerItem`] from the members the contract requires, in its order; the optional ones
    /// start absent.
    #[must_use]
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            value: value.into(),
            description: None,
        }
    }
}

optional_setters!(TuiPickerItem {
    /// The same value with `description` set: optional second line shown under the label.
    with_description => description: impl Into<String>,
});

/// The base shape a command declares: which interaction, if any, a missing argument triggers.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct TuiCommandInteraction {
    /// The action; absent means the command runs without asking.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub on_missing_args: Option<OnMissingArgsAction>,
}

impl TuiCommandInteraction {
    /// A [`TuiCommandInteraction`] with every optional member absent.
    #[must_use]
    pub fn new() -> Self {
        Self {
            on_missing_args: None,
        }
    }
}

optional_setters!(TuiCommandInteraction {
    /// The same value with `on_missing_args` set: the action; absent means the command runs without
    /// asking.
    with_on_missing_args => on_missing_args: OnMissingArgsAction,
});

/// A confirm interaction: on the wire `{"onMissingArgs": "confirm", "message": …}`; any other
/// `onMissingArgs` literal fails to decode.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ConfirmWire", into = "ConfirmWire")
)]
#[non_exhaustive]
pub struct TuiConfirmInteraction {
    /// The question put to the user.
    pub message: String,
}

impl TuiConfirmInteraction {
    /// A [`TuiConfirmInteraction`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

/// The wire form of [`TuiConfirmInteraction`], whose action literal must be `'confirm'`.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConfirmWire {
    on_missing_args: OnMissingArgsAction,
    message: String,
}

#[cfg(feature = "serde")]
impl TryFrom<ConfirmWire> for TuiConfirmInteraction {
    type Error = &'static str;

    fn try_from(wire: ConfirmWire) -> Result<Self, Self::Error> {
        match wire.on_missing_args {
            OnMissingArgsAction::Confirm => Ok(Self {
                message: wire.message,
            }),
            _ => Err("a confirm interaction must have onMissingArgs `confirm`"),
        }
    }
}

#[cfg(feature = "serde")]
impl From<TuiConfirmInteraction> for ConfirmWire {
    fn from(confirm: TuiConfirmInteraction) -> Self {
        Self {
            on_missing_args: OnMissingArgsAction::Confirm,
            message: confirm.message,
        }
    }
}

/// A picker interaction: the items are produced when the renderer asks for them, so a command can
/// list what exists at that moment. Implemented for closures returning the items and for a fixed
/// list.
pub trait TuiPickerInteraction {
    /// The entries to show, in display order.
    fn get_items(&self) -> Vec<TuiPickerItem>;
}

impl<F: Fn() -> Vec<TuiPickerItem>> TuiPickerInteraction for F {
    fn get_items(&self) -> Vec<TuiPickerItem> {
        self()
    }
}

impl TuiPickerInteraction for Vec<TuiPickerItem> {
    fn get_items(&self) -> Vec<TuiPickerItem> {
        self.clone()
    }
}

/// Every interaction a renderer must handle; exhaustive over the two kinds that have a shape.
pub enum AnyTuiCommandInteraction {
    /// `onMissingArgs: 'picker'`.
    Picker(Box<dyn TuiPickerInteraction>),
    /// `onMissingArgs: 'confirm'`.
    Confirm(TuiConfirmInteraction),
}

impl AnyTuiCommandInteraction {
    /// The action literal this interaction stands for (never [`OnMissingArgsAction::Wizard`]).
    #[must_use]
    pub fn on_missing_args(&self) -> OnMissingArgsAction {
        match self {
            Self::Picker(_) => OnMissingArgsAction::Picker,
            Self::Confirm(_) => OnMissingArgsAction::Confirm,
        }
    }
}

impl fmt::Debug for AnyTuiCommandInteraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Picker(_) => f.debug_tuple("Picker").finish_non_exhaustive(),
            Self::Confirm(confirm) => f.debug_tuple("Confirm").field(confirm).finish(),
        }
    }
}
