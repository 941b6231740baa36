//! Terminal-UI command interactions (layer 0; names nothing, needs no dependency).
//!
//! What a command handler (at any layer) tells a terminal renderer to do when the command is
//! invoked without its arguments: show a picker, or ask for confirmation. The family holds only
//! these contracts: no rendering, no framework, no provider knowledge.
//!
//! Narrow an [`AnyTuiCommandInteraction`] with an exhaustive `match`; there are no type guards.
//!
//! # Rust shape
//!
//! * `ITuiPickerInteraction` has a member function (`getItems()`), so it is the trait
//!   [`TuiPickerInteraction`], implemented for closures and for a fixed `Vec` of items. A picker
//!   therefore has no wire form; the confirm interaction, the base shape and the picker items do.
//! * `'wizard'` is part of [`OnMissingArgsAction`] but has no interaction variant, as in the
//!   contract: a renderer may leave it unimplemented.

mod interaction;

pub use interaction::{
    AnyTuiCommandInteraction, OnMissingArgsAction, TuiCommandInteraction, TuiConfirmInteraction,
    TuiPickerInteraction, TuiPickerItem,
};
