//! Moving a file from one session to another (`file-transfer-contracts`).
//!
//! A file is data, like a message: it carries no authority, never runs, and never enters the
//! model's context by arriving. What it adds over a message is size, so it travels on a channel of
//! its own ([`FileFrameChannel`], never shared with messages), in pieces the receiver paces, and is
//! checked whole against the hash the receiving operator approved before it is kept
//! ([`FileOffer::verify_received`]). The operator approves each offer through
//! [`ConnectionAuthority::authorize_file`](crate::session_mobility::authority::ConnectionAuthority::authorize_file), whose
//! question names the file exactly ([`FileOffer::approval_summary`]).
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;

use crate::session::records::Sha256Digest;

/// A file one session offers another (`IFileOffer`): exactly what the receiving operator
/// approves and what is verified.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct FileOffer {
    /// Names this transfer on its channel; chosen by the sender, trusted for nothing.
    pub transfer_id: String,
    /// The sender's name for the file. Untrusted: the receiver sanitizes it before using it.
    pub name: String,
    /// The content's length in bytes.
    pub size: u64,
    /// The SHA-256 of the whole content.
    pub sha256: Sha256Digest,
}

impl FileOffer {
    /// The offer of transfer `transfer_id`: the file `name`, `size` bytes whose SHA-256 is
    /// `sha256`.
    #[must_use]
    pub fn new(
        transfer_id: impl Into<String>,
        name: impl Into<String>,
        size: u64,
        sha256: Sha256Digest,
    ) -> Self {
        Self {
            transfer_id: transfer_id.into(),
            name: name.into(),
            size,
            sha256,
        }
    }

    /// What the operator is asked about: the file named exactly as offered,
    /// `<name> (<size> bytes, sha256 <sha256>)`, so the yes is for exactly the content the
    /// receiver then verifies. The name is the sender's untrusted text.
    #[must_use]
    pub fn approval_summary(&self) -> String {
        format!(
            "{} ({} bytes, sha256 {})",
            self.name, self.size, self.sha256
        )
    }

    /// Checks what arrived, measured by the host (its byte count and the SHA-256 the host
    /// computed over the whole content), against this offer, before the file is kept.
    ///
    /// # Errors
    ///
    /// [`FileVerificationError::SizeMismatch`] (checked first) or
    /// [`FileVerificationError::DigestMismatch`]: the file must not be kept.
    pub fn verify_received(
        &self,
        size: u64,
        sha256: &Sha256Digest,
    ) -> Result<(), FileVerificationError> {
        if size != self.size {
            return Err(FileVerificationError::SizeMismatch {
                offered: self.size,
                received: size,
            });
        }
        if *sha256 != self.sha256 {
            return Err(FileVerificationError::DigestMismatch);
        }
        Ok(())
    }
}

/// Why a received file does not match the approved offer (it must not be kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FileVerificationError {
    /// The byte count differs from the offer's.
    #[error("the file has {received} bytes, the approved offer {offered}")]
    SizeMismatch {
        /// The size the operator approved.
        offered: u64,
        /// The size that arrived.
        received: u64,
    },
    /// The content's SHA-256 differs from the offer's.
    #[error("the file's sha256 differs from the approved offer's")]
    DigestMismatch,
}

/// A handler of the frames arriving on a [`FileFrameChannel`].
pub type FileFrameHandler = Rc<dyn Fn(&str)>;

/// A handler of a [`FileFrameChannel`]'s end.
pub type FileCloseHandler = Rc<dyn Fn()>;

/// A duplex channel of text frames that carries one transfer and nothing else
/// (`IFileFrameChannel`). Messages never share it, so a transfer cannot delay, reorder or be
/// mistaken for one. Implemented by the carrier.
pub trait FileFrameChannel {
    /// Why a frame could not be sent (for example: the channel is closed).
    type Error: core::error::Error;

    /// Sends one frame to the other side.
    ///
    /// # Errors
    ///
    /// The carrier's error; a channel must refuse a send after it closed.
    fn send(&self, frame: &str) -> Result<(), Self::Error>;

    /// Calls `handler` with every frame that arrives until it is removed.
    fn on_frame(&self, handler: FileFrameHandler);

    /// Removes a frame handler (the same `Rc` that was registered).
    fn off_frame(&self, handler: &FileFrameHandler);

    /// Calls `handler` once when the channel ends, from either side.
    fn on_close(&self, handler: FileCloseHandler);

    /// Removes a close handler (the same `Rc` that was registered).
    fn off_close(&self, handler: &FileCloseHandler);

    /// Ends the channel (both sides' close handlers fire once).
    fn close(&self);
}
