//! Payload channels (catalog §6.3, §6.5): the byte codec of channel frames, the reassembler that
//! restores sequence order, and the registry that declares channels, numbers what they send and
//! routes what they receive.
//!
//! | piece | what it does |
//! |---|---|
//! | [`encode_channel_frame_into`], [`decode_header`], [`decode_event_body`], [`decode_event_body_within`], [`is_channel_frame`] | frames as bytes, exactly as the reference encodes them; the header read apart from the body; a body nested past the read limit refused before it is parsed |
//! | [`encode_channel_frame`], [`decode_channel_frame`] | the same for whole frames, as owned values |
//! | [`ChannelReassembler`] | order restored whatever the delivery order, at most `N` items held, seqs given up reported as gaps |
//! | [`PayloadChannelRegistry`] | declared channels, outbound seqs, inbound routing and reassembly |
//! | [`GapPolicy`], [`ChannelGap`] | what a channel does about a frame that never comes, and the typed gap it reports |
//!
//! Sans-IO, in the manner of quinn-proto: the registry never touches a carrier. A send writes
//! the frame's bytes into a buffer of the host's ([`PayloadChannelRegistry::send_binary_into`],
//! the payload copied once) or returns them; [`PayloadChannelRegistry::receive`] takes the buffer
//! of one inbound frame ([`Bytes`], or a `Vec<u8>` converted without copy), reads its header
//! only, and hands on the frames now deliverable in order through a [`ChannelDelivery`], or
//! refuses it with a typed [`ChannelRefusal`] whose
//! [`to_receive_result`](ChannelRefusal::to_receive_result) is the `{ok: false, error}` answer
//! for the peer. A delivered frame borrows its channel's name from the registry and a binary
//! payload is a slice of the carrier's buffer: in order, a binary frame is received without an
//! allocation or a copy. An event body is parsed only when its frame is delivered; a malformed
//! body or an undeclared event is then a [`RefusedDelivery`] whose seq is consumed
//! (docs/decisions/payload-channels-zero-copy.md). There are no handler callbacks: the host
//! dispatches the delivered frames. No interior mutability, no clock, no `Send` bound.
//!
//! An event body is a [`Value`]. Encoding one received from a peer
//! gives its bytes back unchanged only with the crate's `std` feature, which keeps the members
//! of every object in the order they were read (serde_json's `preserve_order`); without `std`
//! they come back sorted by name. `transport-runtime` does not turn `std` on, since a
//! microcontroller has none: a host that relays or signs a peer's event bodies turns it on
//! (docs/decisions/member-order.md).
//!
//! Where the crate departs from the reference (interop README, departures 3 to 5):
//!
//! * a channel name is checked when it is declared ([`ChannelName`]),
//!   never at the first send, and a refused send consumes no sequence number;
//! * a closed handle is refused with [`ChannelClosed`] and never touches a channel registered
//!   later under the same name (each registration has its own serial);
//! * an inbound channel name that is not UTF-8 is refused
//!   ([`ChannelFrameError::ChannelNameNotUtf8`]), never routed as U+FFFD, and inbound seqs are
//!   checked: a channel delivers its seqs in order from the first one it receives (or from its
//!   resume point); a stale, duplicate or beyond-window seq is a [`ChannelRefusal::Sequence`],
//!   a stale one saying whether it was delivered, given up as a gap, or is below the base;
//! * the header decides routing and the body is read at delivery: refusals come in the order
//!   malformed header, unknown channel, undeclared binary, seq (stale, duplicate, beyond the
//!   window), then, when the frame's turn comes, malformed event body and undeclared event. So a
//!   stale frame is refused as stale whatever its body, and an event frame ahead of a gap is
//!   held whatever its body; a bad body is a [`RefusedDelivery`] with the reference's words, its
//!   seq consumed (the reference refuses it at once and consumes nothing).
//!
//! Decisions where the catalog is silent:
//!
//! * Sequence numbers are `u32` (the wire's) and never wrap: after seq `u32::MAX` a channel
//!   refuses to send ([`ChannelSendError::SequenceExhausted`]) and refuses every inbound frame
//!   as stale (below the base or delivered, until a
//!   [`rebase`](PayloadChannelRegistry::rebase)); closing and registering it again restarts the
//!   outbound sequence at 0 and takes the next inbound frame as the base.
//!   [`PayloadChannelRegistry::register_resuming`] starts both sequences elsewhere.
//! * The reassembly window is a count of frames, the const `PENDING`; bytes are bounded by the
//!   carrier's largest message, so a channel holds at most `PENDING` such frames.
//! * A descriptor that declares the event name `""` is refused at registration: the decoder
//!   refuses such frames, so the channel could never deliver that event.
//! * Closing a channel hands back the inbound frames it held ahead of a gap.
//! * Late join and reconnect: the TypeScript peer numbers frames per carrier, not per
//!   connection, and goes on numbering while no peer is connected. So a channel
//!   [`register`](PayloadChannelRegistry::register)ed afresh is unanchored: its first inbound
//!   frame is delivered whatever its seq and sets the base.
//!   [`rebase`](PayloadChannelRegistry::rebase) makes an open channel unanchored again when the
//!   host's carrier reconnects (handing back what it held, as a close does;
//!   [`rebase_all`](PayloadChannelRegistry::rebase_all) does so for every channel), and
//!   [`register_resuming`](PayloadChannelRegistry::register_resuming) keeps a known position.
//! * A frame that never comes is a typed [`ChannelGap`] in the delivery, never an eternal hold:
//!   under the registry's [`GapPolicy`] a frame `PENDING` or more ahead skips the window ahead
//!   (the default; [`WindowFull::Refuse`] refuses it as before) when the frames that arrived bear
//!   the hole out: frames held behind it and the new one less than `2 * PENDING` ahead, or a
//!   second far frame agreeing with one just refused. One frame alone, whatever its seq, never
//!   moves the channel far, so it never makes the in-sequence frames after it stale. With a
//!   deadline a frame
//!   that waited that long gives up the seqs before it. Time is the host's `now_ms`, passed to
//!   [`receive`](PayloadChannelRegistry::receive) and
//!   [`expire`](PayloadChannelRegistry::expire) (or [`expire_all`](PayloadChannelRegistry::expire_all));
//!   [`next_deadline`](PayloadChannelRegistry::next_deadline) says when to call it
//!   (docs/decisions/transport-runtime.md).
//!
//! # Guarantees
//!
//! - **Sans-IO**: no carrier, no clock (`now_ms` is passed in), no interior mutability, no
//!   `Send` bound.
//! - **Every frame is accounted for**: an unroutable frame is a typed [`ChannelRefusal`], a
//!   delivered frame that cannot be read a [`RefusedDelivery`], a missing one a typed
//!   [`ChannelGap`]; nothing is dropped silently and nothing is held forever.
//! - **Byte-exact codec**: [`encode_channel_frame_into`] writes what the reference writes, and the
//!   decoders refuse what it refuses (plus a non-UTF-8 name).
//!
//! # Example
//!
//! ```
//! // A channel host's imports name this one module (the family's vocabulary is re-exported).
//! use agent_interface::runtime::transport::channels::{
//!     ChannelEventFrame, ChannelFrame, ChannelName, Value, decode_channel_frame, decode_header,
//!     encode_channel_frame_into, is_channel_frame,
//! };
//!
//! let chat = ChannelName::new("chat").unwrap();
//! let frame = ChannelFrame::Event(ChannelEventFrame::new(chat, 7, "delta", Value::from(1)));
//! let mut bytes = Vec::new();
//! encode_channel_frame_into(&frame, &mut bytes);
//! assert!(is_channel_frame(&bytes));
//! let header = decode_header(&bytes).unwrap(); // the body is not looked at
//! assert_eq!((header.binary, header.channel, header.seq), (false, "chat", 7));
//! assert_eq!(decode_channel_frame(&bytes).unwrap(), frame);
//! ```

