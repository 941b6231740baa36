//! The index of tool-call ids the orphan scan keeps: a hash table (open addressing, linear
//! probing, at most half full) for expected O(1) per id, which turns itself into an ordered map
//! (O(log n) per id, guaranteed) if a probe ever runs long, as ids crafted to collide would
//! make it. So the scan is linear on ordinary transcripts and never worse than O(n log n).

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

/// A probe longer than this turns the table into an ordered map. With a table at most half
/// full and well-spread hashes, a probe this long has a chance of roughly (0.5·e^0.5)^128,
/// about e^-24, per lookup.
const MAX_PROBE: usize = 128;
/// The smallest table, in slots (a power of two).
const MIN_SLOTS: usize = 64;

/// One filled slot: the id, its hash (compared first, so most probes read no string) and the
/// position of its record.
#[derive(Clone, Copy)]
struct Slot<'m> {
    hash: u64,
    id: &'m str,
    position: usize,
}

enum Table<'m> {
    /// Slots in a power-of-two table; `len` are filled.
    Hashed {
        slots: Vec<Option<Slot<'m>>>,
        len: usize,
    },
    /// The fallback after a long probe.
    Ordered(BTreeMap<&'m str, usize>),
}

/// Maps each id seen to the position of its record (positions are the caller's).
pub(super) struct IdIndex<'m> {
    table: Table<'m>,
}

/// What looking an id up found.
pub(super) enum Probe {
    /// The id is at this position.
    Found(usize),
    /// The id is absent; insert it with [`IdIndex::insert`] before any other change.
    Absent(Vacancy),
}

/// Where an absent id goes (the hash and the free slot, or nothing for the ordered map).
pub(super) struct Vacancy {
    hash: u64,
    slot: Option<usize>,
}

impl<'m> IdIndex<'m> {
    /// An empty index.
    pub(super) fn new() -> Self {
        Self {
            table: Table::Hashed {
                slots: vec![None; MIN_SLOTS],
                len: 0,
            },
        }
    }

    /// Looks `id` up.
    pub(super) fn probe(&mut self, id: &'m str) -> Probe {
        let hash = hash_id(id);
        if let Table::Hashed { slots, .. } = &self.table {
            let mask = slots.len() - 1;
            let start = fold(hash) & mask;
            for step in 0..MAX_PROBE.min(slots.len()) {
                let at = (start + step) & mask;
                match slots.get(at).copied().flatten() {
                    None => {
                        return Probe::Absent(Vacancy {
                            hash,
                            slot: Some(at),
                        });
                    }
                    Some(slot) if slot.hash == hash && slot.id == id => {
                        return Probe::Found(slot.position);
                    }
                    Some(_) => {}
                }
            }
            self.make_ordered();
        }
        match &self.table {
            Table::Ordered(map) => match map.get(id) {
                Some(position) => Probe::Found(*position),
                None => Probe::Absent(Vacancy { hash, slot: None }),
            },
            // `make_ordered` above left no hashed table behind.
            Table::Hashed { .. } => Probe::Absent(Vacancy { hash, slot: None }),
        }
    }

    /// Inserts an id [`probe`](Self::probe) found absent, at `position`.
    pub(super) fn insert(&mut self, id: &'m str, position: usize, vacancy: Vacancy) {
        match (&mut self.table, vacancy.slot) {
            (Table::Hashed { slots, len }, Some(at)) => {
                if let Some(free) = slots.get_mut(at) {
                    *free = Some(Slot {
                        hash: vacancy.hash,
                        id,
                        position,
                    });
                    *len += 1;
                }
                if *len * 2 > slots.len() {
                    self.grow();
                }
            }
            (Table::Ordered(map), _) => {
                map.insert(id, position);
            }
            // A vacancy from before the table turned ordered cannot exist: `probe` hands out
            // slot-less vacancies only once the table is ordered.
            (Table::Hashed { .. }, None) => {
                self.make_ordered();
                if let Table::Ordered(map) = &mut self.table {
                    map.insert(id, position);
                }
            }
        }
    }

    /// Doubles the table and places every slot again (from the stored hashes); a slot that
    /// would land further than [`MAX_PROBE`] from its start turns the table ordered instead.
    fn grow(&mut self) {
        let Table::Hashed { slots, len } = &self.table else {
            return;
        };
        let mut bigger = vec![None; slots.len() * 2];
        let mask = bigger.len() - 1;
        for slot in slots.iter().flatten() {
            let start = fold(slot.hash) & mask;
            let free = (0..MAX_PROBE)
                .map(|step| (start + step) & mask)
                .find(|at| matches!(bigger.get(*at), Some(None)));
            match free.and_then(|at| bigger.get_mut(at)) {
                Some(place) => *place = Some(*slot),
                None => {
                    self.make_ordered();
                    return;
                }
            }
        }
        let len = *len;
        self.table = Table::Hashed { slots: bigger, len };
    }

    /// Moves every id into an ordered map, for good.
    fn make_ordered(&mut self) {
        if let Table::Hashed { slots, .. } = &self.table {
            let map = slots
                .iter()
                .flatten()
                .map(|slot| (slot.id, slot.position))
                .collect();
            self.table = Table::Ordered(map);
        }
    }

