//! The payload channel registry: declared channels, their outbound sequence, and the routing and
//! reassembly of inbound frames.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::agent_core::Value;
use crate::transport::{ChannelDescriptor, ChannelFrame, ChannelName, ChannelReceiveResult};

use super::frame::{ChannelFrameError, decode_channel_frame, encode_binary, encode_event};
use super::reassembler::{ChannelReassembler, SequenceRefusal};

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

/// Where a registered channel's two sequence spaces start. [`Default`] is a new channel: both
/// at 0. Anything else resumes a channel whose frames up to these seqs were already exchanged
/// (for example over an earlier carrier).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ChannelResumePoint {
    /// The seq the next sent frame carries.
    pub next_send: u32,
    /// The seq the next delivered inbound frame must carry.
    pub next_receive: u32,
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
/// Nothing changed in the registry.
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
    /// The frame's seq is stale, a duplicate, or beyond the reassembly window.
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
}

/// One open channel.
#[derive(Debug)]
struct OpenChannel<const N: usize> {
    serial: u64,
    descriptor: ChannelDescriptor,
    /// The seq of the next sent frame; `2^32` once `u32::MAX` was sent.
    next_send: u64,
    inbound: ChannelReassembler<ChannelFrame, N>,
}

/// Refuses a frame `descriptor` does not declare: `event` is the event name, `None` for binary.
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
/// sending returns the frame's bytes for the host to put on its carrier, and
/// [`receive`](Self::receive) takes the bytes of one inbound frame and returns the frames that
/// are now deliverable, in sequence order, or a typed [`ChannelRefusal`] to answer the peer with.
///
/// Each channel has one outbound sequence shared by its event and binary frames (0, 1, 2, …;
/// a refused send consumes none; after `u32::MAX` sends are refused, never wrapped) and one
/// inbound [`ChannelReassembler`] holding at most `PENDING` frames that arrived ahead of a gap.
/// Closing a channel stops its delivery, frees its name and hands back the frames it held.
#[derive(Debug)]
pub struct PayloadChannelRegistry<const PENDING: usize> {
    channels: BTreeMap<ChannelName, OpenChannel<PENDING>>,
    /// The serial of the next registration.
    next_serial: u64,
}

