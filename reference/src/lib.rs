//! Deliberately simple reference judges: the second opinion that `referee verify` compares the
//! optimized engines against.
//!
//! Everything here is written to be obviously right rather than fast: plain grids, every
//! quantity recounted from scratch after every move, whole inputs read into memory, and
//! exhaustive search where the engines use theory. This crate shares no code with the engines
//! (it depends on nothing), so a bug would have to be made twice, independently, to go unseen.
//!
//! Error positions use the same convention as the engines: 1-based lines, 1-based byte columns.

#![forbid(unsafe_code)]

pub mod littlesquares;
pub mod pousse;
pub mod somegame;
mod text;

/// Malformed input, as the reference parsers report it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: u64,
    /// 1-based byte column.
    pub column: u64,
    /// 1-based case number in multi-case input.
    pub case: Option<u64>,
    /// What the grammar allows there.
    pub expected: String,
    /// What is there.
    pub found: String,
}

pub mod cases;
