//! The payload channel registry: declared channels, their outbound sequence, and the routing and
//! reassembly of inbound frames.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use bytes::{Buf as _, Bytes};

use crate::agent_core::{ReadLimits, Value};
use crate::transport::channels::{
    BinaryFrame, ChannelDescriptor, ChannelEventFrame, ChannelFrame, ChannelName,
    ChannelReceiveResult, ProtocolErrorMessage,
};

use super::frame::{
    ChannelFrameError, RawHeader, decode_event_body_within, encode_binary, encode_event,
    split_header,
};
use super::reassembler::{
    ChannelReassembler, Reassembled, SequenceGap, SequenceRefusal, WindowFull,
};

/// A handle on one registered channel (the Rust form of `IPayloadChannel`): the name and the
/// registration it was issued for. The registry's methods take it.
///
/// Each registration gets a serial never issued before by that registry, so once the channel
/// is closed a handle (or a clone of it) is refused as [`ChannelClosed`] even after another
/// channel is registered under the same name. A handle belongs to the registry that issued it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PayloadChannel {
    name: ChannelName,
    serial: u64,
}

impl PayloadChannel {
    /// The channel's name.
    #[must_use]
    pub fn name(&self) -> &ChannelName {
        &self.name
    }

    fn closed(&self) -> ChannelClosed {
        ChannelClosed {
            channel: self.name.clone(),
        }
    }
}

/// Where a registered channel's two sequence spaces start, for
/// [`PayloadChannelRegistry::register_resuming`]: a channel whose frames up to these seqs were
/// already exchanged (for example over an earlier carrier). The inbound side is anchored at
/// `next_receive`: a frame ahead of it is held. A channel that should take whatever seq comes
/// first is registered with [`PayloadChannelRegistry::register`] instead.
///
/// There is no `Default`: a default would anchor at seq 0, which is not what `register` does,
/// so the start at 0 is named, [`ZERO`](Self::ZERO) (docs/decisions/transport-runtime.md).
///
/// ```compile_fail
/// use agent_interface::runtime::transport::channels::ChannelResumePoint;
/// let start = ChannelResumePoint::default(); // no Default: say ZERO, or call `register`
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ChannelResumePoint {
    /// The seq the next sent frame carries.
    pub next_send: u32,
    /// The seq the next delivered inbound frame must carry.
    pub next_receive: u32,
}

impl ChannelResumePoint {
    /// Both sequences at seq 0, the inbound side anchored there: a channel resumed at its very
    /// start (its seq 0 expected, a frame ahead of it held), unlike a channel
    /// [`register`](PayloadChannelRegistry::register)ed afresh, which takes whatever seq comes
    /// first.
    pub const ZERO: Self = Self::new(0, 0);

    /// The point where the next sent frame carries `next_send` and the next delivered inbound
    /// frame must carry `next_receive`.
    #[must_use]
    pub const fn new(next_send: u32, next_receive: u32) -> Self {
        Self {
            next_send,
            next_receive,
        }
    }
}

/// What a [`PayloadChannelRegistry`] does about an inbound frame that never comes, for every
/// channel it holds. [`Default`] (and [`new`](Self::new)): a full window skips ahead, and there
/// is no deadline (docs/decisions/transport-runtime.md says why).
///
/// Sans-IO: the crate reads no clock. The host passes its own monotonic time in milliseconds
/// (`now_ms`) to [`receive`](PayloadChannelRegistry::receive) and
/// [`expire`](PayloadChannelRegistry::expire); a held frame records the time it arrived, and
/// [`next_deadline`](PayloadChannelRegistry::next_deadline) says when the host should call
/// `expire` next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub struct GapPolicy {
    /// How long a frame held ahead of a missing seq waits, in the host's milliseconds: once a
    /// frame has waited that long, the missing seqs before it are given up as a [`ChannelGap`]
    /// (at the next [`receive`](PayloadChannelRegistry::receive) or
    /// [`expire`](PayloadChannelRegistry::expire) on its channel). `None`: wait for ever (until
    /// the window is full).
    pub deadline_ms: Option<u64>,
    /// What a frame `PENDING` or more ahead of the expected seq does (under
    /// [`WindowFull::SkipAhead`], the default, it skips ahead only when the frames that arrived
    /// bear the hole out; one frame alone never moves a channel far).
    pub window_full: WindowFull,
}

impl GapPolicy {
    /// The default policy: a full window skips ahead, no deadline.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            deadline_ms: None,
            window_full: WindowFull::SkipAhead,
        }
    }

    /// This policy with frames waiting at most `deadline_ms` for a missing seq.
    #[must_use]
    pub const fn with_deadline_ms(mut self, deadline_ms: u64) -> Self {
        self.deadline_ms = Some(deadline_ms);
        self
    }

    /// This policy with `window_full` deciding what a frame beyond the window does.
    #[must_use]
    pub const fn with_window_full(mut self, window_full: WindowFull) -> Self {
        self.window_full = window_full;
        self
    }
}

/// Inbound seqs of one channel that never arrived and are no longer waited for (the window was
/// full, or a frame behind them waited past the [`GapPolicy`] deadline). An item of a
/// [`ChannelDelivery`] (as [`NotDelivered::Gap`]), in the place of the missing frames; from then
/// on a frame carrying one of these seqs is refused as given up
/// ([`SequenceRefusal::GivenUp`]; below the base once older than the gaps remembered).
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("Channel \"{channel}\": {missing_count} frame(s) from seq {first_missing} never arrived")]
pub struct ChannelGap {
    /// The channel.
    pub channel: ChannelName,
    /// The first missing seq.
    pub first_missing: u32,
    /// How many seqs are missing from `first_missing` on (at least 1).
    pub missing_count: u32,
}

