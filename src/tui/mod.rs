//! Terminal-UI command interactions (feature `tui`, layer 0; names nothing, needs no
//! dependency).
//!
//! It mirrors the TypeScript `command-interaction` contract: what a command handler (at any
//! layer) tells a terminal renderer to do when the command is invoked without its arguments,
//! show a picker or ask for confirmation. The family holds only these contracts: no rendering,
//! no framework, no provider knowledge.
//!
//! # Guarantees
//!
//! - **Exhaustive**: a renderer narrows an [`AnyTuiCommandInteraction`] with a `match` over the
//!   two kinds that have a shape; there are no type guards to forget.
//! - **Items are produced on demand**: a [`TuiPickerInteraction`] lists what exists when the
//!   renderer asks (a closure or a fixed `Vec`).
//! - **Strict wire form** (feature `serde`): a confirm interaction with another `onMissingArgs`
//!   literal fails to decode.
//!
//! # Example
//!
//! ```
//! use agent_interface::tui::{AnyTuiCommandInteraction, OnMissingArgsAction, TuiPickerItem};
//!
//! let item = |name: &str| TuiPickerItem::new(name, name);
//! let themes = move || vec![item("dark"), item("light")];
//! let picker = AnyTuiCommandInteraction::Picker(Box::new(themes));
//! assert_eq!(picker.on_missing_args(), OnMissingArgsAction::Picker);
//! match picker {
//!     AnyTuiCommandInteraction::Picker(items) => assert_eq!(items.get_items().len(), 2),
//!     AnyTuiCommandInteraction::Confirm(confirm) => println!("{}", confirm.message),
//! }
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/tui.md`.

mod interaction;

pub use interaction::{
    AnyTuiCommandInteraction, OnMissingArgsAction, TuiCommandInteraction, TuiConfirmInteraction,
    TuiPickerInteraction, TuiPickerItem,
};