mod frame;
mod js_json;
mod lone_surrogates;
mod reassembler;
mod registry;

// The transport family's channel vocabulary and the JSON value of an event's payload: a
// channel host's imports name this one module; each item is documented where it is defined.
#[doc(no_inline)]
pub use crate::agent_core::Value;
#[doc(no_inline)]
pub use crate::transport::channels::{
    BinaryFrame, ChannelDescriptor, ChannelEventFrame, ChannelFrame, ChannelName,
    ChannelReceiveResult, InvalidChannelName, ProtocolErrorMessage,
};

/// The shared byte buffer frames are received in and binary payloads delivered as (the `bytes`
/// crate's, re-exported so a host needs no dependency of its own to name it).
pub use bytes::Bytes;
pub use frame::{
    CHANNEL_FRAME_MAGIC, CHANNEL_FRAME_VERSION, ChannelFrameError, ChannelFrameHeader,
    JsonBodyError, JsonBodyFault, decode_channel_frame, decode_event_body,
    decode_event_body_within, decode_header, encode_channel_frame, encode_channel_frame_into,
    is_channel_frame,
};
pub use reassembler::{
    ChannelReassembler, Reassembled, ReassemblyRefused, SequenceGap, SequenceRefusal, WindowFull,
};
pub use registry::{
    ChannelClosed, ChannelDelivery, ChannelGap, ChannelRefusal, ChannelRegisterError,
    ChannelResumePoint, ChannelSendError, DeliveredBody, DeliveredFrame, GapPolicy, NotDelivered,
    PayloadChannel, PayloadChannelRegistry, RefusedDelivery, UndeclaredFrame,
};