/// An item of a [`ChannelDelivery`] that is not a frame: a frame whose body could not be handed
/// on, or seqs that never arrived. Either way the seqs are consumed and the channel moves on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum NotDelivered {
    /// A frame whose event body is malformed or undeclared.
    #[error(transparent)]
    Refused(#[from] RefusedDelivery),
    /// Seqs given up.
    #[error(transparent)]
    Gap(#[from] ChannelGap),
}

impl NotDelivered {
    /// The answer for the peer: `{ok: false, error}` with this outcome in words.
    #[must_use]
    pub fn to_receive_result(&self) -> ChannelReceiveResult {
        ChannelReceiveResult::Refused {
            error: self.to_string(),
        }
    }

    /// The answer in the TypeScript WebSocket server's form, `{type: "protocol_error", message}`,
    /// with the same words as [`to_receive_result`](Self::to_receive_result).
    #[must_use]
    pub fn to_protocol_error(&self) -> ProtocolErrorMessage {
        ProtocolErrorMessage::new(self.to_string())
    }
}

/// The refusal of an operation through a [`PayloadChannel`] handle whose channel was closed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("Channel \"{channel}\" is closed")]
pub struct ChannelClosed {
    /// The handle's channel name (possibly registered again since, by another handle).
    pub channel: ChannelName,
}

/// A frame its channel did not declare, outbound or inbound.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum UndeclaredFrame {
    /// An event name the channel does not declare.
    #[error("Channel \"{channel}\" did not declare event \"{event}\"")]
    Event {
        /// The channel.
        channel: ChannelName,
        /// The undeclared event name.
        event: String,
    },
    /// A binary frame on a channel that did not opt in to binary.
    #[error("Channel \"{channel}\" did not declare binary payload support")]
    Binary {
        /// The channel.
        channel: ChannelName,
    },
}

/// Why [`PayloadChannelRegistry::register`] refused a descriptor. Nothing was registered.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ChannelRegisterError {
    /// A channel of that name is registered (and not closed) on this registry.
    #[error("Channel \"{channel}\" is already registered on this transport")]
    AlreadyRegistered {
        /// The name.
        channel: ChannelName,
    },
    /// The descriptor declares the event name `""`, which a frame cannot carry (the decoder
    /// refuses an empty event name).
    #[error("Channel \"{channel}\" declares an empty event name, which no frame can carry")]
    EmptyEventName {
        /// The channel's name.
        channel: ChannelName,
    },
}

/// Why a send produced no frame. A refused send consumes no sequence number.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ChannelSendError {
    /// The handle's channel was closed.
    #[error(transparent)]
    Closed(#[from] ChannelClosed),
    /// The channel did not declare event, or did not opt in to binary.
    #[error(transparent)]
    Undeclared(#[from] UndeclaredFrame),
    /// The channel already sent seq `u32::MAX`; sequence numbers never wrap. Close it and
    /// register it again (its sequence then restarts at 0).
    #[error(
        "Channel \"{channel}\" has sent its last seq ({}); close it and register it again",
        u32::MAX
    )]
    SequenceExhausted {
        /// The channel.
        channel: ChannelName,
    },
}

/// Why an inbound frame was not routed: the stated error outcome for the peer (never a silent
/// drop). [`to_receive_result`](Self::to_receive_result) gives the `{ok: false, error}` answer.
/// Returned by [`PayloadChannelRegistry::receive`], nothing changed in the registry; carried by a
/// [`RefusedDelivery`], the frame's seq was consumed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ChannelRefusal {
    /// The bytes are not a well-formed frame.
    #[error(transparent)]
    Malformed(ChannelFrameError),
    /// No open channel has the frame's name.
    #[error("No channel registered for \"{channel}\"")]
    UnknownChannel {
        /// The frame's channel name.
        channel: ChannelName,
    },
    /// The channel did not declare the frame's event, or did not opt in to binary.
    #[error(transparent)]
    Undeclared(UndeclaredFrame),
    /// The frame's seq is stale (delivered, given up as a gap, or below the base), a duplicate,
    /// or beyond the reassembly window.
    #[error("Channel \"{channel}\": {refusal}")]
    Sequence {
        /// The channel.
        channel: ChannelName,
        /// What is wrong with the seq.
        refusal: SequenceRefusal,
    },
}

impl ChannelRefusal {
    /// The answer for the peer: `{ok: false, error}` with this refusal in words.
    #[must_use]
    pub fn to_receive_result(&self) -> ChannelReceiveResult {
        ChannelReceiveResult::Refused {
            error: self.to_string(),
        }
    }

    /// The answer in the TypeScript WebSocket server's form, `{type: "protocol_error", message}`,
    /// with the same words as [`to_receive_result`](Self::to_receive_result). A server sends it;
    /// a client does not (see [`ProtocolErrorMessage`]).
    #[must_use]
    pub fn to_protocol_error(&self) -> ProtocolErrorMessage {
        ProtocolErrorMessage::new(self.to_string())
    }
}

