//! The resume buffer: the outbound frames a reconnecting client may still ask for, stamped with
//! a monotonic seq, bounded by a frame count and a byte budget.

use alloc::collections::VecDeque;

/// The bounds of a [`ResumeBuffer`]: it never holds more than `max_frames` frames, nor, once it
/// holds two or more, more than `max_bytes` bytes of them (the newest frame is kept alone
/// whatever its size, unless `max_frames` is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResumeLimits {
    /// The most frames retained.
    pub max_frames: usize,
    /// The most bytes retained, as the caller sizes its frames.
    pub max_bytes: usize,
}

impl ResumeLimits {
    /// The reference's bounds: 512 frames and 4 MiB.
    pub const DEFAULT: Self = Self {
        max_frames: 512,
        max_bytes: 4 * 1024 * 1024,
    };

    /// Bounds of `max_frames` frames and `max_bytes` bytes.
    #[must_use]
    pub const fn new(max_frames: usize, max_bytes: usize) -> Self {
        Self {
            max_frames,
            max_bytes,
        }
    }
}

impl Default for ResumeLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A resume asked for frames that are no longer retained: some frame after the client's last
/// seq was acknowledged or evicted. The client must be told (the protocol's `resume_gap`), never
/// sent a tail with a hole in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "frames after seq {after} are no longer retained (the oldest retained is {oldest}, the last \
     stamped {last})"
)]
#[non_exhaustive]
pub struct ResumeOverrun {
    /// The seq the client said it had seen last.
    pub after: u64,
    /// The oldest seq still retained (the last stamped plus one when none is).
    pub oldest: u64,
    /// The last seq stamped.
    pub last: u64,
}

/// One retained frame and the size its caller gave it.
#[derive(Clone, Debug)]
struct Retained<T> {
    frame: T,
    size: usize,
}

/// The outbound frames of one session, each stamped with the next seq (the first is 1), kept
/// until the client acknowledges them or the bounds evict them, so that a client that drops
/// and reconnects gets every frame after the last one it saw, in order and once, or is told
/// that it cannot ([`ResumeOverrun`]).
///
/// Sans-IO and generic over the frame `T` (the protocol keeps its wire text): the caller sizes
/// each frame when it appends it. The retained seqs are always consecutive, ending at
/// [`last_seq`](Self::last_seq), so a tail is found without a search.
///
/// When to call what: [`append`](Self::append) for every frame sent (or held for a client
/// away), [`ack_through`](Self::ack_through) when the client acknowledges, and
/// [`tail_after`](Self::tail_after) when it resumes.
#[derive(Clone, Debug)]
pub struct ResumeBuffer<T> {
    frames: VecDeque<Retained<T>>,
    last_seq: u64,
    retained_bytes: usize,
    limits: ResumeLimits,
}

impl<T> ResumeBuffer<T> {
    /// An empty buffer within `limits`; no seq stamped yet (the last seq is 0).
    #[must_use]
    pub const fn new(limits: ResumeLimits) -> Self {
        Self {
            frames: VecDeque::new(),
            last_seq: 0,
            retained_bytes: 0,
            limits,
        }
    }

    /// The bounds it keeps.
    #[must_use]
    pub const fn limits(&self) -> ResumeLimits {
        self.limits
    }

    /// The last seq stamped (0 before the first frame).
    #[must_use]
    pub const fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// How many frames are retained.
    #[must_use]
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// True when no frame is retained.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The bytes the retained frames were sized at, in all.
    #[must_use]
    pub const fn retained_bytes(&self) -> usize {
        self.retained_bytes
    }

    /// The oldest seq retained, or the next seq to stamp when none is.
    #[must_use]
    pub fn oldest_seq(&self) -> u64 {
        // The retained seqs are consecutive and end at `last_seq`.
        self.last_seq + 1 - self.frames.len() as u64
    }

    /// The retained frames with their seqs, oldest first.
    pub fn retained(&self) -> impl ExactSizeIterator<Item = (u64, &T)> + '_ {
        let oldest = self.oldest_seq();
        self.frames
            .iter()
            .enumerate()
            .map(move |(at, retained)| (oldest + at as u64, &retained.frame))
    }

    /// Stamps `frame` with the next seq and retains it, sized `size` bytes, then evicts the
    /// oldest frames until the bounds hold again. Returns the seq.
    pub fn append(&mut self, frame: T, size: usize) -> u64 {
        self.last_seq += 1;
        self.frames.push_back(Retained { frame, size });
        self.retained_bytes = self.retained_bytes.saturating_add(size);
        while self.frames.len() > self.limits.max_frames
            || (self.retained_bytes > self.limits.max_bytes && self.frames.len() > 1)
        {
            self.drop_oldest();
        }
        self.last_seq
    }

    /// Frees every frame up to and including `seq`: the client has them. A seq at or below
    /// what was already freed frees nothing; one past the last seq frees everything.
    pub fn ack_through(&mut self, seq: u64) {
        let acked = seq.min(self.last_seq).saturating_sub(self.oldest_seq() - 1);
        for _ in 0..acked {
            self.drop_oldest();
        }
    }

    /// The frames after `after` (the last seq the client saw), oldest first: empty when the
    /// client saw everything (or claims a seq not stamped yet).
    ///
    /// # Errors
    /// [`ResumeOverrun`] when a frame after `after` is no longer retained.
    pub fn tail_after(
        &self,
        after: u64,
    ) -> Result<impl ExactSizeIterator<Item = (u64, &T)> + '_, ResumeOverrun> {
        let oldest = self.oldest_seq();
        if after.saturating_add(1) < oldest {
            return Err(ResumeOverrun {
                after,
                oldest,
                last: self.last_seq,
            });
        }
        let skip = usize::try_from(after.saturating_add(1) - oldest).unwrap_or(usize::MAX);
        Ok(self.retained().skip(skip))
    }

    fn drop_oldest(&mut self) {
        if let Some(oldest) = self.frames.pop_front() {
            self.retained_bytes = self.retained_bytes.saturating_sub(oldest.size);
        }
    }
}

impl<T> Default for ResumeBuffer<T> {
    /// An empty buffer within [`ResumeLimits::DEFAULT`].
    fn default() -> Self {
        Self::new(ResumeLimits::DEFAULT)
    }
}
