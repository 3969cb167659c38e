//! A Some Game board as the engine holds it: the header values and the cells, a byte each where
//! every value fits.

/// The largest board (R x C) accepted.
pub const MAX_SQUARES: u64 = 1 << 26;

/// A data set as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataSet {
    /// Players.
    pub players: u64,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Winning length.
    pub k: u64,
    /// Row-major cells. Values above `min(players, rows * cols)` are stored as that bound plus
    /// one: every such board is impossible, whatever the exact value.
    pub cells: Cells,
}

/// A board's cells, one byte each when every stored value fits in one (fewer than 255
/// players, or a board of fewer than 255 squares), else four bytes each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cells {
    /// Values below 256.
    Bytes(Vec<u8>),
    /// Any values.
    Words(Vec<u32>),
}

impl Cells {
    /// Empty storage, of bytes when `largest` (the largest value stored) fits in one.
    pub fn for_values_up_to(largest: u64, capacity: usize) -> Cells {
        if largest <= u64::from(u8::MAX) {
            Cells::Bytes(Vec::with_capacity(capacity))
        } else {
            Cells::Words(Vec::with_capacity(capacity))
        }
    }

    /// Appends `values`, each of which fits the storage.
    pub fn extend_from(&mut self, values: &[u32]) {
        match self {
            Cells::Bytes(cells) => cells.extend(values.iter().map(|&v| {
                debug_assert!(v <= u32::from(u8::MAX));
                v as u8
            })),
            Cells::Words(cells) => cells.extend_from_slice(values),
        }
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        match self {
            Cells::Bytes(cells) => cells.len(),
            Cells::Words(cells) => cells.len(),
        }
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values, widened.
    pub fn to_vec(&self) -> Vec<u32> {
        match self {
            Cells::Bytes(cells) => cells.iter().map(|&v| u32::from(v)).collect(),
            Cells::Words(cells) => cells.clone(),
        }
    }
}

impl From<Vec<u32>> for Cells {
    /// Words, whatever the values (tests build boards this way).
    fn from(values: Vec<u32>) -> Cells {
        Cells::Words(values)
    }
}

impl DataSet {
    /// The largest cell value stored exactly.
    pub fn value_cap(players: u64, squares: u64) -> u64 {
        players.min(squares)
    }
}