/// A frame whose event body could not be handed on when its turn came: its header was whole and
/// its seq accepted, so the seq is consumed and the channel moves on, but the body is malformed
/// or names an event the channel did not declare. An item of a [`ChannelDelivery`] (and of
/// [`PayloadChannelRegistry::close`]); [`to_receive_result`](Self::to_receive_result) is the
/// `{ok: false, error}` answer for the peer, with the same words as the refusal.
///
/// It names its channel, as a [`ChannelGap`] and a [`DeliveredFrame`] do, so a host can log it
/// without reading the frame's header again; its words (the refusal's, which the peer is
/// answered with) are unchanged by it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RefusedDelivery {
    /// The channel the frame travelled on.
    pub channel: ChannelName,
    /// The frame's seq (consumed).
    pub seq: u32,
    /// Why it was not delivered: [`ChannelRefusal::Malformed`] with a body error, or
    /// [`ChannelRefusal::Undeclared`] with an undeclared event.
    pub refusal: ChannelRefusal,
}

/// The refusal's words, as the peer is answered.
impl core::fmt::Display for RefusedDelivery {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(&self.refusal, f)
    }
}

/// Its source is the refusal's (the words are the refusal's already), so an error report that
/// walks the chain shows, say, why and where a body is not JSON
/// ([`JsonBodyError`](super::JsonBodyError)).
impl core::error::Error for RefusedDelivery {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        core::error::Error::source(&self.refusal)
    }
}

impl RefusedDelivery {
    /// The answer for the peer: `{ok: false, error}` with the refusal in words.
    #[must_use]
    pub fn to_receive_result(&self) -> ChannelReceiveResult {
        self.refusal.to_receive_result()
    }

    /// The answer in the TypeScript WebSocket server's form, `{type: "protocol_error", message}`.
    #[must_use]
    pub fn to_protocol_error(&self) -> ProtocolErrorMessage {
        self.refusal.to_protocol_error()
    }
}

/// What a delivered frame carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeliveredBody {
    /// A binary frame's payload: a slice of the buffer the carrier delivered, never copied.
    Binary(Bytes),
    /// An event frame: the declared event and its payload, parsed when the frame was delivered.
    Event {
        /// The event name, one the channel declares.
        event: String,
        /// The event's payload.
        payload: Value,
    },
}

/// One inbound frame delivered in sequence order. The channel name is borrowed from the
/// registry, never cloned per frame; [`into_frame`](Self::into_frame) gives the contract's
/// [`ChannelFrame`] when one is needed (for the `{ok: true, frame}` answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeliveredFrame<'a> {
    /// The channel the frame travelled on.
    pub channel: &'a ChannelName,
    /// The frame's seq.
    pub seq: u32,
    /// Its payload.
    pub body: DeliveredBody,
}

impl DeliveredFrame<'_> {
    /// The frame as the contract's [`ChannelFrame`]: the name cloned and a binary payload copied.
    #[must_use]
    pub fn into_frame(self) -> ChannelFrame {
        let channel = self.channel.clone();
        let seq = self.seq;
        match self.body {
            DeliveredBody::Binary(payload) => ChannelFrame::Binary(BinaryFrame {
                channel,
                seq,
                payload: payload.to_vec(),
            }),
            DeliveredBody::Event { event, payload } => ChannelFrame::Event(ChannelEventFrame {
                channel,
                seq,
                event,
                payload,
            }),
        }
    }
}

/// An inbound frame accepted by its header and held until its turn: its body is a slice of the
/// carrier's buffer, not yet looked at.
#[derive(Debug)]
struct Held {
    seq: u32,
    binary: bool,
    body: Bytes,
    /// The host's time when it arrived, for the gap deadline.
    arrived_ms: u64,
}

/// Hands on a held frame whose turn came: a binary payload as it is, an event body parsed and
/// checked against the descriptor.
#[inline]
fn deliver<'a>(
    descriptor: &'a ChannelDescriptor,
    limits: &ReadLimits,
    held: Held,
) -> Result<DeliveredFrame<'a>, RefusedDelivery> {
    let Held {
        seq, binary, body, ..
    } = held;
    if binary {
        let channel = &descriptor.name;
        let body = DeliveredBody::Binary(body);
        return Ok(DeliveredFrame { channel, seq, body });
    }
    deliver_event(descriptor, limits, seq, &body)
}

/// [`deliver`] of an event frame: its body parsed, its event checked against the descriptor.
#[inline(never)]
fn deliver_event<'a>(
    descriptor: &'a ChannelDescriptor,
    limits: &ReadLimits,
    seq: u32,
    body: &[u8],
) -> Result<DeliveredFrame<'a>, RefusedDelivery> {
    let channel = &descriptor.name;
    let read = decode_event_body_within(body, limits)
        .map_err(ChannelRefusal::Malformed)
        .and_then(|(event, payload)| match admit(descriptor, Some(&event)) {
            Ok(()) => Ok(DeliveredBody::Event { event, payload }),
            Err(error) => Err(ChannelRefusal::Undeclared(error)),
        });
    match read {
        Ok(body) => Ok(DeliveredFrame { channel, seq, body }),
        Err(refusal) => Err(refused(channel, seq, refusal)),
    }
}

/// The refused delivery of `channel`'s frame `seq`: one place that clones the name, off the
/// delivering path.
#[cold]
#[inline(never)]
fn refused(channel: &ChannelName, seq: u32, refusal: ChannelRefusal) -> RefusedDelivery {
    RefusedDelivery {
        channel: channel.clone(),
        seq,
        refusal,
    }
}

