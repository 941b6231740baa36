//! Shared by every suite, on the host, on wasm32-wasip1 and on the Cortex-M3 firmware: the
//! `cases!` macro and the golden-JSON helpers. Uses only `core`, `alloc` and serde_json (alloc).
#![allow(dead_code, unused_macros)]

use alloc::format;
use alloc::string::String;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Declares test cases once: on hosts each is a `#[test]`; everywhere the suite also exports
/// `CASES`, the list the firmware runner walks.
///
/// A suite too large for one firmware image (the Cortex-M3 board has 256 KiB of flash) groups its
/// cases in parts, `cases! { mod wire { fn … } mod rules { fn … } }`: each part is a module with
/// its own `CASES` (and `use super::*`), and the firmware runs one image per part, so an image
/// links only the types its part exercises.
macro_rules! cases {
    ($( mod $part:ident { $($body:tt)* } )+) => {
        $(
            pub mod $part {
                #[allow(unused_imports)]
                use super::*;
                cases! { $($body)* }
            }
        )+
    };
    ($( $(#[$meta:meta])* fn $name:ident() $body:block )*) => {
        $(
            $(#[$meta])*
            #[cfg_attr(not(target_os = "none"), test)]
            pub fn $name() $body
        )*
        /// Every case of this suite (or part), by name, for runners without libtest.
        #[allow(dead_code)]
        pub const CASES: &[(&str, fn())] = &[$((stringify!($name), $name)),*];
    };
}

/// Asserts that a closed literal set (from the crate's `string_enum!`) maps each value to its
/// exact wire literal and back: `as_str`, `from_literal`, serde and `Display` all agree.
macro_rules! literal_round_trip {
    ($ty:ty) => {{
        assert_eq!(<$ty>::ALL.len(), <$ty>::LITERALS.len());
        for (value, literal) in <$ty>::ALL.iter().zip(<$ty>::LITERALS) {
            assert_eq!(value.as_str(), *literal);
            assert_eq!(<$ty>::from_literal(value.as_str()), Some(*value));
            let json = $crate::support::to_json(value);
            assert_eq!(
                json,
                ::serde_json::Value::String(::alloc::string::String::from(*literal))
            );
            let back: $ty = $crate::support::decode(&json);
            assert_eq!(back, *value);
            assert_eq!(::alloc::format!("{value}"), *literal);
        }
    }};
}

/// True when two JSON values are equal, numbers compared by value (`9` equals `9.0`), so a golden
/// file written by the TypeScript side (which prints whole doubles without a fraction) still pins
/// what a Rust `f64` field prints.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                x == y
            } else if let (Some(x), Some(y)) = (x.as_u64(), y.as_u64()) {
                x == y
            } else {
                x.as_f64() == y.as_f64()
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Decodes `text` as `T`, encodes it again and asserts the result equals `text` as JSON: the
/// golden file pins the wire form in both directions. Returns the decoded value.
pub fn golden<T: Serialize + DeserializeOwned>(name: &str, text: &str) -> T {
    let value: T = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => panic!("golden {name}: does not decode: {error}"),
    };
    let expected: Value = serde_json::from_str(text).expect("golden file is JSON");
    let actual = to_json(&value);
    assert!(
        json_eq(&actual, &expected),
        "golden {name}: round trip differs\n expected: {expected}\n   actual: {actual}"
    );
    value
}

/// Asserts that `text` does not decode as `T`, and that the error message mentions `needle`
/// (so the test fails if the decoder refuses the input for some unrelated reason).
pub fn rejects<T: DeserializeOwned + core::fmt::Debug>(text: &str, needle: &str) -> String {
    match serde_json::from_str::<T>(text) {
        Ok(value) => panic!("expected a decode error for {text}, got {value:?}"),
        Err(error) => {
            let message = format!("{error}");
            assert!(
                message.contains(needle),
                "decode error for {text} is `{message}`, which does not mention `{needle}`"
            );
            message
        }
    }
}

/// Encodes `value` to a JSON value (panics with the serde error if it cannot).
///
/// It goes through the JSON text, as a peer would read it, so every suite instantiates one
/// encoder per type (`to_string`) rather than two: the firmware images stay small enough for the
/// 256 KiB flash of the Cortex-M3 board.
pub fn to_json<T: Serialize>(value: &T) -> Value {
    let text = serde_json::to_string(value).expect("encodes");
    serde_json::from_str(&text).expect("the encoder writes JSON")
}

/// Decodes a JSON value as `T` through its text (see [`to_json`] for why not `from_value`).
pub fn from_json<T: DeserializeOwned>(value: &Value) -> Result<T, serde_json::Error> {
    serde_json::from_str(&serde_json::to_string(value).expect("a Value always encodes"))
}

/// Decodes a JSON value as `T`, panicking with the serde error if it does not decode.
pub fn decode<T: DeserializeOwned>(json: &Value) -> T {
    match from_json(json) {
        Ok(value) => value,
        Err(error) => panic!("{json} does not decode: {error}"),
    }
}

/// Runs a future that completes without waiting (the port doubles of the suites are ready at
/// once), with no executor and no dependency; panics if it is still pending after a few polls.
pub fn block_on<F: core::future::Future>(future: F) -> F::Output {
    let mut future = core::pin::pin!(future);
    let mut cx = core::task::Context::from_waker(core::task::Waker::noop());
    for _ in 0..64 {
        if let core::task::Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
    panic!("a test future did not complete");
}

/// An owned `String` from a literal (shorthand for test data).
pub fn s(text: &str) -> String {
    String::from(text)
}
