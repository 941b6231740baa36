//! Cases of the session protocol (`runtime::session_protocol`): so far the resume buffer, with
//! a seeded property over any sequence of sends, drops, acks and resumes. Uses only `core`,
//! `alloc` and the crate.

use alloc::vec::Vec;

use agent_interface::runtime::session_protocol::{ResumeBuffer, ResumeLimits, ResumeOverrun};

// Its own copy of the seeded generator, so that any runner (the firmware's included) gets it.
#[path = "seeded.rs"]
mod seeded;

use self::seeded::Seeded;

/// A client of the buffer's host: what it received, in order, and whether it is connected.
struct Client {
    /// The last seq it saw (what it resumes from and acks).
    last: u64,
    connected: bool,
}

/// Runs one seeded session: the host stamps frames (their payload is their own seq, sized at
/// random) and sends them while the client is connected; the client drops (losing what was in
/// flight), acks, and resumes. Every frame the client takes must be the one after its last, and
/// a resume must be refused exactly when a frame after the client's last is gone.
fn run(seed: u64, limits: ResumeLimits, steps: usize) {
    let mut random = Seeded::new(seed);
    let mut buffer = ResumeBuffer::new(limits);
    let mut client = Client {
        last: 0,
        connected: true,
    };
    // Frames sent but not yet taken by the client (a connection's queue).
    let mut in_flight: Vec<u64> = Vec::new();
    let mut overruns = 0;
    for _ in 0..steps {
        match random.below(10) {
            0..=4 => {
                let size = random.below(64) as usize;
                let seq = buffer.append(0, size);
                let payload = seq;
                if client.connected {
                    in_flight.push(payload);
                }
            }
            5 => {
                // The client takes what reached it.
                for seq in in_flight.drain(..) {
                    assert_eq!(
                        seq,
                        client.last + 1,
                        "seed {seed}: a frame lost or repeated"
                    );
                    client.last = seq;
                }
            }
            6 => {
                // The connection drops: what was in flight is lost.
                client.connected = false;
                in_flight.clear();
            }
            7 => buffer.ack_through(client.last),
            _ => {
                // The client (re)connects and resumes from the last seq it saw.
                in_flight.clear();
                client.connected = true;
                let gone = client.last + 1 < buffer.oldest_seq();
                match buffer.tail_after(client.last) {
                    Ok(tail) => {
                        assert!(!gone, "seed {seed}: a tail with a hole in it");
                        let tail: Vec<u64> = tail.map(|(seq, _)| seq).collect();
                        if let Some(first) = tail.first() {
                            assert_eq!(*first, client.last + 1, "seed {seed}: the tail's start");
                        }
                        in_flight.extend(tail);
                    }
                    Err(overrun) => {
                        assert!(gone, "seed {seed}: an overrun with every frame retained");
                        assert_eq!(
                            (overrun.after, overrun.oldest, overrun.last),
                            (client.last, buffer.oldest_seq(), buffer.last_seq())
                        );
                        // The protocol's `resume_gap`: the client starts again from now.
                        overruns += 1;
                        client.last = buffer.last_seq();
                    }
                }
            }
        }
        // The bounds hold after every step.
        assert!(
            buffer.len() <= limits.max_frames,
            "seed {seed}: over the frame bound"
        );
        assert!(
            buffer.retained_bytes() <= limits.max_bytes || buffer.len() <= 1,
            "seed {seed}: over the byte bound"
        );
        let seqs: Vec<u64> = buffer.retained().map(|(seq, _)| seq).collect();
        assert!(
            seqs.windows(2).all(|pair| pair[1] == pair[0] + 1)
                && seqs.last().is_none_or(|last| *last == buffer.last_seq()),
            "seed {seed}: the retained seqs are not consecutive up to the last"
        );
    }
    // Tight bounds must have overrun at least once over a long run (the check can fail).
    if limits.max_frames <= 4 && steps >= 1_000 {
        assert!(overruns > 0, "seed {seed}: no overrun under tight bounds");
    }
}

cases! {
    fn seqs_start_at_one_and_rise_by_one() {
        let mut buffer = ResumeBuffer::default();
        assert_eq!(buffer.last_seq(), 0);
        assert_eq!((buffer.append("a", 1), buffer.append("b", 1)), (1, 2));
        assert_eq!(buffer.retained().map(|(seq, frame)| (seq, *frame)).collect::<Vec<_>>(), [(1, "a"), (2, "b")]);
    }

    fn a_resume_after_acked_frames_is_an_overrun_and_after_the_last_is_empty() {
        let mut buffer = ResumeBuffer::new(ResumeLimits::new(8, 1_000));
        for frame in ["a", "b", "c"] {
            buffer.append(frame, 1);
        }
        buffer.ack_through(2);
        assert_eq!(buffer.tail_after(2).map(|tail| tail.count()), Ok(1));
        let overrun: ResumeOverrun = buffer.tail_after(1).err().expect("an overrun");
        assert_eq!((overrun.after, overrun.oldest, overrun.last), (1, 3, 3));
        assert_eq!(buffer.tail_after(3).map(|tail| tail.count()), Ok(0));
        assert_eq!(buffer.tail_after(u64::MAX).map(|tail| tail.count()), Ok(0));
        // An ack past the last frees everything; the next frame is still 4.
        buffer.ack_through(u64::MAX);
        assert!(buffer.is_empty());
        assert_eq!(buffer.append("d", 1), 4);
    }

    fn the_newest_frame_stays_whatever_its_size_unless_no_frame_may() {
        let mut buffer = ResumeBuffer::new(ResumeLimits::new(8, 10));
        buffer.append("small", 5);
        buffer.append("large", 50);
        assert_eq!((buffer.len(), buffer.retained_bytes(), buffer.oldest_seq()), (1, 50, 2));
        let mut none = ResumeBuffer::new(ResumeLimits::new(0, 10));
        assert_eq!(none.append("a", 1), 1);
        assert!(none.is_empty());
        assert!(none.tail_after(0).is_err());
        assert_eq!(none.tail_after(1).map(|tail| tail.count()), Ok(0));
    }

    fn no_frame_is_lost_or_repeated_across_drops_acks_and_resumes() {
        for seed in 0..64 {
            run(seed, ResumeLimits::new(4, 256), 1_000);
            run(seed ^ 0xA5A5, ResumeLimits::new(64, 100_000), 1_000);
            run(seed ^ 0x5A5A, ResumeLimits::new(32, 96), 500);
        }
    }
}