/// The frames of one channel that are deliverable now, in sequence order, each taken as it is
/// iterated (its seq consumed then): a [`DeliveredFrame`], or [`NotDelivered`]: a
/// [`RefusedDelivery`] for an event body that could not be handed on, or a [`ChannelGap`] in the
/// place of seqs given up. Every seq comes out once, as one of these, in order. Allocates nothing
/// itself; an event's parse and a gap's channel name do.
///
/// Items not taken (the delivery dropped early) stay ready, first in line for the channel's
/// next delivery ([`PayloadChannelRegistry::ready`], [`expire`](PayloadChannelRegistry::expire),
/// or the next accepted [`receive`](PayloadChannelRegistry::receive) on it);
/// [`close`](PayloadChannelRegistry::close) and [`rebase`](PayloadChannelRegistry::rebase) hand
/// back the frames among them (a gap not taken is then not reported).
#[derive(Debug)]
#[must_use = "frames are handed on only as the delivery is iterated"]
pub struct ChannelDelivery<'a, const PENDING: usize> {
    descriptor: &'a ChannelDescriptor,
    limits: ReadLimits,
    inbound: &'a mut ChannelReassembler<Held, PENDING>,
}

impl<'a, const PENDING: usize> Iterator for ChannelDelivery<'a, PENDING> {
    type Item = Result<DeliveredFrame<'a>, NotDelivered>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        // A binary frame, the hot path, is built in place: no `Result` of `deliver` to move
        // through and convert.
        Some(match self.inbound.pop()? {
            Reassembled::Item(Held {
                seq,
                binary: true,
                body,
                ..
            }) => {
                let channel = &self.descriptor.name;
                let body = DeliveredBody::Binary(body);
                Ok(DeliveredFrame { channel, seq, body })
            }
            Reassembled::Item(Held { seq, body, .. }) => {
                deliver_event(self.descriptor, &self.limits, seq, &body).map_err(NotDelivered::from)
            }
            Reassembled::Gap(gap) => Err(channel_gap(self.descriptor, gap)),
        })
    }
}

/// The typed gap of `descriptor`'s channel for seqs given up.
#[cold]
fn channel_gap(descriptor: &ChannelDescriptor, gap: SequenceGap) -> NotDelivered {
    NotDelivered::Gap(ChannelGap {
        channel: descriptor.name.clone(),
        first_missing: gap.first,
        missing_count: gap.count,
    })
}

/// The bytes a channel is looked up by: its name's UTF-8 bytes, so a frame header's name is
/// looked up without a copy or a UTF-8 check (the order of the bytes is the order of the text).
#[inline]
fn key(name: &ChannelName) -> &[u8] {
    name.as_str().as_bytes()
}

/// One open channel.
#[derive(Debug)]
struct OpenChannel<const N: usize> {
    serial: u64,
    descriptor: ChannelDescriptor,
    /// The seq of the next sent frame; `2^32` once `u32::MAX` was sent.
    next_send: u64,
    inbound: ChannelReassembler<Held, N>,
}

impl<const N: usize> OpenChannel<N> {
    /// A handle on it (a new clone of the one its registration issued).
    fn handle(&self) -> PayloadChannel {
        PayloadChannel {
            name: self.descriptor.name.clone(),
            serial: self.serial,
        }
    }

    fn delivery(&mut self, limits: ReadLimits) -> ChannelDelivery<'_, N> {
        ChannelDelivery {
            descriptor: &self.descriptor,
            limits,
            inbound: &mut self.inbound,
        }
    }

    /// When the oldest frame waiting behind a missing seq has waited out `policy`'s deadline.
    fn deadline(&self, policy: GapPolicy) -> Option<u64> {
        let wait = policy.deadline_ms?;
        let waiting = self.inbound.waiting().map(|(_, held)| held.arrived_ms);
        waiting.min().map(|arrived| arrived.saturating_add(wait))
    }

    /// Gives up the missing seqs before every frame that has waited out `policy`'s deadline at
    /// `now_ms`: they come out of the next delivery as gaps, followed by the frames they blocked.
    fn expire(&mut self, policy: GapPolicy, now_ms: u64) {
        let Some(wait) = policy.deadline_ms else {
            return;
        };
        let due = |(_, held): &(u32, &Held)| held.arrived_ms.saturating_add(wait) <= now_ms;
        if let Some((seq, _)) = self.inbound.waiting().filter(due).last() {
            self.inbound.skip_to(seq);
        }
    }

    /// The frames it held, handed on as a delivery would (never delivered, not dropped
    /// silently); its inbound side is left as `inbound`.
    fn hand_back(
        &mut self,
        limits: &ReadLimits,
        inbound: ChannelReassembler<Held, N>,
    ) -> Vec<Result<ChannelFrame, RefusedDelivery>> {
        let held = core::mem::replace(&mut self.inbound, inbound).into_held();
        let descriptor = &self.descriptor;
        held.into_iter()
            .map(|held| deliver(descriptor, limits, held).map(DeliveredFrame::into_frame))
            .collect()
    }
}

/// Refuses a frame `descriptor` does not declare: `event` is the event name, `None` for binary.
#[inline]
fn admit(descriptor: &ChannelDescriptor, event: Option<&str>) -> Result<(), UndeclaredFrame> {
    match event {
        Some(event) if !descriptor.declares(event) => Err(UndeclaredFrame::Event {
            channel: descriptor.name.clone(),
            event: String::from(event),
        }),
        None if !descriptor.accepts_binary() => Err(UndeclaredFrame::Binary {
            channel: descriptor.name.clone(),
        }),
        _ => Ok(()),
    }
}

