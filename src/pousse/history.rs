//! The configurations a game has reached, for repetition detection (ICFP rule sets).
//!
//! Memory is O(moves): the moves themselves (so that any earlier board can be rebuilt), and
//! per move its configuration's key and a hash-table slot. A key match
//! is only a candidate, confirmed by the caller (rebuilding both boards and comparing their
//! contents), so a hash collision can cost time but never changes a verdict.
//!
//! Keys are checked in batches: a table of 10^6 configurations is far larger than the caches,
//! so each lookup is a cache miss; touching the slots of a whole batch first lets those misses
//! overlap instead of paying for them one after another. From 2 MiB on the table lives in
//! transparent huge pages (see [`Slots`]), which removes most of its page faults and TLB misses.

use std::hint::black_box;

use memmap2::MmapMut;

use super::{Edge, Move};

/// How many recorded keys wait before a batch check.
pub const BATCH: usize = 256;

/// The most moves a history holds: 2^31 - 1, so that the table (at most half full) has at
/// most 2^32 slots and a key's home (its top bits) is always within the tag a slot keeps.
/// (Such a game needs ~47 GB of history.)
pub const MAX_MOVES: usize = (1 << 31) - 1;

/// A move in two bytes: the edge in bits 12-13, the index minus 1 in bits 0-11 (indices are at
/// most [`MAX_N`](super::MAX_N) = 4096).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedMove(u16);

const _: () = assert!(super::MAX_N <= 1 << 12);

impl PackedMove {
    fn pack(mv: Move) -> PackedMove {
        PackedMove(((mv.edge as u16) << 12) | (mv.index - 1) as u16)
    }

    /// The move.
    pub fn unpack(self) -> Move {
        Move::new(
            Edge::ALL[(self.0 >> 12) as usize],
            (self.0 & 0xFFF) as u32 + 1,
        )
    }
}

/// The history of one game: the moves, the configuration key after each, and a hash table
/// of the checked moves by key.
///
/// Memory per move: 2 bytes of move, 4 of key, and 16-32 of table (8-byte slots, at most half
/// in use; up to 128 while tables grow 8 times at once, below 16 MiB); 10^6 moves take 22 MB
/// (26 MB at the peak, while a growth copies the table). Keeping it small matters more than
/// it seems: fresh memory costs a page fault per 4 KiB, which dominated the first version
/// (16-byte slots plus a chain link per move: 36,000 faults for 10^6 moves); with the table
/// in huge pages and fewer growths, 10^6 moves take ~2,100 faults, most of them for the
/// moves and keys.
pub struct History {
    moves: Vec<PackedMove>,
    /// `low_keys[k - 1]`: the low 32 bits of the key after move `k` (the high 32 are in the
    /// move's slot: together, the whole key).
    low_keys: Vec<u32>,
    /// The whole keys of the unchecked moves `checked + 1..=moves.len()`.
    unchecked_keys: Vec<u64>,
    /// Open addressing with linear probing from the key's top bits (keys are already mixed).
    /// A slot holds the key's high 32 bits (a tag, so that probing past other keys reads no
    /// other memory) above the move number (0: empty slot). Equal keys are all kept (each
    /// match is only a candidate).
    slots: Slots,
    /// Moves entered in `slots`: `1..=checked`.
    checked: usize,
}

/// The slots of a hash table, zeroed: a vector while small; from [`HUGE_FROM`] bytes an
/// anonymous mapping advised to use transparent huge pages (Linux), so that a table of 16 MiB
/// costs 8 page faults instead of 4,096, and its random accesses miss the TLB far less often.
/// Where the mapping or the advice fails, it is still a zeroed table, with small pages.
enum Slots {
    Vec(Vec<u64>),
    Mapped(MmapMut),
}

/// The smallest table (in bytes) kept in huge pages: one huge page.
const HUGE_FROM: usize = 2 << 20;

/// Tables grow 8 times at once up to this many slots (16 MiB), then double. Each growth
/// copies the table and maps a fresh one (page faults, ~3 us per 4 KiB page on this virtual
/// machine), so fewer, larger steps are cheaper: the load stays between 1/16 and 1/2 up to
/// 16 MiB, and at most 1/2 beyond. Against doubling from the start, measured on a 10^6-move
/// N = 8 game and its prefixes: 33,000 moves 4.8 -> 3.5 ms, 140,000 moves 12.5 -> 6.9 ms,
/// 10^6 moves 49 -> 45 ms; the 108,916-move N = 1000 game 14.4 -> 11.7 ms.
const GROW_8_UP_TO: usize = 1 << 21;

