//! Restores sequence order whatever the delivery order, holding at most `N` items, and reports
//! the seqs it stops waiting for as gaps.

use alloc::vec::Vec;

use core::fmt;
use heapless::Deque;

/// Why a [`ChannelReassembler`] refused an item. Its words (`Display`) reach the peer in a
/// [`ChannelRefusal`](super::ChannelRefusal), so a stale seq says which of three things happened
/// to it: delivered ([`Stale`](Self::Stale)), given up as a gap ([`GivenUp`](Self::GivenUp)), or
/// older than anything the reassembler remembers ([`BelowBase`](Self::BelowBase)).
///
/// Non-exhaustive: a reason may be added in a minor release.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SequenceRefusal {
    /// The seq was already handed out as an item (a repeat of a delivered item).
    #[error("seq {seq} was already delivered")]
    Stale {
        /// The refused seq.
        seq: u32,
    },
    /// The seq was given up: it never arrived while it was waited for, and it is (or was) handed
    /// out as part of a [`SequenceGap`].
    #[error("seq {seq} was given up as a gap")]
    GivenUp {
        /// The refused seq.
        seq: u32,
    },
    /// The seq is below `base`, the oldest seq the reassembler still remembers: below where its
    /// sequence started, or older than the gaps it remembers
    /// ([`GAPS_REMEMBERED`](ChannelReassembler::GAPS_REMEMBERED)), so it cannot say whether the
    /// seq was delivered or given up.
    #[error("seq {seq} is below the base (seq {base}), older than anything remembered")]
    BelowBase {
        /// The refused seq.
        seq: u32,
        /// The oldest seq the reassembler remembers (where its sequence started, or the seq just
        /// after the oldest gap it forgot).
        base: u32,
    },
    /// An item with this seq is already waiting.
    #[error("seq {seq} is already waiting for reassembly")]
    Duplicate {
        /// The refused seq.
        seq: u32,
    },
    /// The seq is `capacity` or more ahead of the next one expected: holding it could need more
    /// than `capacity` items, and no skip ahead took it (see [`WindowFull::SkipAhead`]).
    #[error(
        "seq {seq} is beyond the reassembly window (expecting {expected}, holding at most {capacity} frames)"
    )]
    BeyondWindow {
        /// The refused seq.
        seq: u32,
        /// The seq the reassembler hands out next.
        expected: u32,
        /// How many items it holds at most.
        capacity: usize,
    },
}

impl SequenceRefusal {
    /// True for the refusals of a seq already handed out or given up, or older still
    /// ([`Stale`](Self::Stale), [`GivenUp`](Self::GivenUp), [`BelowBase`](Self::BelowBase)):
    /// the seq will never be taken again (until the sequence is rebased).
    #[must_use]
    pub const fn is_stale(&self) -> bool {
        matches!(
            self,
            Self::Stale { .. } | Self::GivenUp { .. } | Self::BelowBase { .. }
        )
    }

    /// The refused seq, whatever the reason.
    #[must_use]
    pub const fn seq(&self) -> u32 {
        match *self {
            Self::Stale { seq }
            | Self::GivenUp { seq }
            | Self::BelowBase { seq, .. }
            | Self::Duplicate { seq }
            | Self::BeyondWindow { seq, .. } => seq,
        }
    }
}

/// A refused [`ChannelReassembler::push`]: the reason and the item, handed back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{refusal}")]
pub struct ReassemblyRefused<T> {
    /// Why the item was refused.
    pub refusal: SequenceRefusal,
    /// The item, untouched.
    pub item: T,
}

/// What [`ChannelReassembler::push_with`] does with a seq `N` or more ahead of the one
/// expected (the window is full: the seqs before it cannot all be waited for).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum WindowFull {
    /// Stop waiting for just enough of the oldest seqs for the new one to fit: the held ones
    /// among them are handed out, the missing ones reported as a [`SequenceGap`], and the new
    /// item is taken. A channel never stalls on a frame that never comes.
    ///
    /// One seq alone never moves the window far: it is taken only when the items that arrived
    /// bear it out, that is when either
    ///
    /// * it is less than `2 * N` ahead of the expected seq and an item is already held (items
    ///   arrived past the missing seq, so the hole is real), giving up at most `N` seqs; or
    /// * the last seq refused as beyond the window, with no item taken since, is within `N` of it
    ///   and not the same (two items agree the sequence moved on); the refused one is then given
    ///   up too when it is below the new seq.
    ///
    /// Otherwise it is refused as [`SequenceRefusal::BeyondWindow`] and the reassembler keeps
    /// its place (remembering only the refused seq, for the second rule); so one stray seq, even
    /// `u32::MAX`, never makes the in-sequence items after it stale. Also refused when `N` items
    /// are already held, or an item taken by a skip ahead still waits.
    #[default]
    SkipAhead,
    /// Refuse the new item as [`SequenceRefusal::BeyondWindow`] and keep waiting.
    Refuse,
}

