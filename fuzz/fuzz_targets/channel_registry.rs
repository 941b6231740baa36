//! Payload channel receive: the registry (`PayloadChannelRegistry`) and its reassembly, driven by
//! arbitrary operation sequences and checked against a model.
//!
//! Operations register channels (names up to 255 bytes; with a resume point, possibly near
//! `u32::MAX`, or without one, unanchored: the first frame routed sets the base),
//! close them, send event and binary frames, and receive raw bytes, frames built from parts
//! (sequences near the expected one, near `u32::MAX`, or anywhere) and the bytes sent earlier.
//!
//! Properties:
//! - nothing panics;
//! - every answer is the model's: registration refusals, closed handles, malformed (header),
//!   unknown, undeclared binary, stale, duplicate and beyond-window refusals on the header alone,
//!   and the exact frames delivered, in sequence order, with nothing lost and nothing delivered
//!   twice, an event body that is malformed or undeclared a refused delivery whose seq is
//!   consumed;
//! - a refusal changes nothing (the held count stays), a refused send consumes no sequence, a
//!   sequence never wraps (a send after `u32::MAX` is refused);
//! - what a send returns decodes to the frame sent.
#![no_main]

use std::collections::BTreeMap;

use agent_interface::agent_core::Value;
use agent_interface::runtime::transport::channels::{
    Bytes, ChannelRefusal, ChannelRegisterError, ChannelResumePoint, ChannelSendError,
    DeliveredFrame, GapPolicy, NotDelivered, PayloadChannel, PayloadChannelRegistry,
    RefusedDelivery, SequenceRefusal, UndeclaredFrame, WindowFull, decode_channel_frame,
    decode_header, encode_channel_frame,
};
use agent_interface::transport::channels::{
    BinaryFrame, ChannelDescriptor, ChannelEventFrame, ChannelFrame, ChannelName,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

/// The reassembly window of the registry under test.
const WINDOW: usize = 4;

#[derive(Arbitrary, Debug, Clone)]
enum Name {
    Short(u8),
    /// The longest name: 255 bytes (ASCII, or multi-byte characters filling exactly 255).
    Longest {
        multibyte: bool,
    },
    /// Any text, cut to 255 bytes at a character boundary.
    Text(String),
}

impl Name {
    fn text(&self) -> String {
        match self {
            Self::Short(n) => ["chat", "files", "audio", "ctl"][usize::from(*n % 4)].to_owned(),
            Self::Longest { multibyte: false } => "n".repeat(255),
            // 85 three-byte characters.
            Self::Longest { multibyte: true } => "\u{20ac}".repeat(85),
            Self::Text(text) => {
                let mut cut = text.len().min(255);
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                if cut == 0 {
                    "x".to_owned()
                } else {
                    text[..cut].to_owned()
                }
            }
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Seq {
    Exact(u32),
    /// `u32::MAX - k`.
    NearMax(u8),
    /// The model's expected inbound seq plus `k` (wrapping to stay a u32).
    AroundExpected(i8),
}

#[derive(Arbitrary, Debug, Clone)]
enum Payload {
    Null,
    Bool(bool),
    Int(i64),
    Text(String),
}

impl Payload {
    fn value(&self) -> Value {
        match self {
            Self::Null => Value::Null,
            Self::Bool(b) => Value::Bool(*b),
            Self::Int(n) => Value::from(*n),
            Self::Text(t) => Value::from(t.as_str()),
        }
    }
}

fn event_name(n: u8) -> &'static str {
    ["open", "data", "close", "", "other"][usize::from(n % 5)]
}

#[derive(Arbitrary, Debug)]
enum Op {
    Register {
        name: Name,
        events: Vec<u8>,
        binary: Option<bool>,
        resume: Option<(Seq, Seq)>,
    },
    Close(u8),
    SendEvent(u8, u8, Payload),
    SendBinary(u8, Vec<u8>),
    ReceiveRaw(Vec<u8>),
    ReceiveBuilt {
        name: Name,
        seq: Seq,
        event: Option<u8>,
        payload: Payload,
    },
    /// Receive the bytes of the k-th send (counted from the latest).
    ReceiveSent(u8),
}

/// A frame handed on (or back by a close): the frame, or its refused delivery.
type Item = Result<ChannelFrame, RefusedDelivery>;

struct Open {
    serial: usize,
    descriptor: ChannelDescriptor,
    next_send: u64,
    /// `None` while unanchored (registered without a resume point, no frame received yet).
    next_receive: Option<u64>,
    /// Where the inbound sequence started (the resume point, or the first frame's seq): a seq
    /// below it is refused as below the base, one from it up to `next_receive` as delivered
    /// (no gaps here: the window refuses, there is no deadline).
    base: Option<u64>,
    /// The bytes of each frame held, by seq: its body is read when it is delivered.
    pending: BTreeMap<u64, Vec<u8>>,
}

impl Open {
    /// The model's delivery of held bytes: the frame, or why its body cannot be handed on.
    fn deliver(&self, bytes: &[u8]) -> Item {
        let seq = decode_header(bytes).expect("held frames have a header").seq;
        let refuse = |refusal| RefusedDelivery {
            channel: self.descriptor.name.clone(),
            seq,
            refusal,
        };
        match decode_channel_frame(bytes) {
            Err(error) => Err(refuse(ChannelRefusal::Malformed(error))),
            Ok(ChannelFrame::Event(event)) if !self.descriptor.declares(&event.event) => {
                Err(refuse(ChannelRefusal::Undeclared(UndeclaredFrame::Event {
                    channel: event.channel,
                    event: event.event,
                })))
            }
            Ok(frame) => Ok(frame),
        }
    }
}

#[derive(Default)]
struct Model {
    /// Every handle issued: (handle, registration serial).
    handles: Vec<(PayloadChannel, usize)>,
    open: BTreeMap<String, Open>,
    registrations: usize,
    sent: Vec<Vec<u8>>,
}

impl Model {
    fn resolve(&self, seq: Seq, name: &str) -> u32 {
        match seq {
            Seq::Exact(n) => n,
            Seq::NearMax(k) => u32::MAX - u32::from(k),
            Seq::AroundExpected(k) => {
                let expected = self
                    .open
                    .get(name)
                    .and_then(|open| open.next_receive)
                    .unwrap_or(0);
                u32::try_from(expected.min(u64::from(u32::MAX)))
                    .unwrap()
                    .wrapping_add_signed(i32::from(k))
            }
        }
    }

    fn handle(&self, n: u8) -> Option<&(PayloadChannel, usize)> {
        if self.handles.is_empty() {
            None
        } else {
            self.handles.get(usize::from(n) % self.handles.len())
        }
    }

    fn live(&self, handle: &(PayloadChannel, usize)) -> bool {
        self.open
            .get(handle.0.name().as_str())
            .is_some_and(|open| open.serial == handle.1)
    }

    /// The model's answer for inbound bytes.
    /// The header alone decides: malformed, unknown, undeclared binary, stale, beyond the
    /// window, duplicate; the body is read at delivery.
    fn receive(&mut self, bytes: &[u8]) -> Result<Vec<Item>, ChannelRefusal> {
        let header = decode_header(bytes).map_err(ChannelRefusal::Malformed)?;
        let name = ChannelName::new(header.channel).unwrap();
        let Some(open) = self.open.get_mut(name.as_str()) else {
            return Err(ChannelRefusal::UnknownChannel { channel: name });
        };
        if header.binary && !open.descriptor.accepts_binary() {
            return Err(ChannelRefusal::Undeclared(UndeclaredFrame::Binary {
                channel: name,
            }));
        }
        let seq = u64::from(header.seq);
        // An unanchored channel takes its first routed frame's seq as the base.
        let next = *open.next_receive.get_or_insert(seq);
        let base = *open.base.get_or_insert(seq);
        let refuse = |refusal| {
            Err(ChannelRefusal::Sequence {
                channel: name.clone(),
                refusal,
            })
        };
        if seq < base {
            let base = u32::try_from(base).unwrap();
            return refuse(SequenceRefusal::BelowBase {
                seq: header.seq,
                base,
            });
        }
        if seq < next {
            return refuse(SequenceRefusal::Stale { seq: header.seq });
        }
        if seq >= next + WINDOW as u64 {
            return refuse(SequenceRefusal::BeyondWindow {
                seq: header.seq,
                expected: u32::try_from(next).unwrap(),
                capacity: WINDOW,
            });
        }
        if open.pending.contains_key(&seq) {
            return refuse(SequenceRefusal::Duplicate { seq: header.seq });
        }
        open.pending.insert(seq, bytes.to_vec());
        let mut delivered = Vec::new();
        let mut next = next;
        while let Some(bytes) = open.pending.remove(&next) {
            delivered.push(open.deliver(&bytes));
            next += 1;
        }
        open.next_receive = Some(next);
        Ok(delivered)
    }
}

fuzz_target!(|ops: Vec<Op>| {
    // Refusing a full window, with no deadline: the model has no gaps (the channel suite's
    // seeded property test covers them).
    let policy = GapPolicy::new().with_window_full(WindowFull::Refuse);
    let mut registry = PayloadChannelRegistry::<WINDOW>::new().with_gap_policy(policy);
    let mut model = Model::default();
    for op in ops.into_iter().take(256) {
        match op {
            Op::Register {
                name,
                events,
                binary,
                resume,
            } => {
                let text = name.text();
                let channel = ChannelName::new(text.clone()).expect("1..=255 bytes");
                let events: Vec<String> = events
                    .iter()
                    .take(6)
                    .map(|&e| event_name(e).to_owned())
                    .collect();
                let mut descriptor = ChannelDescriptor::new(channel.clone(), events);
                descriptor.binary = binary;
                // Without a resume point: `register`, its inbound side unanchored.
                let resume = resume.map(|(send, receive)| ChannelResumePoint {
                    next_send: model.resolve(send, &text),
                    next_receive: model.resolve(receive, &text),
                });
                let result = match resume {
                    Some(resume) => registry.register_resuming(descriptor.clone(), resume),
                    None => registry.register(descriptor.clone()),
                };
                if model.open.contains_key(&text) {
                    assert_eq!(
                        result,
                        Err(ChannelRegisterError::AlreadyRegistered { channel }),
                        "registered an open name twice"
                    );
                } else if descriptor.declares("") {
                    assert_eq!(
                        result,
                        Err(ChannelRegisterError::EmptyEventName { channel })
                    );
                } else {
                    let handle = result.expect("a free name with good events registers");
                    assert_eq!(handle.name().as_str(), text);
                    model.registrations += 1;
                    let serial = model.registrations;
                    model.handles.push((handle, serial));
                    model.open.insert(
                        text,
                        Open {
                            serial,
                            descriptor,
                            next_send: resume.map_or(0, |resume| u64::from(resume.next_send)),
                            next_receive: resume.map(|resume| u64::from(resume.next_receive)),
                            base: resume.map(|resume| u64::from(resume.next_receive)),
                            pending: BTreeMap::new(),
                        },
                    );
                }
            }
            Op::Close(n) => {
                let Some(handle) = model.handle(n).cloned() else {
                    continue;
                };
                let result = registry.close(handle.0.clone());
                if model.live(&handle) {
                    let open = model.open.remove(handle.0.name().as_str()).unwrap();
                    let held: Vec<Item> = open.pending.values().map(|b| open.deliver(b)).collect();
                    assert_eq!(
                        result.expect("an open channel closes"),
                        held,
                        "close hands back other frames"
                    );
                } else {
                    assert!(result.is_err(), "a closed handle closed again");
                }
            }
            Op::SendEvent(n, event, payload) => {
                let Some(handle) = model.handle(n).cloned() else {
                    continue;
                };
                let event = event_name(event);
                let value = payload.value();
                let result = registry.send_event(&handle.0, event, &value);
                check_send(&mut model, &handle, result, Some(event), |channel, seq| {
                    ChannelFrame::Event(ChannelEventFrame::new(channel, seq, event, value.clone()))
                });
            }
            Op::SendBinary(n, payload) => {
                let Some(handle) = model.handle(n).cloned() else {
                    continue;
                };
                let result = registry.send_binary(&handle.0, &payload);
                check_send(&mut model, &handle, result, None, |channel, seq| {
                    ChannelFrame::Binary(BinaryFrame::new(channel, seq, payload.clone()))
                });
            }
            Op::ReceiveRaw(bytes) => receive(&mut registry, &mut model, &bytes),
            Op::ReceiveBuilt {
                name,
                seq,
                event,
                payload,
            } => {
                let text = name.text();
                let seq = model.resolve(seq, &text);
                let channel = ChannelName::new(text).unwrap();
                let frame = match event {
                    Some(event) => ChannelFrame::Event(ChannelEventFrame::new(
                        channel,
                        seq,
                        match event_name(event) {
                            "" => "data",
                            name => name,
                        },
                        payload.value(),
                    )),
                    None => ChannelFrame::Binary(BinaryFrame::new(
                        channel,
                        seq,
                        match payload {
                            Payload::Text(t) => t.into_bytes(),
                            _ => Vec::new(),
                        },
                    )),
                };
                receive(&mut registry, &mut model, &encode_channel_frame(&frame));
            }
            Op::ReceiveSent(k) => {
                if model.sent.is_empty() {
                    continue;
                }
                let index = model.sent.len() - 1 - usize::from(k) % model.sent.len();
                let bytes = model.sent[index].clone();
                receive(&mut registry, &mut model, &bytes);
            }
        }
        for (handle, _) in &model.handles {
            let expected = model
                .open
                .get(handle.name().as_str())
                .filter(|open| {
                    Some(open.serial)
                        == model.handles.iter().find(|(h, _)| h == handle).map(|h| h.1)
                })
                .map(|open| open.pending.len());
            match expected {
                Some(held) => {
                    assert_eq!(registry.held(handle).ok(), Some(held), "held count differs")
                }
                None => assert!(
                    registry.held(handle).is_err(),
                    "a closed handle answers `held`"
                ),
            }
        }
    }
});

fn receive(registry: &mut PayloadChannelRegistry<WINDOW>, model: &mut Model, bytes: &[u8]) {
    let expected = model.receive(bytes);
    let actual = registry
        .receive(Bytes::copy_from_slice(bytes), 0)
        .map(|delivery| {
            let items = delivery.map(|item| {
                item.map(DeliveredFrame::into_frame)
                    .map_err(|not_delivered| match not_delivered {
                        NotDelivered::Refused(refused) => refused,
                        gap => panic!("a gap with no deadline and a refusing window: {gap:?}"),
                    })
            });
            items.collect::<Vec<_>>()
        });
    assert_eq!(
        actual,
        expected,
        "receive differs from the model for {:?}",
        String::from_utf8_lossy(bytes)
    );
}

fn check_send(
    model: &mut Model,
    handle: &(PayloadChannel, usize),
    result: Result<Vec<u8>, ChannelSendError>,
    event: Option<&str>,
    frame: impl FnOnce(ChannelName, u32) -> ChannelFrame,
) {
    if !model.live(handle) {
        assert!(
            matches!(result, Err(ChannelSendError::Closed(_))),
            "a closed handle sent: {result:?}"
        );
        return;
    }
    let open = model.open.get_mut(handle.0.name().as_str()).unwrap();
    let declared = match event {
        Some(event) => open.descriptor.declares(event),
        None => open.descriptor.accepts_binary(),
    };
    if !declared {
        assert!(
            matches!(result, Err(ChannelSendError::Undeclared(_))),
            "an undeclared send: {result:?}"
        );
        return;
    }
    let Ok(seq) = u32::try_from(open.next_send) else {
        assert!(
            matches!(result, Err(ChannelSendError::SequenceExhausted { .. })),
            "a send after u32::MAX: {result:?}"
        );
        return;
    };
    let bytes = result.expect("a declared send on an open channel");
    open.next_send += 1;
    let expected = frame(handle.0.name().clone(), seq);
    assert_eq!(
        decode_channel_frame(&bytes),
        Ok(expected),
        "a sent frame decodes to another"
    );
    model.sent.push(bytes);
}
