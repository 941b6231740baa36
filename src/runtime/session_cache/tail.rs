//! Bounded-tail wake ([`bounded_tail`]): the smallest self-contained tail of a branch a
//! stateless runner needs to resume.

/// One entry of a session tree branch, as far as [`bounded_tail`] needs to see it.
///
/// The crate has no tree-entry type of its own (the tree belongs to the runtime that keeps the
/// transcript), so a host implements this on its entry type: an id, and, on a compaction entry,
/// the id of the first entry the compaction kept (everything before that entry is folded into
/// the compaction's summary).
pub trait TreeEntry {
    /// The entry's id, unique within its tree.
    fn entry_id(&self) -> &str;

    /// On a compaction entry, the id of the first entry it kept (`firstKeptEntryId`); `None` on
    /// every other entry.
    fn compaction_floor(&self) -> Option<&str>;
}

impl<T: TreeEntry + ?Sized> TreeEntry for &T {
    fn entry_id(&self) -> &str {
        (**self).entry_id()
    }

    fn compaction_floor(&self) -> Option<&str> {
        (**self).compaction_floor()
    }
}

/// What [`bounded_tail`] found: a suffix of the branch and the floor it starts at.
#[derive(Debug, PartialEq, Eq)]
pub struct BoundedTail<'a, T> {
    /// The entries from the floor to the leaf (the whole branch when there is no floor).
    pub tail: &'a [T],
    /// The latest compaction's first kept entry id, which is `tail[0]`'s id; `None` when the
    /// branch was never compacted or that entry is not on the branch.
    pub floor_entry_id: Option<&'a str>,
}

// Derived `Clone`/`Copy` would require `T: Clone`; the value is two borrows.
impl<T> Clone for BoundedTail<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for BoundedTail<'_, T> {}

/// The bounded tail of a branch given root→leaf (`boundedTail`).
///
/// Finds the **latest** compaction on the branch (the one nearest the leaf) and returns the
/// entries from its first kept entry to the leaf, with that entry's id as the floor: the
/// surviving compaction summary plus every entry kept after it. Everything before the floor is
/// already folded into that summary, so it can stay cold in storage, and a context built from
/// the tail is the context built from the whole branch (the property tests of
/// `tests/suites/session_cache.rs` check this with a toy context builder).
///
/// When the branch was never compacted, or the latest compaction's floor is not on the branch at
/// or before that compaction (which a real branch never has), the whole input comes back with no
/// floor, so a caller can always use the result as it is. An earlier compaction is never used
/// as a fallback: its summary is superseded by the latest one.
///
/// Pure, one backward scan (each entry is looked at once at most), no allocation: the tail is a
/// slice of the input.
#[must_use]
pub fn bounded_tail<T: TreeEntry>(path: &[T]) -> BoundedTail<'_, T> {
    let whole = BoundedTail {
        tail: path,
        floor_entry_id: None,
    };
    let mut floor: Option<&str> = None;
    for (index, entry) in path.iter().enumerate().rev() {
        if floor.is_none() {
            floor = entry.compaction_floor();
        }
        if let Some(floor_id) = floor
            && entry.entry_id() == floor_id
        {
            return match path.get(index..) {
                Some(tail) => BoundedTail {
                    tail,
                    floor_entry_id: Some(entry.entry_id()),
                },
                None => whole,
            };
        }
    }
    whole
}