/// The payload channels of one carrier (the Rust form of `IPayloadChannelHost`), sans-IO:
/// sending writes the frame's bytes for the host to put on its carrier, and
/// [`receive`](Self::receive) takes the buffer of one inbound frame and hands on the frames that
/// are now deliverable, in sequence order, or a typed [`ChannelRefusal`] to answer the peer with.
///
/// Each channel has one outbound sequence shared by its event and binary frames (0, 1, 2, …;
/// a refused send consumes none; after `u32::MAX` sends are refused, never wrapped) and one
/// inbound [`ChannelReassembler`] holding at most `PENDING` frames that arrived ahead of a gap.
/// Closing a channel stops its delivery, frees its name and hands back the frames it held.
///
/// A channel [`register`](Self::register)ed afresh takes its first inbound frame, whatever its
/// seq, as the start of the sequence (a peer may number frames per carrier and be well under way);
/// [`register_resuming`](Self::register_resuming) expects a known seq, and
/// [`rebase`](Self::rebase) makes an open channel take the next frame as the start again (after
/// the carrier reconnected).
///
/// A missing frame never stalls a channel for ever: under the registry's [`GapPolicy`], a frame
/// `PENDING` or more ahead skips the window ahead (when the frames that arrived bear the hole
/// out: one frame alone never moves a channel far), and frames waiting past the deadline give up
/// the seqs before them; those seqs come out of the delivery as a [`ChannelGap`], in their
/// place. Every inbound seq is thus handed on at most once, as a frame, a refused delivery or
/// part of a gap, in strictly increasing order with none left out.
#[derive(Debug)]
pub struct PayloadChannelRegistry<const PENDING: usize> {
    /// The open channels, sorted by [`key`]: found by a binary search, or at once when the
    /// channel is the one at a hint.
    channels: Vec<OpenChannel<PENDING>>,
    /// Where the last routed inbound frame's channel was (a guess, checked before use: the
    /// frames of a burst share a channel).
    routed: usize,
    /// Where the last handle's channel was (a guess, checked by serial before use).
    handled: usize,
    /// The serial of the next registration.
    next_serial: u64,
    gaps: GapPolicy,
    limits: ReadLimits,
}

impl<const PENDING: usize> Default for PayloadChannelRegistry<PENDING> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const PENDING: usize> PayloadChannelRegistry<PENDING> {
    /// A registry with no channel and the default [`GapPolicy`].
    #[must_use]
    pub const fn new() -> Self {
        Self {
            channels: Vec::new(),
            routed: 0,
            handled: 0,
            next_serial: 0,
            gaps: GapPolicy::new(),
            limits: ReadLimits::DEFAULT,
        }
    }

