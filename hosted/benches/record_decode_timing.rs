//! A timing loop for decoding a stored session record against an untyped parse of the same
//! bytes, for targets criterion does not run on: wasm32-wasip1 under Node's WASI (issue 17,
//! "decoding 1 MiB: ≤ 1.0× a `serde_json::Value` parse … natively and in wasm32-wasip1").
//!
//! It builds the same 1 MiB record as `benches/record_decode.rs`, then runs rounds: each round
//! times one `decode_session_record` and one `serde_json::from_slice::<Value>` of the bytes,
//! in alternating order so neither always runs on a warm cache. It prints the median of each
//! and the ratio of the medians (decode over parse), all from this one run. With
//! `RECORD_DECODE_MAX_RATIO` set, it exits with 1 when the ratio is above it.
//!
//! Run, in `hosted/`, in wasm32-wasip1 (the runner in the repository's `.cargo/config.toml`,
//! which cargo reads from `hosted/` too, starts Node):
//! `cargo bench --target wasm32-wasip1 --no-default-features --features record-codec --bench record_decode_timing`;
//! natively: the same without `--target`. `ROUNDS` (default 31) sets the number of rounds.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use agent_interface::agent_core::Value;
use agent_interface::runtime::record_codec::{decode_session_record, encode_session_record};
use agent_interface::session::records::SessionRecordDecodeOutcome;

#[path = "common/bench_record.rs"]
mod bench_record;

use bench_record::{ID, bench_record};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

fn time(run: impl FnOnce()) -> Duration {
    let start = Instant::now();
    run();
    start.elapsed()
}

fn main() -> ExitCode {
    // `cargo bench` passes `--bench` (and any filter); this binary takes no arguments.
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|rounds| rounds.parse().ok())
        .filter(|rounds| *rounds > 0)
        .unwrap_or(31);
    let bytes = encode_session_record(&bench_record()).expect("the bench record encodes");
    assert!(
        matches!(
            decode_session_record(&bytes, ID),
            SessionRecordDecodeOutcome::Valid { .. }
        ),
        "the bench record must decode as valid"
    );

    let mut decode = Vec::with_capacity(rounds);
    let mut parse = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let mut decode_once = || {
            decode.push(time(|| {
                black_box(decode_session_record(black_box(&bytes), black_box(ID)));
            }));
        };
        let mut parse_once = || {
            parse.push(time(|| {
                black_box(serde_json::from_slice::<Value>(black_box(&bytes)).expect("JSON"));
            }));
        };
        if round % 2 == 0 {
            decode_once();
            parse_once();
        } else {
            parse_once();
            decode_once();
        }
    }
    let (decode, parse) = (median(decode), median(parse));
    let ratio = decode.as_secs_f64() / parse.as_secs_f64();
    println!(
        "record_decode_timing on {}: {} bytes, {rounds} rounds; median decode_session_record {:.2} ms, \
         median serde_json_value {:.2} ms, ratio {ratio:.2}",
        std::env::consts::ARCH,
        bytes.len(),
        decode.as_secs_f64() * 1e3,
        parse.as_secs_f64() * 1e3,
    );
    match std::env::var("RECORD_DECODE_MAX_RATIO")
        .ok()
        .and_then(|max| max.parse::<f64>().ok())
    {
        Some(max) if ratio > max => {
            eprintln!("record_decode_timing: ratio {ratio:.2} is above {max}");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    }
}