impl Slots {
    /// A zeroed table of `len` slots.
    fn zeroed(len: usize) -> Slots {
        let bytes = len * std::mem::size_of::<u64>();
        if bytes >= HUGE_FROM {
            if let Ok(map) = MmapMut::map_anon(bytes) {
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                return Slots::Mapped(map);
            }
        }
        Slots::Vec(vec![0; len])
    }

    fn as_slice(&self) -> &[u64] {
        match self {
            Slots::Vec(v) => v,
            Slots::Mapped(m) => bytemuck::cast_slice(m),
        }
    }

    fn as_mut_slice(&mut self) -> &mut [u64] {
        match self {
            Slots::Vec(v) => v,
            Slots::Mapped(m) => bytemuck::cast_slice_mut(m),
        }
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    /// An empty history.
    pub fn new() -> History {
        History {
            moves: Vec::new(),
            low_keys: Vec::new(),
            unchecked_keys: Vec::with_capacity(BATCH),
            slots: Slots::Vec(vec![0; 1024]),
            checked: 0,
        }
    }

    /// Records the next move and the key of the configuration after it, unchecked.
    ///
    /// # Panics
    /// Beyond [`MAX_MOVES`] moves (the caller refuses such games first).
    #[inline]
    pub fn record(&mut self, mv: Move, key: u64) {
        assert!(self.moves.len() < MAX_MOVES, "at most 2^31 - 1 moves");
        self.moves.push(PackedMove::pack(mv));
        self.low_keys.push(key as u32);
        self.unchecked_keys.push(key);
    }

    /// How many recorded keys are unchecked.
    pub fn unchecked(&self) -> usize {
        self.unchecked_keys.len()
    }

    /// Checks the unchecked keys in move order and returns the first repetition, as
    /// `(move, earlier move)`: a move `k` whose key equals that of an earlier move `j` for
    /// which `same(moves, j, k)` confirms the configurations are equal. Unchecked keys after
    /// a repetition are discarded (the game ended there).
    pub fn check(
        &mut self,
        mut same: impl FnMut(&[PackedMove], u64, u64) -> bool,
    ) -> Option<(u64, u64)> {
        // Bring the home slots of the batch into the cache, misses overlapping.
        let slots = self.slots.as_slice();
        let mut sink = 0;
        for &key in &self.unchecked_keys {
            sink ^= slots[home(key, slots.len())];
        }
        black_box(sink);
        let mut found = None;
        let mut slots = self.slots.as_mut_slice();
        let mut pending = std::mem::take(&mut self.unchecked_keys);
        'moves: for (k, &key) in (self.checked + 1..).zip(&pending) {
            if 2 * k > slots.len() {
                self.grow();
                slots = self.slots.as_mut_slice();
            }
            let mask = slots.len() - 1;
            let mut i = home(key, slots.len());
            loop {
                let slot = slots[i];
                if slot == 0 {
                    slots[i] = (key >> 32 << 32) | k as u64;
                    break;
                }
                let j = slot as u32 as usize;
                if slot >> 32 == key >> 32
                    && self.low_keys[j - 1] == key as u32
                    && same(&self.moves, j as u64, k as u64)
                {
                    found = Some((k as u64, j as u64));
                    break 'moves;
                }
                i = (i + 1) & mask;
            }
        }
        self.checked = self.moves.len();
        pending.clear();
        self.unchecked_keys = pending;
        found
    }

    /// Grows the table (see [`GROW_8_UP_TO`]; its load stays at most one half). The old slots are read in order
    /// and each is entered at its new home, which its tag gives (a key's home is its top
    /// bits, which the tag holds): both tables are walked front to back, with no random
    /// access to memory and no key read again.
    fn grow(&mut self) {
        let old_len = self.slots.as_slice().len();
        let len = if old_len < GROW_8_UP_TO {
            (8 * old_len).min(GROW_8_UP_TO)
        } else {
            2 * old_len
        };
        let mut fresh = Slots::zeroed(len);
        let new = fresh.as_mut_slice();
        let mask = len - 1;
        for &slot in self.slots.as_slice().iter().filter(|&&slot| slot != 0) {
            // The home is within the tag: tables have at most 2^32 slots (see MAX_MOVES).
            let mut i = home(slot, len);
            while new[i] != 0 {
                i = (i + 1) & mask;
            }
            new[i] = slot;
        }
        self.slots = fresh;
    }
}

