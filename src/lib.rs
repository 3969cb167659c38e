//! `referee` decides, in bulk and beyond doubt, who won a game: Pousse, LittleSquares and Some
//! Game transcripts judged by optimized engines and cross-examined by the independent
//! reference implementations of the `referee-reference` crate.
//!
//! A game is one folder ([`pousse`], [`littlesquares`], [`somegame`]) implementing
//! [`game::Game`]; every driver (judge, verify, grade, gen, stress, fuzz, bench) is generic over
//! it, and [`games`] is the one place that turns a game's name into its type. The binary is a
//! thin layer over [`cli`]. No `unsafe` (denied below): the sandbox of the programs audit runs,
//! which needs the kernel's raw calls, is the `referee-sandbox` crate. SIMD goes through `wide`,
//! memory mappings through `memmap2`'s safe anonymous maps. `docs/architecture.md` draws the
//! layers.

// The docs are the developers' (built with --document-private-items): public items may name
// the private ones that implement them.
#![allow(rustdoc::private_intra_doc_links)]
#![deny(unsafe_code)]

pub mod answer;
pub mod audit;
pub mod cli;
pub mod corrupt;
pub mod detect;
pub mod error;
pub mod game;
pub mod games;
pub mod gen;
pub mod grade;
pub mod guard;
pub mod harness;
pub mod hash;
pub mod judge_system;
pub mod knobs;
pub mod littlesquares;
pub mod ordered;
pub mod pool;
pub mod pousse;
pub mod problem;
pub mod random;
pub mod report;
pub mod shard;
pub mod somegame;
pub mod stress;
pub mod text;
pub mod verify;
pub mod view;
pub mod walk;
pub mod watchdog;