/// A run of seqs a [`ChannelReassembler`] stopped waiting for: none of them was ever pushed,
/// and from now on each is refused as [`SequenceRefusal::GivenUp`] (as
/// [`SequenceRefusal::BelowBase`] once the run is older than the
/// [`GAPS_REMEMBERED`](ChannelReassembler::GAPS_REMEMBERED) latest ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SequenceGap {
    /// The first missing seq.
    pub first: u32,
    /// How many seqs are missing from `first` on (at least 1).
    pub count: u32,
}

/// What [`ChannelReassembler::pop`] hands out next, in sequence order.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Reassembled<T> {
    /// The item with the expected seq.
    Item(T),
    /// Seqs that will never be handed out (see [`ChannelReassembler::skip_to`]).
    Gap(SequenceGap),
}

/// Puts items numbered by a `u32` seq back in order: [`push`](Self::push) takes them in any
/// order, [`pop`](Self::pop) hands them out strictly by seq. A seq is never skipped silently:
/// the ones given up ([`skip_to`](Self::skip_to), or a full window under
/// [`WindowFull::SkipAhead`]) come out of `pop` as a [`Reassembled::Gap`] in their place.
///
/// A reassembler is either anchored (it expects a known seq) or unanchored
/// ([`unanchored`](Self::unanchored)): then it holds nothing and the first item pushed, whatever
/// its seq, sets where the sequence starts.
///
/// Memory is bounded by the const capacity `N`: it holds only items whose seq lies in the
/// window `expected .. expected + N`, in `N` slots held inline, and never more than `N` items
/// ([`len`](Self::len)). Anything else is refused and handed back: a seq below the window or
/// given up (stale), one already held (duplicate), one beyond it (unless skipped ahead to). `N`
/// must be at least 1 (checked at compile time).
///
/// To say why a stale seq is refused, it also remembers, inline, the
/// [`GAPS_REMEMBERED`](Self::GAPS_REMEMBERED) latest runs of seqs it gave up (adjacent runs
/// merged): a seq below the expected one is [`SequenceRefusal::GivenUp`] when it lies in one of
/// them, [`SequenceRefusal::BelowBase`] when it is older than what is remembered (below where the
/// sequence started, or below the end of the latest run forgotten), and
/// [`SequenceRefusal::Stale`] (delivered) otherwise.
///
/// Sequence numbers never wrap: once seq `u32::MAX` has been handed out, every seq is stale and
/// [`expected`](Self::expected) is `None`.
pub struct ChannelReassembler<T, const N: usize> {
    /// `None` while unanchored: no position is known and nothing can be held.
    window: Option<Window<T, N>>,
}

/// An anchored reassembler's state.
struct Window<T, const N: usize> {
    /// The next seq to hand out; `2^32` once `u32::MAX` was handed out.
    next: u64,
    /// Seqs below it that are missing are handed out as gaps, not waited for (`<= next` when
    /// nothing is given up).
    release: u64,
    /// A ring: seq `s` of the window `next .. next + N` waits in `slots[s % N]`, so a push and a
    /// pop each touch one slot, found by the seq alone, and nothing moves as the window slides.
    slots: [Option<T>; N],
    /// The one item accepted beyond the slots by a skip ahead: it moves into them as soon as
    /// the seqs before its window are handed out.
    parked: Option<(u32, T)>,
    /// Items in `slots` and `parked`.
    held: usize,
    /// The oldest seq remembered: a seq below it is refused as below the base. Where the
    /// sequence started, then just past the latest gap run forgotten; never above `next`.
    floor: u64,
    /// The latest runs of seqs given up and handed out as gaps, as inclusive `(first, last)`,
    /// oldest first; all at or above `floor` and below `next`.
    given_up: Deque<(u32, u32), GAPS_REMEMBERED>,
    /// The last seq refused as beyond the window under [`WindowFull::SkipAhead`], while no item
    /// was taken since: a seq beyond the window close to it is taken (two items agree).
    far: Option<u32>,
}

/// How many runs of given-up seqs a reassembler remembers
/// ([`ChannelReassembler::GAPS_REMEMBERED`]).
const GAPS_REMEMBERED: usize = 4;

