//! Milliseconds since the epoch written as the ISO-8601 instant a message's `timestamp` carries
//! (`YYYY-MM-DDTHH:MM:SS.sssZ`, UTC, proleptic Gregorian: what JavaScript's `toISOString` prints).
//! Crate-private support shared by the session family's loops and the reconcile piece; it names
//! no family.

use alloc::format;
use alloc::string::String;

pub(crate) const MS_PER_DAY: u64 = 86_400_000;
/// 9999-12-31T23:59:59.999Z, the last instant a four-digit year can write.
pub(crate) const LAST_INSTANT_MS: u64 = 253_402_300_799_999;

/// The civil date (year, month, day) of a day count since 1970-01-01, after Howard Hinnant's
/// `civil_from_days`; only ever called with non-negative counts.
const fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    (year, month, day)
}

/// Writes `ms` as `YYYY-MM-DDTHH:MM:SS.sssZ`; `None` after year 9999.
pub(crate) fn format_instant(ms: u64) -> Option<String> {
    if ms > LAST_INSTANT_MS {
        return None;
    }
    let (year, month, day) = civil_from_days(ms / MS_PER_DAY);
    let in_day = ms % MS_PER_DAY;
    let (hour, minute) = (in_day / 3_600_000, in_day / 60_000 % 60);
    let (second, milli) = (in_day / 1000 % 60, in_day % 1000);
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{milli:03}Z"
    ))
}
