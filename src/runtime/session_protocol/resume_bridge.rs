//! The resume bridge: outbound messages stamped with a seq and kept in a [`ResumeBuffer`] for a
//! connection that may drop and come back, and a client's `resume` and `ack` answered from it.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::resume_buffer::{ResumeBuffer, ResumeLimits};
use crate::session::protocol::ServerMessage;

/// The `resume_gap` message: never stamped and never kept.
const RESUME_GAP: BridgeFrame<'static> = BridgeFrame {
    event: "resume_gap",
    text: r#"{"type":"resume_gap"}"#,
};

/// A message as the bridge hands it back to send: its text (stamped with its seq, but for
/// `resume_gap`) and its `type`, which an [`OutboundDelivery`](super::OutboundDelivery) names
/// when the carrier fails on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BridgeFrame<'a> {
    /// The message's `type` literal.
    pub event: &'static str,
    /// The JSON text to put on the wire.
    pub text: &'a str,
}

/// A kept message: its `type` and its stamped text.
#[derive(Clone, Debug)]
struct Kept {
    event: &'static str,
    text: String,
}

impl Kept {
    fn frame(&self) -> BridgeFrame<'_> {
        BridgeFrame {
            event: self.event,
            text: &self.text,
        }
    }
}

/// One session's outbound stream across reconnections, sans-IO: the host gives it every server
/// message and the attach, detach, `resume` and `ack` events of the connection, and sends the
/// texts it hands back.
///
/// Every message but `resume_gap` is written as JSON with the next `seq` as its last member
/// and kept in the buffer, attached or not. While a connection is attached and not waiting for
/// its `resume`, a message's text is sent at once; a connection attached with
/// `await_resume` gets nothing until its `resume`, which replays every kept message after the
/// client's last seq (the live ones held meanwhile included, in order), or answers
/// `resume_gap` when one is gone.
#[derive(Debug)]
pub struct ResumeBridge {
    buffer: ResumeBuffer<Kept>,
    /// The last message stamped when the buffer keeps none (a frame bound of 0): still sent to
    /// an attached connection, so its text is held here until the next one.
    unkept: Option<Kept>,
    attached: bool,
    holding: bool,
}

impl ResumeBridge {
    /// A bridge with no connection attached, keeping frames within `limits` (each frame sized
    /// at the length in bytes of its message's text before the seq).
    #[must_use]
    pub const fn new(limits: ResumeLimits) -> Self {
        Self {
            buffer: ResumeBuffer::new(limits),
            unkept: None,
            attached: false,
            holding: false,
        }
    }

    /// The last seq stamped (0 before the first message).
    #[must_use]
    pub const fn last_seq(&self) -> u64 {
        self.buffer.last_seq()
    }

    /// The seqs of the kept messages, oldest first.
    pub fn retained_seqs(&self) -> impl Iterator<Item = u64> + '_ {
        self.buffer.retained().map(|(seq, _)| seq)
    }

    /// True while a connection is attached.
    #[must_use]
    pub const fn is_attached(&self) -> bool {
        self.attached
    }

    /// True while the attached connection waits for its `resume` (nothing is sent to it).
    #[must_use]
    pub const fn is_holding(&self) -> bool {
        self.holding
    }

    /// A connection is attached (replacing any other); with `await_resume`, it gets nothing
    /// until it sends `resume`.
    pub fn attach(&mut self, await_resume: bool) {
        self.attached = true;
        self.holding = await_resume;
    }

    /// The connection is gone; messages are still stamped and kept.
    pub fn detach(&mut self) {
        self.attached = false;
        self.holding = false;
    }

    /// Stamps `message` with the next seq and keeps it; returns its frame when it is to be sent
    /// now (a connection is attached and not waiting for its `resume`). A `resume_gap` is
    /// neither stamped nor kept, and is sent to an attached connection as it is.
    ///
    /// # Errors
    /// The message cannot be written as JSON (a number that is not finite in an untyped
    /// payload); nothing is stamped or kept.
    pub fn outbound(
        &mut self,
        message: &ServerMessage,
    ) -> Result<Option<BridgeFrame<'_>>, serde_json::Error> {
        if matches!(message, ServerMessage::ResumeGap) {
            return Ok(self.attached.then_some(RESUME_GAP));
        }
        let mut text = serde_json::to_string(message)?;
        // Sized as the message is written, before its seq (as the reference sizes it).
        let size = text.len();
        let seq = self.buffer.last_seq() + 1;
        // Every message is a JSON object: its text ends with `}`.
        text.pop();
        // Writing to a `String` cannot fail.
        let _ = write!(text, ",\"seq\":{seq}}}");
        let kept = Kept {
            event: message.type_literal(),
            text,
        };
        // The newest frame is always kept, unless the buffer keeps none at all.
        self.unkept = (self.buffer.limits().max_frames == 0).then(|| kept.clone());
        let stamped = self.buffer.append(kept, size);
        debug_assert_eq!(stamped, seq, "the buffer numbers frames as the text says");
        if !self.attached || self.holding {
            return Ok(None);
        }
        let kept = match &self.unkept {
            Some(unkept) => Some(unkept),
            None => self.buffer.retained().last().map(|(_, kept)| kept),
        };
        Ok(kept.map(Kept::frame))
    }

    /// The client's `resume` after `last_seq`: the frames to send, in order (the kept messages
    /// after it), or `resume_gap` alone when one of them is gone. Releases a hold.
    #[must_use]
    pub fn resume(&mut self, last_seq: u64) -> Vec<BridgeFrame<'_>> {
        self.holding = false;
        match self.buffer.tail_after(last_seq) {
            Ok(tail) => tail.map(|(_, kept)| kept.frame()).collect(),
            Err(_) => alloc::vec![RESUME_GAP],
        }
    }

    /// The client's `ack` through `seq`: the kept messages up to it are freed.
    pub fn ack(&mut self, seq: u64) {
        self.buffer.ack_through(seq);
    }
}
