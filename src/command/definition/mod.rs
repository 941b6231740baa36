//! What a command is and what running one returns: the [`Command`] record, where commands come
//! from ([`CommandSource`]) and who runs them ([`CommandExecutor`]), who invokes a command from
//! which surface, and the [`CommandResult`] with the host actions and UI intents it carries.
//!
//! A failed command is a [`CommandResult`] with `success: false`, never an error; host actions
//! and UI intents hold no functions, so their JSON round trip is identity.
//!
//! | file | what it holds |
//! |---|---|
//! | command | [`Command`], [`CommandSource`], [`CommandExecutor`] |
//! | invocation | [`CommandInvocationSource`], [`CommandSurfaceLocality`], [`CommandRunner`], [`CommandSurface`] |
//! | result | [`CommandResult`], [`CommandResultDataValue`] |
//! | host action | [`CommandHostAction`], [`CommandHostActionKind`] |
//! | UI intent | [`CommandUiIntent`] |

mod command;
mod host_action;
mod invocation;
mod result;
mod ui_intent;

pub use command::{Command, CommandExecutor, CommandSource};
pub use host_action::{CommandHostAction, CommandHostActionKind};
pub use invocation::{
    CommandInvocationSource, CommandRunner, CommandSurface, CommandSurfaceLocality,
};
pub use result::{CommandResult, CommandResultDataValue};
pub use ui_intent::CommandUiIntent;
