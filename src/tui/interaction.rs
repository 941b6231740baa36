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
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
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

/// The base shape a command declares: which interaction, if any, a missing argument triggers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TuiCommandInteraction {
    /// The action; absent means the command runs without asking.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub on_missing_args: Option<OnMissingArgsAction>,
}

/// A confirm interaction: on the wire `{"onMissingArgs": "confirm", "message": …}`; any other
/// `onMissingArgs` literal fails to decode.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ConfirmWire", into = "ConfirmWire")
)]
pub struct TuiConfirmInteraction {
    /// The question put to the user.
    pub message: String,
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
