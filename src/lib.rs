//! `referee` decides, in bulk and beyond doubt, who won a game: Pousse, LittleSquares and Some
//! Game transcripts judged by optimized engines and cross-examined by the independent
//! reference implementations of the `referee-reference` crate.
//!
//! The binary is a thin layer over [`cli`]; every driver is generic over [`game::Game`].
//! No `unsafe` anywhere (forbidden below): SIMD goes through `wide`, memory mappings through
//! `memmap2`'s safe anonymous maps.

#![forbid(unsafe_code)]

pub mod batch;
pub mod cli;
pub mod detect;
pub mod error;
pub mod game;
pub mod generate;
pub mod grade;
pub mod harness;
pub mod littlesquares;
pub mod pousse;
pub mod report;
pub mod somegame;
pub mod stress;
pub mod text;
pub mod verify;
pub mod walk;

use error::{InputError, JudgeError, Position};

/// A reference parser's error in the engine's error type.
pub(crate) fn reference_error(e: referee_reference::ParseError) -> JudgeError {
    JudgeError::Input(InputError::new(
        Position::new(e.line, e.column),
        e.case,
        e.expected,
        e.found,
    ))
}
