//! The configurations a game has reached, for repetition detection (ICFP rule sets).
//!
//! Memory is O(moves): the moves themselves (so that any earlier board can be rebuilt), and
//! per move a hash-table slot and a link to the previous move with the same key. A key match
//! is only a candidate, confirmed by the caller (rebuilding both boards and comparing their
//! contents), so a hash collision can cost time but never changes a verdict.
//!
//! Keys are checked in batches: a table of 10^6 configurations is far larger than the caches,
//! so each lookup is a cache miss; touching the slots of a whole batch first lets those misses
//! overlap instead of paying for them one after another.

use std::hint::black_box;
use std::thread::JoinHandle;

use super::{Edge, Move};

/// How many recorded keys wait before a batch check.
pub const BATCH: usize = 256;

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
/// Memory per move: 2 bytes of move, 8 of key, and 16-32 of table (8-byte slots, at most half
/// in use); 10^6 moves take about 26 MB. Keeping it small matters more than it seems: fresh
/// memory costs a page fault per 4 KiB, which dominated the first version (16-byte slots
/// plus a chain link per move: 36,000 faults for 10^6 moves, now 10,000).
pub struct History {
    moves: Vec<PackedMove>,
    /// `keys[k - 1]`: the key after move `k`.
    keys: Vec<u64>,
    /// Open addressing with linear probing from the key's top bits (keys are already mixed).
    /// A slot holds the key's high 32 bits (a tag, so that probing past other keys reads no
    /// other memory) above the move number (0: empty slot). Equal keys are all kept (each
    /// match is only a candidate).
    slots: Vec<u64>,
    /// Moves entered in `slots`: `1..=checked`.
    checked: usize,
    /// The next, doubled table, being zeroed and faulted in by a helper thread (see
    /// [`History::check`]).
    next: Option<JoinHandle<Vec<u64>>>,
}

/// The smallest table whose successor is prepared by a helper thread (2^16 slots, 512 KiB).
const PREPARE_FROM: usize = 1 << 16;

/// A zeroed table of `len` slots whose pages are all mapped: a page is written once, which
/// makes the kernel allocate it now rather than at the first insertion into it.
fn mapped_table(len: usize) -> Vec<u64> {
    // `black_box` hides that the memory is known to be zero, so the writes are kept.
    let mut table = black_box(vec![0u64; len]);
    for slot in table.iter_mut().step_by(4096 / std::mem::size_of::<u64>()) {
        *slot = 0;
    }
    table
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
            keys: Vec::new(),
            slots: vec![0; 1024],
            checked: 0,
            next: None,
        }
    }

    /// Records the next move and the key of the configuration after it, unchecked.
    ///
    /// # Panics
    /// Beyond `u32::MAX - 1` moves (the caller refuses such games first).
    #[inline]
    pub fn record(&mut self, mv: Move, key: u64) {
        assert!(
            self.moves.len() < u32::MAX as usize - 1,
            "at most 2^32 - 2 moves"
        );
        self.moves.push(PackedMove::pack(mv));
        self.keys.push(key);
    }

    /// How many recorded keys are unchecked.
    pub fn unchecked(&self) -> usize {
        self.keys.len() - self.checked
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        home(key, self.slots.len())
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
        let mut sink = 0;
        for &key in &self.keys[self.checked..] {
            sink ^= self.slots[self.home(key)];
        }
        black_box(sink);
        // Fresh memory costs a page fault per 4 KiB (~5 us on a virtual machine: more than
        // the whole game at N = 8 when the table is large). Once the table is a quarter full,
        // a helper thread, on another core when there is one, prepares the doubled table.
        let quarter_full = 4 * self.keys.len() > self.slots.len();
        if self.next.is_none() && self.slots.len() >= PREPARE_FROM && quarter_full {
            let len = 2 * self.slots.len();
            self.next = std::thread::Builder::new()
                .name("history-table".into())
                .spawn(move || mapped_table(len))
                .ok();
        }
        let mut found = None;
        'moves: for k in self.checked + 1..=self.keys.len() {
            if 2 * k > self.slots.len() {
                self.grow();
            }
            let key = self.keys[k - 1];
            let mask = self.slots.len() - 1;
            let mut i = self.home(key);
            loop {
                let slot = self.slots[i];
                if slot == 0 {
                    self.slots[i] = (key >> 32 << 32) | k as u64;
                    break;
                }
                let j = slot as u32 as usize;
                if slot >> 32 == key >> 32
                    && self.keys[j - 1] == key
                    && same(&self.moves, j as u64, k as u64)
                {
                    found = Some((k as u64, j as u64));
                    break 'moves;
                }
                i = (i + 1) & mask;
            }
        }
        self.checked = self.keys.len();
        found
    }

    /// Doubles the table (its load stays at most one half). The old slots are read in order
    /// and each is entered at its new home, which its tag gives (a key's home is its top
    /// bits, which the tag holds): both tables are walked front to back, with no random
    /// access to memory and no key read again.
    fn grow(&mut self) {
        let len = 2 * self.slots.len();
        let fresh = match self.next.take().map(JoinHandle::join) {
            Some(Ok(table)) if table.len() == len => table,
            _ => vec![0; len],
        };
        let old = std::mem::replace(&mut self.slots, fresh);
        let mask = len - 1;
        for slot in old.into_iter().filter(|&slot| slot != 0) {
            // Tables of up to 2^32 slots take their home from the tag alone.
            let key = if len <= 1 << 32 {
                slot
            } else {
                self.keys[slot as u32 as usize - 1]
            };
            let mut i = home(key, len);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
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
    fn tables_prepared_by_the_helper_thread_hold_every_key() {
        // 2^18 slots at the end: two doublings into tables prepared by the helper thread.
        let key = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        let mut h = History::new();
        let mv = Move::new(Edge::Right, 1);
        for k in 1..=100_000u64 {
            h.record(mv, key(k));
            if h.unchecked() == BATCH {
                assert_eq!(h.check(|_, _, _| true), None);
            }
        }
        assert!(h.slots.len() >= 4 * PREPARE_FROM);
        h.record(mv, key(77_777));
        assert_eq!(h.check(|_, _, _| true), Some((100_001, 77_777)));
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
