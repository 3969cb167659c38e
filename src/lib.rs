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

// The layers, lowest first (docs/architecture.md; tests/layers.rs checks them).
// Shared helpers: errors, text, files, the thread pool, hashing, randomness, shards, guards.
pub mod util;
// The game interface every driver is written against.
pub mod game;
// The games, each one folder implementing the game interface.
pub mod littlesquares;
pub mod pousse;
pub mod somegame;
// The list of games: a game's name to its type, and the game of a file.
pub mod games;
// Services of the drivers: reports and their formats, the fuzz and stress harness, the judge
// systems' formats.
pub mod formats;
pub mod harness;
pub mod judge_system;
// The drivers, one folder each.
pub mod audit;
pub mod gen;
pub mod grade;
pub mod package;
pub mod stress;
pub mod verify;
// The command line.
pub mod cli;
