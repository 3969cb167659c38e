//! The board's clone (its buffers kept) and its implementation of the engines' board interface.

use super::*;

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            n: self.n,
            t: self.t,
            words: self.words,
            last_tile: self.last_tile,
            x: self.x.clone(),
            occupied_rows: self.occupied_rows.clone(),
            occupied_cols: self.occupied_cols.clone(),
            rows: self.rows.clone(),
            cols: self.cols.clone(),
            watch_rows: self.watch_rows.clone(),
            watch_cols: self.watch_cols.clone(),
            straights: self.straights,
            hashing: self.hashing,
            hash: self.hash,
            touched: self.touched.clone(),
        }
    }

    /// Copies `source` into this board's own storage, allocating nothing when the sizes agree
    /// (the case generators try many moves on a scratch copy of one board).
    fn clone_from(&mut self, source: &Board) {
        self.n = source.n;
        self.t = source.t;
        self.words = source.words;
        self.last_tile = source.last_tile;
        self.x.clone_from(&source.x);
        self.occupied_rows.clone_from(&source.occupied_rows);
        self.occupied_cols.clone_from(&source.occupied_cols);
        self.rows.clone_from(&source.rows);
        self.cols.clone_from(&source.cols);
        self.watch_rows.clone_from(&source.watch_rows);
        self.watch_cols.clone_from(&source.watch_cols);
        self.straights = source.straights;
        self.hashing = source.hashing;
        self.hash = source.hash;
        self.touched.clone_from(&source.touched);
    }
}
impl BoardRepr for Board {
    fn empty(n: usize, hashing: bool) -> Board {
        Board::new(n, hashing).expect("the caller checked the size")
    }
    #[inline]
    fn play_unchecked(&mut self, mv: Move, mover: Colour) {
        Board::play_unchecked(self, mv, mover)
    }
    #[inline]
    fn straights(&self) -> (u32, u32) {
        Board::straights(self)
    }
    #[inline]
    fn contents_hash(&self) -> u64 {
        self.hash
    }
    fn same_contents(&self, other: &Board) -> bool {
        Board::same_contents(self, other)
    }
    fn markers(&self) -> u32 {
        self.occupied_rows.iter().map(|w| w.count_ones()).sum()
    }
}