impl<T, const N: usize> Default for ChannelReassembler<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, const N: usize> fmt::Debug for ChannelReassembler<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChannelReassembler")
            .field("anchored", &self.is_anchored())
            .field("expected", &self.expected())
            .field("held", &self.len())
            .field("capacity", &N)
            .finish()
    }
}

/// The ring slot of `seq` (`seq` inside the window).
#[inline]
const fn slot_of<const N: usize>(seq: u64) -> usize {
    (seq % N as u64) as usize
}

impl<T, const N: usize> Window<T, N> {
    const fn at(seq: u32) -> Self {
        Self {
            next: seq as u64,
            release: seq as u64,
            slots: [const { None }; N],
            parked: None,
            held: 0,
            floor: seq as u64,
            given_up: Deque::new(),
            far: None,
        }
    }

    /// The refusal of `seq`, below `release` (and not held): below the base, given up, or
    /// delivered, as far as the reassembler remembers.
    #[cold]
    fn stale(&self, seq: u32) -> SequenceRefusal {
        let at = u64::from(seq);
        if at < self.floor {
            // The floor is a seq (a base, or one past a run that ended below `next`).
            let base = u32::try_from(self.floor).unwrap_or(u32::MAX);
            return SequenceRefusal::BelowBase { seq, base };
        }
        let pending = at >= self.next && at < self.release;
        let remembered = self
            .given_up
            .iter()
            .any(|&(first, last)| (first..=last).contains(&seq));
        if pending || remembered {
            SequenceRefusal::GivenUp { seq }
        } else {
            SequenceRefusal::Stale { seq }
        }
    }

    /// Remembers the run `first ..= last` as given up (merged with the latest run when they
    /// touch); the oldest run is forgotten when all `GAPS_REMEMBERED` are in use, and the floor
    /// moves past it.
    #[cold]
    fn remember(&mut self, first: u32, last: u32) {
        if let Some(latest) = self.given_up.back_mut()
            && u64::from(latest.1) + 1 == u64::from(first)
        {
            latest.1 = last;
            return;
        }
        if self.given_up.is_full()
            && let Some((_, oldest_last)) = self.given_up.pop_front()
        {
            self.floor = u64::from(oldest_last) + 1;
        }
        // Never full here: the oldest run was just forgotten.
        let _ = self.given_up.push_back((first, last));
    }

    /// The items held in the slots, with their seqs, in seq order.
    fn in_slots(&self) -> impl Iterator<Item = (u64, &Option<T>)> {
        (self.next..self.next + N as u64).map(|seq| (seq, &self.slots[slot_of::<N>(seq)]))
    }

    /// Moves the parked item into the slots once its seq is inside the window. Called whenever
    /// `next` moves, so a parked item is always at `next + N` or beyond: a seq inside the window
    /// is never the parked one.
    #[inline]
    fn unpark(&mut self) {
        if self.parked.is_none() {
            return;
        }
        let fits = |(seq, _): &(u32, T)| u64::from(*seq) < self.next + N as u64;
        if let Some((seq, item)) = self.parked.take_if(|parked| fits(parked)) {
            // The parked seq is at or beyond `next` (a gap run never passes it), so its slot
            // is free.
            self.slots[slot_of::<N>(u64::from(seq))] = Some(item);
        }
    }

    /// [`ChannelReassembler::push_with`] of a seq `N` or more ahead of `next`.
    #[cold]
    fn push_beyond(
        &mut self,
        seq: u32,
        item: T,
        full: WindowFull,
    ) -> Result<(), ReassemblyRefused<T>> {
        let refuse = |refusal, item| Err(ReassemblyRefused { refusal, item });
        if self
            .parked
            .as_ref()
            .is_some_and(|(parked, _)| *parked == seq)
        {
            return refuse(SequenceRefusal::Duplicate { seq }, item);
        }
        if u64::from(seq) < self.release {
            return refuse(self.stale(seq), item);
        }
        if full != WindowFull::SkipAhead {
            return refuse(self.beyond(seq), item);
        }
        if self.held < N
            && self.parked.is_none()
            && let Some(release) = self.skip(seq)
        {
            // `release > next`: the seqs before it are given up.
            self.release = self.release.max(release);
            self.parked = Some((seq, item));
            self.held += 1;
            self.far = None;
            return Ok(());
        }
        self.far = Some(seq);
        refuse(self.beyond(seq), item)
    }