    /// True once a long probe has turned the table into an ordered map.
    #[cfg(test)]
    fn is_ordered(&self) -> bool {
        matches!(self.table, Table::Ordered(_))
    }
}

/// The slot index bits of a hash (the high bits are the best mixed).
fn fold(hash: u64) -> usize {
    // Truncation is the point: only the low bits index the table.
    (hash ^ (hash >> 32)) as usize
}

/// A 64-bit hash of an id: 8-byte words folded with a multiply and a rotation, then the
/// SplitMix64 finaliser. Not keyed (the crate reads no entropy), hence the ordered fallback.
fn hash_id(id: &str) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes = id.as_bytes();
    let mut hash = (bytes.len() as u64).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let word = <[u8; 8]>::try_from(word).map_or(0, u64::from_le_bytes);
        hash = (hash ^ word).wrapping_mul(K).rotate_left(29);
    }
    let mut tail = [0_u8; 8];
    for (place, byte) in tail.iter_mut().zip(words.remainder()) {
        *place = *byte;
    }
    hash = (hash ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    hash = (hash ^ (hash >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    hash = (hash ^ (hash >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    hash ^ (hash >> 31)
}

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::{IdIndex, Probe, fold, hash_id};

    /// `count` distinct ids whose hashes share their low 12 bits.
    fn crafted(count: usize) -> Vec<String> {
        (0_u64..)
            .map(|i| format!("crafted-{i}"))
            .filter(|id| fold(hash_id(id)) & 0xFFF == 0x234)
            .take(count)
            .collect()
    }

    /// Inserts every id (all distinct) and checks each is found at its position afterwards.
    fn fill<'m>(index: &mut IdIndex<'m>, ids: &'m [String]) {
        for (position, id) in ids.iter().enumerate() {
            match index.probe(id) {
                Probe::Absent(vacancy) => index.insert(id, position, vacancy),
                Probe::Found(other) => panic!("{id} found at {other} before it was inserted"),
            }
        }
        for (position, id) in ids.iter().enumerate() {
            assert!(
                matches!(index.probe(id), Probe::Found(p) if p == position),
                "{id}"
            );
        }
        assert!(matches!(index.probe("absent"), Probe::Absent(_)));
    }

    #[test]
    fn ordinary_ids_stay_in_the_hash_table() {
        let ids: Vec<String> = (0..20_000).map(|i| format!("call_{i}")).collect();
        let mut index = IdIndex::new();
        fill(&mut index, &ids);
        assert!(!index.is_ordered());
    }

    #[test]
    fn colliding_ids_turn_the_table_ordered_and_lose_nothing() {
        // 300 ids whose hashes share their low 12 bits: they all start probing at one slot of
        // any table up to 4096 slots (300 ids fill 1024), so a probe runs past the limit.
        let ids = crafted(300);
        let mut index = IdIndex::new();
        fill(&mut index, &ids);
        assert!(index.is_ordered());
    }

    #[test]
    fn the_scan_gives_the_same_orphans_after_the_fallback() {
        use crate::agent_core::{
            AssistantMessage, BaseMessage, MessageState, ToolCall, ToolCallFunction, ToolMessage,
            UniversalMessage,
        };

        let base = |id: String| BaseMessage {
            id,
            timestamp: String::from("2026-05-01T12:00:00.000Z"),
            state: MessageState::Complete,
            metadata: None,
        };
        let ids = crafted(300);
        let calls = ids
            .iter()
            .map(|id| ToolCall {
                id: id.clone(),
                function: ToolCallFunction {
                    name: String::from("t"),
                    arguments: String::from("{}"),
                },
            })
            .collect();
        let mut messages = alloc::vec![UniversalMessage::Assistant(AssistantMessage {
            base: base(String::from("a")),
            content: None,
            parts: None,
            tool_calls: Some(calls),
        })];
        // Answer every other call, newest first.
        for id in ids.iter().rev().step_by(2) {
            messages.push(UniversalMessage::Tool(ToolMessage {
                base: base(format!("r-{id}")),
                content: String::from("ok"),
                parts: None,
                tool_call_id: id.clone(),
                name: None,
            }));
        }
        let orphans =
            crate::runtime::reconcile::find_orphan_tool_calls(&messages, None).expect("valid");
        let expected: Vec<&str> = ids.iter().step_by(2).map(String::as_str).collect();
        let found: Vec<&str> = orphans.iter().map(|o| o.tool_call_id()).collect();
        assert_eq!(found, expected);
        // A duplicate among the crafted ids is still refused.
        let mut duplicated = messages.clone();
        duplicated.push(messages[0].clone());
        assert!(crate::runtime::reconcile::find_orphan_tool_calls(&duplicated, None).is_err());
    }

    #[test]
    fn hashes_spread_sequential_ids() {
        let mut buckets = [0_u32; 64];
        for i in 0..64_000 {
            buckets[fold(hash_id(&format!("call-{i}"))) & 63] += 1;
        }
        assert!(
            buckets.iter().all(|&n| (800..1200).contains(&n)),
            "{buckets:?}"
        );
    }
}
