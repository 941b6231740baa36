//! The crate in a web page, through wasm-bindgen: the page hands in a stored session record and
//! channel frames as they arrived (shuffled), and reads back what the crate made of them. Every
//! answer is JSON text in the crate's wire forms, so the page needs no glue of its own.
#![forbid(unsafe_code)]

use agent_interface::runtime::record_codec::decode_session_record;
use agent_interface::runtime::transport::channels::{
    ChannelDescriptor, ChannelName, ChannelResumePoint, DeliveredBody, PayloadChannel,
    PayloadChannelRegistry, Value,
};
use wasm_bindgen::prelude::*;

/// Frames a channel holds ahead of a gap.
const PENDING: usize = 16;

/// Decodes a stored session record (`{"schemaVersion", "record"}` bytes) stored under `id`, and
/// answers the decode outcome as JSON: `{"status": "valid", "record": …}`, `corrupt` with its
/// located issues, or `unsupported`. Never throws.
#[wasm_bindgen]
pub fn decode_record(bytes: &[u8], id: &str) -> String {
    let outcome = decode_session_record(bytes, id);
    // An outcome always serializes; were it not to, the page still gets JSON naming why.
    serde_json::to_string(&outcome)
        .unwrap_or_else(|error| serde_json::json!({ "error": error.to_string() }).to_string())
}

fn descriptor(name: &str, event: &str) -> Result<ChannelDescriptor, JsError> {
    let name = ChannelName::new(name).map_err(|error| JsError::new(&error.to_string()))?;
    Ok(ChannelDescriptor::new(name, [event]))
}

/// One payload channel end, sending or receiving, as a page holds it.
#[wasm_bindgen]
pub struct ChannelEnd {
    registry: PayloadChannelRegistry<PENDING>,
    channel: PayloadChannel,
    event: String,
}

#[wasm_bindgen]
impl ChannelEnd {
    /// A channel named `name` that declares the one event `event`, opened together with its
    /// peer: both of its sequences start at 0, so a frame that overtakes an earlier one waits.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, event: &str) -> Result<ChannelEnd, JsError> {
        let mut registry = PayloadChannelRegistry::new();
        let start = ChannelResumePoint::ZERO;
        let channel = registry
            .register_resuming(descriptor(name, event)?, start)
            .map_err(|error| JsError::new(&error.to_string()))?;
        Ok(Self {
            registry,
            channel,
            event: event.into(),
        })
    }

    /// The frame carrying `text` as the event's payload, with the channel's next seq.
    pub fn send(&mut self, text: &str) -> Result<Vec<u8>, JsError> {
        let payload = Value::String(text.into());
        self.registry
            .send_event(&self.channel, &self.event, &payload)
            .map_err(|error| JsError::new(&error.to_string()))
    }

    /// Takes one inbound frame, received at `now_ms` (`Date.now()`), and answers, as a JSON
    /// array, the payloads now deliverable in sequence order (`[]` while it waits for an earlier
    /// frame). A refused frame throws with the crate's words.
    pub fn receive(&mut self, frame: Vec<u8>, now_ms: f64) -> Result<String, JsError> {
        // A JavaScript time is a whole number of milliseconds well inside u64.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let now_ms = now_ms.max(0.0) as u64;
        let delivery = self
            .registry
            .receive(frame, now_ms)
            .map_err(|error| JsError::new(&error.to_string()))?;
        let mut delivered = Vec::new();
        for item in delivery {
            match item.map_err(|error| JsError::new(&error.to_string()))?.body {
                DeliveredBody::Event { payload, .. } => delivered.push(payload),
                DeliveredBody::Binary(bytes) => delivered.push(Value::from(bytes.len())),
            }
        }
        serde_json::to_string(&delivered).map_err(|error| JsError::new(&error.to_string()))
    }

    /// How many frames wait ahead of a gap.
    pub fn held(&self) -> usize {
        self.registry.held(&self.channel).unwrap_or(0)
    }
}