    /// This registry reading every event body within `limits` (its nesting bound,
    /// [`ReadLimits::depth`]); [`ReadLimits::DEFAULT`] otherwise. A body nested deeper is
    /// refused as [`ChannelRefusal::Malformed`] with
    /// [`TooDeep`](super::ChannelFrameError::TooDeep), in its seq's place.
    #[must_use]
    pub const fn with_read_limits(mut self, limits: ReadLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The [`ReadLimits`] event bodies are read within.
    #[must_use]
    pub const fn read_limits(&self) -> ReadLimits {
        self.limits
    }

    /// This registry with `policy` deciding what every channel does about missing frames.
    #[must_use]
    pub fn with_gap_policy(mut self, policy: GapPolicy) -> Self {
        self.gaps = policy;
        self
    }

    /// The [`GapPolicy`] the registry applies.
    #[must_use]
    pub const fn gap_policy(&self) -> GapPolicy {
        self.gaps
    }

    /// Replaces the [`GapPolicy`]; frames already held keep the time they arrived, so a new
    /// deadline counts from then.
    pub fn set_gap_policy(&mut self, policy: GapPolicy) {
        self.gaps = policy;
    }

    /// Registers a new channel: its outbound sequence starts at 0, and its inbound side is
    /// unanchored: the first frame received on it, whatever its seq, is delivered at once and
    /// sets where the sequence starts.
    ///
    /// # Errors
    /// See [`register_resuming`](Self::register_resuming).
    pub fn register(
        &mut self,
        descriptor: ChannelDescriptor,
    ) -> Result<PayloadChannel, ChannelRegisterError> {
        self.insert(descriptor, 0, ChannelReassembler::unanchored())
    }

    /// Registers a channel whose sequences start at `resume`: its inbound side expects
    /// `resume.next_receive` and holds a frame ahead of it.
    ///
    /// # Errors
    /// [`ChannelRegisterError`]: the name is taken by an open channel, or the descriptor
    /// declares an empty event name. Nothing is registered.
    pub fn register_resuming(
        &mut self,
        descriptor: ChannelDescriptor,
        resume: ChannelResumePoint,
    ) -> Result<PayloadChannel, ChannelRegisterError> {
        let inbound = ChannelReassembler::starting_at(resume.next_receive);
        self.insert(descriptor, resume.next_send, inbound)
    }

    fn insert(
        &mut self,
        descriptor: ChannelDescriptor,
        next_send: u32,
        inbound: ChannelReassembler<Held, PENDING>,
    ) -> Result<PayloadChannel, ChannelRegisterError> {
        let name = descriptor.name.clone();
        let Err(at) = self.search(key(&name)) else {
            return Err(ChannelRegisterError::AlreadyRegistered { channel: name });
        };
        if descriptor.declares("") {
            return Err(ChannelRegisterError::EmptyEventName { channel: name });
        }
        let serial = self.next_serial;
        // 2^64 registrations (one a nanosecond for 584 years) cannot happen, so serials are
        // never reused in practice and no refusal is spent on it.
        self.next_serial = serial.wrapping_add(1);
        let open = OpenChannel {
            serial,
            descriptor,
            next_send: u64::from(next_send),
            inbound,
        };
        self.channels.insert(at, open);
        Ok(PayloadChannel { name, serial })
    }

    /// Where the channel named `name` is among the open ones, or where it would go.
    fn search(&self, name: &[u8]) -> Result<usize, usize> {
        self.channels
            .binary_search_by(|open| key(&open.descriptor.name).cmp(name))
    }

    /// Where the open channel named `name` is: at the `hint` (one comparison), or found by a
    /// binary search.
    #[inline]
    fn find(&self, name: &[u8], hint: usize) -> Option<usize> {
        let at_hint = self.channels.get(hint);
        if at_hint.is_some_and(|open| key(&open.descriptor.name) == name) {
            return Some(hint);
        }
        self.search(name).ok()
    }

    /// Where the handle's channel is, if it is open: at the last handle's place (one serial
    /// comparison), or found by name. A registration's serial is never issued again, so a
    /// serial that matches is the handle's registration.
    #[inline]
    fn index(&self, channel: &PayloadChannel) -> Result<usize, ChannelClosed> {
        let hint = self.handled;
        if self
            .channels
            .get(hint)
            .is_some_and(|open| open.serial == channel.serial)
        {
            return Ok(hint);
        }
        self.search(key(&channel.name))
            .ok()
            .filter(|at| self.channels[*at].serial == channel.serial)
            .ok_or_else(|| channel.closed())
    }

    #[inline]
    fn open(&self, channel: &PayloadChannel) -> Result<&OpenChannel<PENDING>, ChannelClosed> {
        let at = self.index(channel)?;
        Ok(&self.channels[at])
    }

    #[inline]
    fn open_mut(
        &mut self,
        channel: &PayloadChannel,
    ) -> Result<&mut OpenChannel<PENDING>, ChannelClosed> {
        let at = self.index(channel)?;
        self.handled = at;
        Ok(&mut self.channels[at])
    }

    /// The descriptor the channel was registered with.
    ///
    /// # Errors
    /// [`ChannelClosed`] when the handle's channel was closed.
    pub fn descriptor(
        &self,
        channel: &PayloadChannel,
    ) -> Result<&ChannelDescriptor, ChannelClosed> {
        self.open(channel).map(|open| &open.descriptor)
    }

    /// How many inbound frames the channel holds (ahead of a gap in its sequence, or ready but
    /// not taken); never more than `PENDING`.
    ///
    /// # Errors
    /// [`ChannelClosed`] when the handle's channel was closed.
    pub fn held(&self, channel: &PayloadChannel) -> Result<usize, ChannelClosed> {
        self.open(channel).map(|open| open.inbound.len())
    }

    /// Takes the next outbound seq of the channel once `event` (`None`: binary) is admitted,
    /// and encodes the frame with it.
    #[inline]
    fn send(
        &mut self,
        channel: &PayloadChannel,
        event: Option<&str>,
        encode: impl FnOnce(u32),
    ) -> Result<u32, ChannelSendError> {
        let open = self.open_mut(channel)?;
        admit(&open.descriptor, event)?;
        let seq =
            u32::try_from(open.next_send).map_err(|_| ChannelSendError::SequenceExhausted {
                channel: channel.name.clone(),
            })?;
        open.next_send += 1;
        encode(seq);
        Ok(seq)
    }

    /// The bytes of an event frame carrying `payload`, with the channel's next seq; see
    /// [`send_event_into`](Self::send_event_into).
    ///
    /// # Errors
    /// As [`send_event_into`](Self::send_event_into).
    pub fn send_event(
        &mut self,
        channel: &PayloadChannel,
        event: &str,
        payload: &Value,
    ) -> Result<Vec<u8>, ChannelSendError> {
        let mut out = Vec::new();
        self.send_event_into(channel, event, payload, &mut out)?;
        Ok(out)
    }

    /// Appends the bytes of an event frame carrying `payload` to `out`, with the channel's next
    /// seq, and returns that seq.
    ///
    /// # Errors
    /// [`ChannelSendError`]: the channel was closed, did not declare `event`, or has sent its
    /// last seq. No seq is consumed and `out` is untouched.
    pub fn send_event_into(
        &mut self,
        channel: &PayloadChannel,
        event: &str,
        payload: &Value,
        out: &mut Vec<u8>,
    ) -> Result<u32, ChannelSendError> {
        self.send(channel, Some(event), |seq| {
            encode_event(&channel.name, seq, event, payload, out);
        })
    }

    /// The bytes of a binary frame carrying `payload`, with the channel's next seq; see
    /// [`send_binary_into`](Self::send_binary_into).
    ///
    /// # Errors
    /// As [`send_binary_into`](Self::send_binary_into).
    pub fn send_binary(
        &mut self,
        channel: &PayloadChannel,
        payload: &[u8],
    ) -> Result<Vec<u8>, ChannelSendError> {
        let mut out = Vec::new();
        self.send_binary_into(channel, payload, &mut out)?;
        Ok(out)
    }

    /// Appends the bytes of a binary frame carrying `payload` (never inspected) to `out`, with
    /// the channel's next seq, and returns that seq. The payload is copied once, straight into
    /// `out`; nothing is allocated when `out` has room.
    ///
    /// # Errors
    /// [`ChannelSendError`]: the channel was closed, did not opt in to binary, or has sent its
    /// last seq. No seq is consumed and `out` is untouched.
    pub fn send_binary_into(
        &mut self,
        channel: &PayloadChannel,
        payload: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<u32, ChannelSendError> {
        self.send(channel, None, |seq| {
            encode_binary(&channel.name, seq, payload, out);
        })
    }

    /// Routes one inbound frame, given as the buffer the carrier delivered (a `Vec<u8>` or a
    /// [`Bytes`] converts without copy), at the host's time `now_ms` (milliseconds on any
    /// monotonic clock of the host's; only differences matter, and only with a
    /// [`GapPolicy`] deadline). Reads its header only, then hands on the frames of its channel
    /// that are now deliverable, in sequence order: none when this frame waits for an earlier
    /// one, this frame and every held frame it unblocked otherwise.
    ///
    /// On an unanchored channel (just [`register`](Self::register)ed, or
    /// [`rebase`](Self::rebase)d) the frame is delivered at once whatever its seq, and the
    /// channel expects the next seq from then on. Seqs given up under the [`GapPolicy`] (this
    /// frame `PENDING` or more ahead, or frames that waited past the deadline at `now_ms`) come
    /// first, in their place, as a [`ChannelGap`].
    ///
    /// The header decides routing: the frame's body is not looked at before it is delivered. A
    /// held frame keeps the carrier's buffer (no copy), and a delivered binary payload is a slice
    /// of it. An event body is parsed when its frame is delivered; a malformed body or an
    /// undeclared event is then a [`RefusedDelivery`] in the delivery, its seq consumed, so the
    /// channel never stalls on it.
    ///
    /// # Errors
    /// A [`ChannelRefusal`], checked in this order: malformed header, unknown (or closed)
    /// channel, binary on a channel that did not opt in, stale (delivered, given up as a gap, or
    /// below the base; see [`SequenceRefusal`]), duplicate, or beyond the window (under
    /// [`WindowFull::Refuse`]; under [`WindowFull::SkipAhead`] when no skip is borne out; or when
    /// `PENDING` frames are held already). Nothing changes (but a far seq refused under
    /// `SkipAhead` is remembered, for a skip ahead the next far frame may agree with).
    pub fn receive(
        &mut self,
        frame: impl Into<Bytes>,
        now_ms: u64,
    ) -> Result<ChannelDelivery<'_, PENDING>, ChannelRefusal> {
        let (gaps, limits) = (self.gaps, self.limits);
        let mut frame: Bytes = frame.into();
        let header = split_header(&frame).map_err(ChannelRefusal::Malformed)?;
        // A name found among the channels' is UTF-8; only an unknown one is checked.
        let Some(at) = self.find(header.name, self.routed) else {
            let channel = header.channel().map_err(ChannelRefusal::Malformed)?;
            // A header's name is 1..=255 bytes by construction of the length byte.
            let channel = ChannelName::new(channel)
                .map_err(|_| ChannelRefusal::Malformed(ChannelFrameError::EmptyChannelName))?;
            return Err(ChannelRefusal::UnknownChannel { channel });
        };
        self.routed = at;
        let open = &mut self.channels[at];
        let RawHeader {
            binary,
            seq,
            body_offset,
            ..
        } = header;
        if binary {
            admit(&open.descriptor, None).map_err(ChannelRefusal::Undeclared)?;
        }
        frame.advance(body_offset);
        let held = Held {
            seq,
            binary,
            body: frame,
            arrived_ms: now_ms,
        };
        open.inbound
            .push_with(seq, held, gaps.window_full)
            .map_err(|refused| ChannelRefusal::Sequence {
                channel: open.descriptor.name.clone(),
                refusal: refused.refusal,
            })?;
        open.expire(gaps, now_ms);
        Ok(open.delivery(limits))
    }

    /// Gives up, on the channel, the missing seqs before every frame that has waited out the
    /// [`GapPolicy`] deadline at `now_ms`, and hands on what is deliverable then: the gaps in
    /// their place ([`ChannelGap`]), the frames they unblocked, and any frame ready but not
    /// taken. Empty when nothing is due (always, without a deadline). The host calls it on its
    /// timer, at [`deadline`](Self::deadline) or [`next_deadline`](Self::next_deadline).
    ///
    /// # Errors
    /// [`ChannelClosed`] when the handle's channel was closed.
    pub fn expire(
        &mut self,
        channel: &PayloadChannel,
        now_ms: u64,
    ) -> Result<ChannelDelivery<'_, PENDING>, ChannelClosed> {
        let (gaps, limits) = (self.gaps, self.limits);
        let open = self.open_mut(channel)?;
        open.expire(gaps, now_ms);
        Ok(open.delivery(limits))
    }