impl<const PENDING: usize> Default for PayloadChannelRegistry<PENDING> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const PENDING: usize> PayloadChannelRegistry<PENDING> {
    /// A registry with no channel.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            channels: BTreeMap::new(),
            next_serial: 0,
        }
    }

    /// Registers a new channel: both of its sequences start at 0.
    ///
    /// # Errors
    /// See [`register_resuming`](Self::register_resuming).
    pub fn register(
        &mut self,
        descriptor: ChannelDescriptor,
    ) -> Result<PayloadChannel, ChannelRegisterError> {
        self.register_resuming(descriptor, ChannelResumePoint::default())
    }

    /// Registers a channel whose sequences start at `resume`.
    ///
    /// # Errors
    /// [`ChannelRegisterError`]: the name is taken by an open channel, or the descriptor
    /// declares an empty event name. Nothing is registered.
    pub fn register_resuming(
        &mut self,
        descriptor: ChannelDescriptor,
        resume: ChannelResumePoint,
    ) -> Result<PayloadChannel, ChannelRegisterError> {
        let name = descriptor.name.clone();
        if self.channels.contains_key(&name) {
            return Err(ChannelRegisterError::AlreadyRegistered { channel: name });
        }
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
            next_send: u64::from(resume.next_send),
            inbound: ChannelReassembler::starting_at(resume.next_receive),
        };
        self.channels.insert(name.clone(), open);
        Ok(PayloadChannel { name, serial })
    }

    fn open(&self, channel: &PayloadChannel) -> Result<&OpenChannel<PENDING>, ChannelClosed> {
        let open = self.channels.get(&channel.name);
        open.filter(|open| open.serial == channel.serial)
            .ok_or_else(|| channel.closed())
    }

    fn open_mut(
        &mut self,
        channel: &PayloadChannel,
    ) -> Result<&mut OpenChannel<PENDING>, ChannelClosed> {
        let open = self.channels.get_mut(&channel.name);
        open.filter(|open| open.serial == channel.serial)
            .ok_or_else(|| channel.closed())
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

    /// How many inbound frames the channel holds ahead of a gap in its sequence.
    ///
    /// # Errors
    /// [`ChannelClosed`] when the handle's channel was closed.
    pub fn held(&self, channel: &PayloadChannel) -> Result<usize, ChannelClosed> {
        self.open(channel).map(|open| open.inbound.len())
    }

    /// Takes the next outbound seq of the channel once `event` (`None`: binary) is admitted,
    /// and encodes the frame with it.
    fn send(
        &mut self,
        channel: &PayloadChannel,
        event: Option<&str>,
        encode: impl FnOnce(u32) -> Vec<u8>,
    ) -> Result<Vec<u8>, ChannelSendError> {
        let open = self.open_mut(channel)?;
        admit(&open.descriptor, event)?;
        let seq =
            u32::try_from(open.next_send).map_err(|_| ChannelSendError::SequenceExhausted {
                channel: channel.name.clone(),
            })?;
        open.next_send += 1;
        Ok(encode(seq))
    }

    /// The bytes of an event frame carrying `payload`, with the channel's next seq.
    ///
    /// # Errors
    /// [`ChannelSendError`]: the channel was closed, did not declare `event`, or has sent its
    /// last seq. No seq is consumed.
    pub fn send_event(
        &mut self,
        channel: &PayloadChannel,
        event: &str,
        payload: &Value,
    ) -> Result<Vec<u8>, ChannelSendError> {
        self.send(channel, Some(event), |seq| {
            encode_event(&channel.name, seq, event, payload)
        })
    }

    /// The bytes of a binary frame carrying `payload` (never inspected), with the channel's next
    /// seq.
    ///
    /// # Errors
    /// [`ChannelSendError`]: the channel was closed, did not opt in to binary, or has sent its
    /// last seq. No seq is consumed.
    pub fn send_binary(
        &mut self,
        channel: &PayloadChannel,
        payload: &[u8],
    ) -> Result<Vec<u8>, ChannelSendError> {
        self.send(channel, None, |seq| {
            encode_binary(&channel.name, seq, payload)
        })
    }

    /// Routes the bytes of one inbound frame. Returns the frames of its channel that are now
    /// deliverable, in sequence order: empty when this frame waits for an earlier one, this
    /// frame and every held frame it unblocked otherwise.
    ///
    /// # Errors
    /// A [`ChannelRefusal`], checked in this order: malformed bytes, unknown (or closed)
    /// channel, undeclared event or binary, stale, duplicate or beyond-window seq. Nothing
    /// changes.
    pub fn receive(&mut self, bytes: &[u8]) -> Result<Vec<ChannelFrame>, ChannelRefusal> {
        let frame = decode_channel_frame(bytes).map_err(ChannelRefusal::Malformed)?;
        let Some(open) = self.channels.get_mut(frame.channel()) else {
            return Err(ChannelRefusal::UnknownChannel {
                channel: frame.channel().clone(),
            });
        };
        let event = match &frame {
            ChannelFrame::Binary(_) => None,
            ChannelFrame::Event(frame) => Some(frame.event.as_str()),
        };
        admit(&open.descriptor, event).map_err(ChannelRefusal::Undeclared)?;
        open.inbound
            .push(frame.seq(), frame)
            .map_err(|refused| ChannelRefusal::Sequence {
                channel: open.descriptor.name.clone(),
                refusal: refused.refusal,
            })?;
        Ok(core::iter::from_fn(|| open.inbound.pop()).collect())
    }

    /// Closes the channel: its name is free to register again, its frames are no longer routed,
    /// and every handle on it is refused from now on. Returns the inbound frames it held ahead
    /// of a gap, in sequence order (never delivered, not dropped silently).
    ///
    /// # Errors
    /// [`ChannelClosed`] when the handle's channel was already closed; a channel registered
    /// since under the same name is left untouched.
    pub fn close(&mut self, channel: PayloadChannel) -> Result<Vec<ChannelFrame>, ChannelClosed> {
        self.open(&channel)?;
        let open = self.channels.remove(&channel.name);
        Ok(open
            .map(|open| open.inbound.into_held())
            .unwrap_or_default())
    }
}
