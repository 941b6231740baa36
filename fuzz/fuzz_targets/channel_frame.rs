//! The `RBF` byte codec of payload channel frames (`decode_channel_frame`) on untrusted bytes.
//!
//! Properties:
//! - it never panics;
//! - only bytes starting with the magic decode (`is_channel_frame` agrees);
//! - the header alone (`decode_header`) refuses exactly what the whole decoder refuses before
//!   the body, and agrees with the decoded frame's kind, channel and seq;
//! - a decoded frame encodes to bytes that decode to an equal frame, numbers compared as
//!   JavaScript sees them (the encoder writes `12.0` as `12`), and encoding is stable;
//!   a binary frame's encoding is exactly the input (one encoding per binary frame).
#![no_main]

use agent_interface::agent_core::Value;
use agent_interface::runtime::transport::channels::{
    ChannelFrameError, decode_channel_frame, decode_header, encode_channel_frame, is_channel_frame,
};
use agent_interface::transport::channels::ChannelFrame;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let decoded = decode_channel_frame(data);
    if !is_channel_frame(data) {
        assert_eq!(
            decoded,
            Err(ChannelFrameError::BadMagic),
            "no magic, yet not BadMagic"
        );
        return;
    }
    let header = match (decode_header(data), &decoded) {
        (Err(error), decoded) => {
            assert_eq!(
                decoded,
                &Err(error),
                "the header refused, the decoder did not"
            );
            return;
        }
        (Ok(header), _) => header,
    };
    let Ok(frame) = decoded else {
        assert!(
            !header.binary,
            "a binary frame with a whole header always decodes"
        );
        return;
    };
    assert_eq!(
        (header.binary, header.channel, header.seq),
        (
            matches!(frame, ChannelFrame::Binary(_)),
            frame.channel().as_str(),
            frame.seq()
        ),
        "the header disagrees with the frame"
    );
    let encoded = encode_channel_frame(&frame);
    if let ChannelFrame::Binary(_) = frame {
        assert_eq!(encoded, data, "a binary frame re-encodes to other bytes");
    }
    let again = decode_channel_frame(&encoded).unwrap_or_else(|e| {
        panic!(
            "the encoding of a decoded frame does not decode ({e}): {:?}",
            String::from_utf8_lossy(&encoded)
        )
    });
    assert_eq!(
        as_javascript_sees_it(&again),
        as_javascript_sees_it(&frame),
        "decode(encode(frame)) != frame; input {:?}, encoded {:?}",
        String::from_utf8_lossy(data),
        String::from_utf8_lossy(&encoded)
    );
    assert_eq!(
        encode_channel_frame(&again),
        encoded,
        "the frame encoding is not stable"
    );
});

/// The frame with every number as an `f64`: JavaScript has one number type, so `12` and `12.0`
/// are the same value there, and the encoder writes both as `12`.
fn as_javascript_sees_it(frame: &ChannelFrame) -> ChannelFrame {
    fn numbers_as_f64(value: &Value) -> Value {
        match value {
            Value::Number(number) => number.as_f64().map_or(Value::Null, Value::from),
            Value::Array(items) => Value::Array(items.iter().map(numbers_as_f64).collect()),
            Value::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(key, item)| (key.clone(), numbers_as_f64(item)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    let mut frame = frame.clone();
    if let ChannelFrame::Event(event) = &mut frame {
        event.payload = numbers_as_f64(&event.payload);
    }
    frame
}