/// The home slot of `key` in a table of `len` slots (a power of two): the key's top bits.
#[inline]
fn home(key: u64, len: usize) -> usize {
    (key >> 1 >> (63 - len.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pack_into_two_bytes() {
        for edge in Edge::ALL {
            for index in [1, 2, 63, 64, 4095, 4096] {
                let mv = Move::new(edge, index);
                assert_eq!(PackedMove::pack(mv).unpack(), mv);
            }
        }
    }

    #[test]
    fn finds_the_first_confirmed_repetition_across_batches_and_growth() {
        let mut h = History::new();
        let mv = Move::new(Edge::Left, 1);
        // Distinct keys for 5000 moves (the table grows several times), then move 5001
        // repeats move 1234's key, and move 5002 repeats move 10's.
        for k in 1..=5000u64 {
            h.record(mv, k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            if h.unchecked() == BATCH {
                assert_eq!(h.check(|_, _, _| true), None);
            }
        }
        h.record(mv, 1234u64.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        h.record(mv, 10u64.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        assert_eq!(h.check(|_, _, _| true), Some((5001, 1234)));
        assert_eq!(h.unchecked(), 0);
    }

    #[test]
    fn tables_grow_8_times_up_to_16_mib_then_double_and_hold_every_key() {
        // 1024 slots, x8 to 8192, 65,536, 2^19 (4 MiB, huge pages), then x4 to the cap of 2^21
        // slots at move 2^18 + 1, and x2 to 2^22 at move 2^20 + 1.
        let key = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        let mut h = History::new();
        let mv = Move::new(Edge::Right, 1);
        let mut sizes = vec![h.slots.as_slice().len()];
        let moves = (1u64 << 20) + 10_000;
        for k in 1..=moves {
            h.record(mv, key(k));
            if h.unchecked() == BATCH {
                assert_eq!(h.check(|_, _, _| true), None);
                if sizes.last() != Some(&h.slots.as_slice().len()) {
                    sizes.push(h.slots.as_slice().len());
                    // Tables below 2 MiB (2^18 slots) are vectors, larger ones mappings.
                    let huge = h.slots.as_slice().len() >= 1 << 18;
                    assert_eq!(matches!(h.slots, Slots::Mapped(_)), huge);
                }
            }
        }
        assert_eq!(h.check(|_, _, _| true), None);
        assert_eq!(
            sizes,
            [1 << 10, 1 << 13, 1 << 16, 1 << 19, 1 << 21, 1 << 22]
        );
        assert!(matches!(h.slots, Slots::Mapped(_)));
        // A key from before the first growth and one from after the last are both found.
        h.record(mv, key(77));
        assert_eq!(h.check(|_, _, _| true), Some((moves + 1, 77)));
        let mut h = History::new();
        for k in 1..=(1 << 18) + 10 {
            h.record(mv, key(k));
        }
        // One check over all of them: the table grows four times within it.
        h.record(mv, key((1 << 18) + 5));
        assert_eq!(
            h.check(|_, _, _| true),
            Some(((1 << 18) + 11, (1 << 18) + 5))
        );
    }

    #[test]
    fn keys_sharing_their_top_bits_survive_growth() {
        // Equal tags and homes, keys differing in the low bits only: one long probe run that
        // every doubling moves, past the table's end and round to its start.
        for top in [0u64, u64::MAX << 40] {
            let mut h = History::new();
            let mv = Move::new(Edge::Bottom, 3);
            for k in 1..=3000u64 {
                h.record(mv, top | k);
                if h.unchecked() == BATCH {
                    assert_eq!(h.check(|_, _, _| true), None);
                }
            }
            h.record(mv, top | 2999);
            assert_eq!(h.check(|_, _, _| true), Some((3001, 2999)));
        }
    }

    #[test]
    fn unconfirmed_candidates_are_kept_and_all_of_them_tried() {
        let mut h = History::new();
        let mv = Move::new(Edge::Top, 2);
        for _ in 0..4 {
            h.record(mv, 0);
        }
        // Every key collides; only moves 1 and 4 hold the same configuration.
        assert_eq!(h.check(|_, j, k| (j, k) == (1, 4)), Some((4, 1)));
        let mut h = History::new();
        for _ in 0..3 {
            h.record(mv, 7);
        }
        assert_eq!(h.check(|_, _, _| false), None);
        h.record(mv, 7);
        let mut tried = vec![];
        assert_eq!(
            h.check(|_, j, k| {
                tried.push((j, k));
                false
            }),
            None
        );
        tried.sort();
        assert_eq!(tried, vec![(1, 4), (2, 4), (3, 4)]);
        assert_eq!(h.moves.len(), 4);
    }
}
