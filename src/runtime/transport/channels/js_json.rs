//! A `Value` written as JSON the way JavaScript's `JSON.stringify` writes it, for the event
//! bodies the crate sends to a TypeScript peer. It differs from serde_json's writer in numbers
//! only: a float is written as `Number.prototype.toString` writes it (`1` for `1.0`, `0` for
//! `-0.0`, `9.9e+24`, `1e-7`, `0.000001`), so a body read from the peer and sent back is the
//! same bytes.

use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use crate::agent_core::Value;

use super::frame::write_json_string;

/// Appends `value` as JSON, numbers in JavaScript's form, members in the map's order.
pub(super) fn write_value(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(number) => {
            if let Some(float) = number.as_f64().filter(|_| number.is_f64()) {
                write_number(float, out);
            } else {
                // An integer: its decimal digits are the same in both languages. `ByteSink` never
                // fails, so the `fmt::Result` carries nothing.
                let _ = write!(ByteSink(out), "{number}");
            }
        }
        Value::String(text) => write_json_string(text, out),
        Value::Array(items) => {
            out.push(b'[');
            for (at, item) in items.iter().enumerate() {
                if at > 0 {
                    out.push(b',');
                }
                write_value(item, out);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            out.push(b'{');
            for (at, (key, item)) in members.iter().enumerate() {
                if at > 0 {
                    out.push(b',');
                }
                write_json_string(key, out);
                out.push(b':');
                write_value(item, out);
            }
            out.push(b'}');
        }
    }
}

/// Appends `number` as `Number.prototype.toString` writes it (ECMA-262, Number::toString with
/// radix 10): the shortest digits that read back as the same `f64`, in fixed notation for
/// decimal exponents from -7 to 20 and in exponent notation (`e+`/`e-`) outside. A number that
/// is not finite is `null`, as in `JSON.stringify`.
pub(super) fn write_number(number: f64, out: &mut Vec<u8>) {
    if !number.is_finite() {
        out.extend_from_slice(b"null");
        return;
    }
    if number == 0.0 {
        out.push(b'0');
        return;
    }
    if number < 0.0 {
        out.push(b'-');
    }
    // zmij (serde_json's own formatter) writes the shortest round-trip digits as `1.0`,
    // `0.1`, `9.9e24` or `1e-7`; read back as digits d1…dk and a point, 0.d1…dk × 10^point.
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(number.abs()).as_bytes();
    let split = text
        .iter()
        .position(|&byte| byte == b'e')
        .unwrap_or(text.len());
    let (mantissa, exponent) = text.split_at(split);
    let exponent = core::str::from_utf8(exponent.get(1..).unwrap_or_default()).unwrap_or("0");
    let whole = mantissa.iter().take_while(|&&byte| byte != b'.').count();
    let mut point = i32::try_from(whole)
        .unwrap_or(0)
        .saturating_add(exponent.parse::<i32>().unwrap_or(0));
    let mut digits = [0u8; 24];
    let mut count = 0;
    for &digit in mantissa.iter().filter(|byte| byte.is_ascii_digit()) {
        if count == 0 && digit == b'0' {
            point -= 1; // a leading zero: 0.1 is 0.1 × 10^0
        } else if let Some(slot) = digits.get_mut(count) {
            *slot = digit;
            count += 1;
        }
    }
    while count > 1 && digits.get(count - 1) == Some(&b'0') {
        count -= 1; // a trailing zero: 1.0 is 0.1 × 10^1
    }
    let digits = digits.get(..count).unwrap_or_default();
    let count = i32::try_from(count).unwrap_or(i32::MAX);
    let zeros = |count: i32, out: &mut Vec<u8>| {
        out.extend(core::iter::repeat_n(
            b'0',
            usize::try_from(count).unwrap_or(0),
        ));
    };
    if count <= point && point <= 21 {
        out.extend_from_slice(digits);
        zeros(point - count, out);
    } else if 0 < point && point <= 21 {
        let (whole, fraction) = digits.split_at(usize::try_from(point).unwrap_or(0));
        out.extend_from_slice(whole);
        out.push(b'.');
        out.extend_from_slice(fraction);
    } else if -6 < point && point <= 0 {
        out.extend_from_slice(b"0.");
        zeros(-point, out);
        out.extend_from_slice(digits);
    } else {
        let (first, rest) = digits.split_at(1);
        out.extend_from_slice(first);
        if !rest.is_empty() {
            out.push(b'.');
            out.extend_from_slice(rest);
        }
        let shown = point - 1;
        out.push(b'e');
        out.push(if shown < 0 { b'-' } else { b'+' });
        let _ = write!(ByteSink(out), "{}", shown.unsigned_abs());
    }
}

/// Appends formatted text to a byte buffer; never fails.
struct ByteSink<'a>(&'a mut Vec<u8>);

impl fmt::Write for ByteSink<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.0.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::write_number;

    /// Each case as JavaScript's `String(x)` writes it.
    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        let cases: [(f64, &str); 23] = [
            (1.0, "1"),
            (-0.0, "0"),
            (0.0, "0"),
            (-1.5, "-1.5"),
            (9.9e24, "9.9e+24"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123_456_789_012_345_680_000.0, "123456789012345680000"),
            (0.000_001, "0.000001"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (123.456, "123.456"),
            (0.1 + 0.2, "0.30000000000000004"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (-f64::MIN_POSITIVE, "-2.2250738585072014e-308"),
            (0.001, "0.001"),
            (12.0, "12"),
            (1.25e2, "125"),
            (100.5, "100.5"),
            (f64::NAN, "null"),
            (f64::INFINITY, "null"),
            (f64::NEG_INFINITY, "null"),
        ];
        for (number, expected) in cases {
            let mut out = Vec::new();
            write_number(number, &mut out);
            assert_eq!(core::str::from_utf8(&out), Ok(expected), "{number:e}");
        }
    }
}