    /// When the channel's oldest frame waiting behind a missing seq reaches the
    /// [`GapPolicy`] deadline, in the host's milliseconds: the time to call
    /// [`expire`](Self::expire) on it. `None` when no frame waits or there is no deadline.
    ///
    /// # Errors
    /// [`ChannelClosed`] when the handle's channel was closed.
    pub fn deadline(&self, channel: &PayloadChannel) -> Result<Option<u64>, ChannelClosed> {
        self.open(channel).map(|open| open.deadline(self.gaps))
    }

    /// The earliest [`deadline`](Self::deadline) of all open channels: when the host's timer
    /// should next fire. `None` when no channel has one.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        let gaps = self.gaps;
        self.channels
            .iter()
            .filter_map(|open| open.deadline(gaps))
            .min()
    }

    /// Handles on the open channels whose deadline has come at `now_ms`: the ones to call
    /// [`expire`](Self::expire) on ([`expire_all`](Self::expire_all) does both at once).
    pub fn expired(&self, now_ms: u64) -> impl Iterator<Item = PayloadChannel> + '_ {
        let gaps = self.gaps;
        self.channels.iter().filter_map(move |open| {
            let due = open
                .deadline(gaps)
                .is_some_and(|deadline| deadline <= now_ms);
            due.then(|| open.handle())
        })
    }

    /// [`expire`](Self::expire) on every open channel at `now_ms`: the call for the host's
    /// timer, at [`next_deadline`](Self::next_deadline), without keeping a handle on each
    /// channel. The deadline is applied to every channel at once, here; then each channel with
    /// something to hand on (gaps given up now, the frames they unblocked, or frames ready but
    /// not taken earlier) comes out with its handle and its [`ChannelDelivery`], in the order of
    /// the channels' names. A channel with nothing to hand on is not listed.
    ///
    /// Never dropped silently: what is not taken (an item of a delivery, or a whole channel
    /// when the iterator is dropped early) stays ready, first in line for that channel's next
    /// delivery ([`ready`](Self::ready), [`expire`](Self::expire), the next `expire_all`, or the
    /// next accepted [`receive`](Self::receive) on it).
    #[must_use = "frames are handed on only as the deliveries are iterated"]
    pub fn expire_all(
        &mut self,
        now_ms: u64,
    ) -> impl Iterator<Item = (PayloadChannel, ChannelDelivery<'_, PENDING>)> + '_ {
        let (gaps, limits) = (self.gaps, self.limits);
        for open in &mut self.channels {
            open.expire(gaps, now_ms);
        }
        self.channels
            .iter_mut()
            .filter(|open| open.inbound.is_ready())
            .map(move |open| (open.handle(), open.delivery(limits)))
    }

    /// Tells the channel its carrier reconnected: its inbound side becomes unanchored, so the
    /// next frame received on it is delivered whatever its seq and sets where the sequence
    /// starts again (the peer may have gone on numbering while no carrier was up). Its outbound
    /// sequence goes on. Returns the frames it held, as [`close`](Self::close) does: never
    /// delivered, not dropped silently. [`rebase_all`](Self::rebase_all) does this for every
    /// channel, as a reconnect needs.
    ///
    /// # Errors
    /// [`ChannelClosed`] when the handle's channel was closed.
    pub fn rebase(
        &mut self,
        channel: &PayloadChannel,
    ) -> Result<Vec<Result<ChannelFrame, RefusedDelivery>>, ChannelClosed> {
        let limits = self.limits;
        let open = self.open_mut(channel)?;
        Ok(open.hand_back(&limits, ChannelReassembler::unanchored()))
    }

    /// [`rebase`](Self::rebase) on every open channel: the call for when the carrier
    /// reconnected, before the first frame of the new connection is received. The registry
    /// serves one carrier, so a reconnect concerns all its channels, and the host need not keep
    /// a handle on each. Every channel's inbound side becomes unanchored; outbound sequences go
    /// on.
    ///
    /// Returns, for each channel that held frames, its handle and the frames it held, as
    /// `rebase` hands them back (never delivered, not dropped silently; an event body that
    /// cannot be handed on as a [`RefusedDelivery`]), in the order of the channels' names. A
    /// channel that held nothing is rebased too, but not listed.
    pub fn rebase_all(
        &mut self,
    ) -> Vec<(PayloadChannel, Vec<Result<ChannelFrame, RefusedDelivery>>)> {
        let limits = self.limits;
        self.channels
            .iter_mut()
            .filter_map(|open| {
                let held = open.hand_back(&limits, ChannelReassembler::unanchored());
                (!held.is_empty()).then(|| (open.handle(), held))
            })
            .collect()
    }

    /// The frames of the channel that are ready but were not taken from an earlier
    /// [`ChannelDelivery`] (dropped before its end), with any [`ChannelGap`] among them, in
    /// order; empty otherwise. Applies no deadline (see [`expire`](Self::expire)).
    ///
    /// # Errors
    /// [`ChannelClosed`] when the handle's channel was closed.
    pub fn ready(
        &mut self,
        channel: &PayloadChannel,
    ) -> Result<ChannelDelivery<'_, PENDING>, ChannelClosed> {
        let limits = self.limits;
        self.open_mut(channel).map(|open| open.delivery(limits))
    }

    /// Closes the channel: its name is free to register again, its frames are no longer routed,
    /// and every handle on it is refused from now on. Returns the inbound frames it held (ahead
    /// of a gap, or ready but not taken), in sequence order, as a delivery would have handed
    /// them on (an event body that cannot be, as a [`RefusedDelivery`]): never delivered, not
    /// dropped silently.
    ///
    /// # Errors
    /// [`ChannelClosed`] when the handle's channel was already closed; a channel registered
    /// since under the same name is left untouched.
    pub fn close(
        &mut self,
        channel: PayloadChannel,
    ) -> Result<Vec<Result<ChannelFrame, RefusedDelivery>>, ChannelClosed> {
        let at = self.index(&channel)?;
        let mut open = self.channels.remove(at);
        Ok(open.hand_back(&self.limits, ChannelReassembler::unanchored()))
    }
}