    /// Where a skip ahead to `seq` (`N` or more ahead of `next`) releases up to, if the items
    /// that arrived bear it out (see [`WindowFull::SkipAhead`]): an item held and `seq` less
    /// than `2 * N` ahead, or the last far seq refused close to it.
    #[cold]
    fn skip(&self, seq: u32) -> Option<u64> {
        let at = u64::from(seq);
        let window = N as u64;
        // The seqs before the window that ends with `seq` (`at >= next + N`, so no underflow).
        let fit = at + 1 - window;
        if let Some(far) = self.far {
            let apart = u64::from(far).abs_diff(at);
            if apart != 0 && apart <= window {
                // The refused far seq was answered; when below, it is given up with the rest.
                let past_far = if far < seq { u64::from(far) + 1 } else { 0 };
                return Some(fit.max(past_far));
            }
        }
        let near = at - self.next < window.saturating_mul(2);
        (self.held > 0 && near).then_some(fit)
    }

    /// The refusal of `seq` (at or beyond `next`) for want of room.
    #[cold]
    fn beyond(&self, seq: u32) -> SequenceRefusal {
        // `seq >= next`, so `next` is a seq too.
        let expected = u32::try_from(self.next).unwrap_or(u32::MAX);
        SequenceRefusal::BeyondWindow {
            seq,
            expected,
            capacity: N,
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<Reassembled<T>> {
        if let Some(item) = self.slots[slot_of::<N>(self.next)].take() {
            self.next += 1;
            self.held -= 1;
            self.unpark();
            return Some(Reassembled::Item(item));
        }
        if self.next >= self.release {
            return None;
        }
        self.gap()
    }

    /// The run of missing seqs from `next` (whose slot is empty, and `next < release`), up to
    /// the release mark, the next held item or the parked one, whichever comes first.
    #[cold]
    fn gap(&mut self) -> Option<Reassembled<T>> {
        let held_at = self.in_slots().find(|(_, slot)| slot.is_some());
        let mut end = self.release;
        if let Some((seq, _)) = held_at {
            end = end.min(seq);
        }
        if let Some((parked, _)) = &self.parked {
            end = end.min(u64::from(*parked));
        }
        let first = self.next as u32;
        let count = end - self.next;
        // `end <= release <= u32::MAX`: a release mark is at most `seq + 1 - N` or one past a
        // seq below another (see `skip`), or a seq (`skip_to`); so the last missing seq is one.
        self.remember(first, (end - 1) as u32);
        // The slots of the seqs given up are empty, so the ring needs no clearing.
        self.next = end;
        self.unpark();
        // `next < release <= 2^32`, so the first missing seq is a seq and the run fits a u32.
        Some(Reassembled::Gap(SequenceGap {
            first,
            count: count as u32,
        }))
    }
}

impl<T, const N: usize> ChannelReassembler<T, N> {
    /// How many items it holds at most.
    pub const CAPACITY: usize = N;

    /// How many runs of given-up seqs it remembers, to refuse a late seq as
    /// [`SequenceRefusal::GivenUp`] rather than [`SequenceRefusal::Stale`]; older ones are
    /// refused as [`SequenceRefusal::BelowBase`]. Held inline: the memory does not grow.
    pub const GAPS_REMEMBERED: usize = GAPS_REMEMBERED;

    /// An empty reassembler that expects seq 0 first.
    #[must_use]
    pub const fn new() -> Self {
        Self::starting_at(0)
    }

    /// An empty reassembler that expects `seq` first (to resume a sequence space).
    #[must_use]
    pub const fn starting_at(seq: u32) -> Self {
        const { assert!(N > 0, "a reassembler holds at least one item") };
        Self {
            window: Some(Window::at(seq)),
        }
    }

    /// An empty reassembler with no known position: the first item pushed, whatever its seq, is
    /// taken and expected (to join a sequence space already under way, or after a reconnect).
    #[must_use]
    pub const fn unanchored() -> Self {
        const { assert!(N > 0, "a reassembler holds at least one item") };
        Self { window: None }
    }

    /// True once a position is known: anchored at construction, or by the first push.
    #[must_use]
    pub const fn is_anchored(&self) -> bool {
        self.window.is_some()
    }

    /// The seq [`pop`](Self::pop) hands out next (as an item or the start of a gap); `None` while
    /// unanchored, or once `u32::MAX` was handed out.
    #[must_use]
    pub fn expected(&self) -> Option<u32> {
        let window = self.window.as_ref()?;
        u32::try_from(window.next).ok()
    }

    /// How many items are held (waiting for an earlier seq, or ready to pop); never more than
    /// `N`.
    #[must_use]
    pub const fn len(&self) -> usize {
        match &self.window {
            None => 0,
            Some(window) => window.held,
        }
    }

    /// True when nothing is held.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Holds `item` under `seq` until every earlier seq has been popped; a full window is
    /// refused ([`WindowFull::Refuse`]). See [`push_with`](Self::push_with).
    ///
    /// # Errors
    /// As [`push_with`](Self::push_with).
    pub fn push(&mut self, seq: u32, item: T) -> Result<(), ReassemblyRefused<T>> {
        self.push_with(seq, item, WindowFull::Refuse)
    }

    /// Holds `item` under `seq` until every earlier seq has been popped (or given up). An
    /// unanchored reassembler anchors at `seq` first. A seq `N` or more ahead of the expected one
    /// is handled as `full` says.
    ///
    /// # Errors
    /// [`ReassemblyRefused`] with the item: below the window or given up as a gap, `Stale`
    /// (delivered), `GivenUp` or `BelowBase` (older than remembered); `Duplicate` when that seq
    /// is already held; `BeyondWindow` at `expected + N` or later under [`WindowFull::Refuse`],
    /// under [`WindowFull::SkipAhead`] when the items that arrived do not bear a skip out, or
    /// when `N` items are already held. Nothing changes, except that under `SkipAhead` a seq
    /// refused as beyond the window is remembered (the last one only) for a skip ahead the next
    /// far seq may agree with.
    #[inline]
    pub fn push_with(
        &mut self,
        seq: u32,
        item: T,
        full: WindowFull,
    ) -> Result<(), ReassemblyRefused<T>> {
        let window = self.window.get_or_insert_with(|| Window::at(seq));
        let refuse = |refusal, item| Err(ReassemblyRefused { refusal, item });
        // Nothing is held below `next` (the parked item included), so a seq below it is stale.
        let Some(offset) = u64::from(seq).checked_sub(window.next) else {
            return refuse(window.stale(seq), item);
        };
        if offset < N as u64 {
            let slot = &mut window.slots[slot_of::<N>(u64::from(seq))];
            if slot.is_some() {
                return refuse(SequenceRefusal::Duplicate { seq }, item);
            }
            if u64::from(seq) < window.release {
                return refuse(window.stale(seq), item);
            }
            if window.held >= N {
                // Only with an item parked beyond the slots: taking this one would hold `N + 1`.
                return refuse(window.beyond(seq), item);
            }
            *slot = Some(item);
            window.held += 1;
            window.far = None;
            return Ok(());
        }
        window.push_beyond(seq, item, full)
    }

    /// Stops waiting for every seq below `seq`: [`pop`](Self::pop) hands out the held ones and
    /// reports the missing ones as [`Reassembled::Gap`]s, in order, and a later push of one of
    /// them is `Stale`. Does nothing while unanchored or for a seq already given up.
    pub fn skip_to(&mut self, seq: u32) {
        if let Some(window) = &mut self.window {
            window.release = window.release.max(u64::from(seq));
        }
    }

    /// The held items that wait behind a missing seq still waited for, with their seqs, in seq
    /// order: the ones [`pop`](Self::pop) hands out only once that seq arrives or is given up
    /// (and an item taken by a skip ahead, until the seqs before its window are handed out).
    pub fn waiting(&self) -> impl Iterator<Item = (u32, &T)> {
        self.window.iter().flat_map(|window| {
            let release = window.release;
            // Before the first missing seq at or beyond the release mark, everything comes out
            // without waiting.
            let mut waiting = false;
            let slots = window.in_slots().filter_map(move |(seq, slot)| {
                match slot {
                    None if seq >= release => waiting = true,
                    None => {}
                    Some(item) if waiting => return Some((seq as u32, item)),
                    Some(_) => {}
                }
                None
            });
            let parked = window.parked.iter().map(|(seq, item)| (*seq, item));
            slots.chain(parked)
        })
    }

    /// The next item or gap in seq order, if its turn came; the expected seq then moves past it.
    #[inline]
    pub fn pop(&mut self) -> Option<Reassembled<T>> {
        self.window.as_mut()?.pop()
    }

    /// True when [`pop`](Self::pop) hands out something now: the expected seq is held, or
    /// given up as a gap.
    pub(super) fn is_ready(&self) -> bool {
        self.window.as_ref().is_some_and(|window| {
            window.next < window.release || window.slots[slot_of::<N>(window.next)].is_some()
        })
    }

    /// Every held item, in seq order (the gaps before them were never filled).
    #[must_use]
    pub fn into_held(self) -> Vec<T> {
        let Some(mut window) = self.window else {
            return Vec::new();
        };
        let mut held = Vec::with_capacity(window.held);
        for seq in window.next..window.next + N as u64 {
            held.extend(window.slots[slot_of::<N>(seq)].take());
        }
        held.extend(window.parked.map(|(_, item)| item));
        held
    }
}
