//! Moving a file from one session to another: the offer the operator approves, the whole-file
//! hash check, and the file channel port.
//!
//! # Guarantees
//!
//! - A file carries no authority, never runs, and never enters the model's context by arriving.
//! - It travels on a channel of its own ([`FileFrameChannel`]) and is checked whole against the
//!   approved hash before it is kept ([`FileOffer::verify_received`]).

mod offer;

pub use offer::{
    FileCloseHandler, FileFrameChannel, FileFrameHandler, FileOffer, FileVerificationError,
};
