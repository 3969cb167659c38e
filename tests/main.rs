//! The integration tests: one binary (as ripgrep's are), one module per subject, the helpers
//! they share in `common/` once. Tests that measure the whole process (its heap, by the counting
//! allocator of [`common::alone`]) run alone in a process of their own.

mod common;

mod audit;
mod bapctools;
mod bounded_memory;
mod ci_examples;
mod ci_output;
mod cli_judge;
mod cli_show;
mod cli_verify;
mod confinement;
mod contest;
mod coverage;
mod fuzz_seeds;
mod hostile;
mod html_report;
mod invalid_input;
mod judge_systems;
mod layers;
mod limits;
mod linear_work;
mod littlesquares;
mod package;
mod pousse;
mod properties;
mod regressions;
mod somegame;
mod toy_game;
