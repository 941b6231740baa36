//! Payload channels (catalog §6.3, §6.5): the byte codec of channel frames, the reassembler that
//! restores sequence order, and the registry that declares channels, numbers what they send and
//! routes what they receive.
//!
//! | piece | what it does |
//! |---|---|
//! | [`encode_channel_frame`], [`decode_channel_frame`], [`is_channel_frame`] | frames as bytes, exactly as the reference encodes them |
//! | [`ChannelReassembler`] | order restored whatever the delivery order, at most `N` items held |
//! | [`PayloadChannelRegistry`] | declared channels, outbound seqs, inbound routing and reassembly |
//!
//! Sans-IO, in the manner of quinn-proto: the registry never touches a carrier. A send returns
//! the frame's bytes; [`PayloadChannelRegistry::receive`] takes the bytes of one inbound frame
//! and returns the frames now deliverable in order, or a typed [`ChannelRefusal`] whose
//! [`to_receive_result`](ChannelRefusal::to_receive_result) is the `{ok: false, error}` answer
//! for the peer. There are no handler callbacks: the host dispatches the returned frames. No
//! interior mutability, no clock, no `Send` bound.
//!
//! Where the crate departs from the reference (interop README, departures 3 to 5):
//!
//! * a channel name is checked when it is declared ([`ChannelName`](crate::transport::ChannelName)),
//!   never at the first send, and a refused send consumes no sequence number;
//! * a closed handle is refused with [`ChannelClosed`] and never touches a channel registered
//!   later under the same name (each registration has its own serial);
//! * an inbound channel name that is not UTF-8 is refused
//!   ([`ChannelFrameError::ChannelNameNotUtf8`]), never routed as U+FFFD, and inbound seqs are
//!   checked: a channel delivers seq 0, 1, 2, … in order; a stale, duplicate or beyond-window
//!   seq is a [`ChannelRefusal::Sequence`].
//!
//! Decisions where the catalog is silent:
//!
//! * Sequence numbers are `u32` (the wire's) and never wrap: after seq `u32::MAX` a channel
//!   refuses to send ([`ChannelSendError::SequenceExhausted`]) and refuses every inbound frame
//!   as stale; closing and registering it again restarts both at 0.
//!   [`PayloadChannelRegistry::register_resuming`] starts both sequences elsewhere.
//! * The reassembly window is a count of frames, the const `PENDING`; bytes are bounded by the
//!   carrier's largest message, so a channel holds at most `PENDING` such frames.
//! * A descriptor that declares the event name `""` is refused at registration: the decoder
//!   refuses such frames, so the channel could never deliver that event.
//! * Closing a channel hands back the inbound frames it held ahead of a gap.

mod frame;
mod reassembler;
mod registry;

pub use frame::{
    CHANNEL_FRAME_MAGIC, CHANNEL_FRAME_VERSION, ChannelFrameError, decode_channel_frame,
    encode_channel_frame, is_channel_frame,
};
pub use reassembler::{ChannelReassembler, ReassemblyRefused, SequenceRefusal};
pub use registry::{
    ChannelClosed, ChannelRefusal, ChannelRegisterError, ChannelResumePoint, ChannelSendError,
    PayloadChannel, PayloadChannelRegistry, UndeclaredFrame,
};
