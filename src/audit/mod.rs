//! `referee audit`: cross-examine other people's judge programs, one or a whole contest's.
//!
//! The code is in rooms, each using only the rooms below it (tests/layers.rs checks the order),
//! lowest first: [`terms`] (the words they share: kinds, sources, classes, a run's outcome),
//! [`settings`], [`running`] (every run of a program, and the shares of `--time`), [`cases`] (the
//! data, the probe, the plan of the cases), [`findings`] (a failure until it is a finding:
//! settled, narrowed, shrunk, confirmed; the verdicts), [`entrants`] (the programs, and their
//! builds), [`limits`] (the advice and its repeated runs), [`reports`] (the typed report, its
//! files and page), [`strengthen`], and on top the stages, [`merge`] (the reports of an audit's
//! shards combined) and [`pipeline`].
//!
//! One pipeline ([`pipeline::audit`]) audits any number of programs; auditing one program is a
//! contest of one, in its stages and in its reports. Each program's audit is one value, advanced
//! stage by stage ([`reports::audited`]), and every report is printed from the typed values the
//! stages give ([`reports::report`]):
//!
//! 1. **Data** ([`cases::data`]): the input files (a package's `data/`, or `--inputs`) read once:
//!    their bytes, their answers (`.ans`, else the engine's), their cases and their form. The
//!    problem's input form is `--form`; else, with several programs, the form of that data, else of
//!    the statement's examples; with one program, the form its output fits.
//! 2. **Probe** ([`cases::probe`]): each program runs on the statement's own examples in the
//!    problem's form (with one program and no known form, in each form). The form kept is the one
//!    whose output has the *shape* of an answer (one verdict line per case, each in the game's
//!    output grammar), right or wrong. A program whose output fits no form is wrong whichever form
//!    the contest uses: that attempt is its finding.
//! 3. **Existing data** ([`cases::data`]): each program runs every data file as a judge system runs
//!    it, the file as it is against its answer; the programs expected accepted first, and their CPU
//!    times set the other runs' time limit ([`running::runner::TimeLimit`]).
//! 4. **Cases** ([`stages`]'s schedule): units of cases ([`cases::plan`]: the statement's examples,
//!    the data's cases, then seeded random cases inside the contest's limits, the game's extremes
//!    among them) prepared once and run by every program that still takes cases, `--jobs` runs at
//!    once; the programs the data accepts first. A failing run is examined on the spot
//!    ([`findings::settle`], the stages of a [`findings::failure::Failure`]): narrowed to a case
//!    that fails alone ([`findings::narrow`]), run again, shrunk ([`findings::shrink`]), confirmed by the
//!    reference ([`findings::confirm`]); a program proved wrong stops taking cases unless
//!    `--keep-going`.
//! 5. **Strengthening** ([`strengthen`]): each program's shrunk findings in the problem's
//!    form are candidate data cases, kept only when the contest's validator takes them and no
//!    program that must be accepted fails them; the fewest that reject every wrong program the data
//!    accepts; the data's scores before and after.
//! 6. **Reports** ([`reports::report`], [`reports::page`]): `programs.csv`, each program's
//!    findings, the strengthening cases and `audit.json`, printed from the typed report;
//!    [`merge`] combines the reports of the shards of one audit into those of one run.
//!
//! Every run of a program goes through its [`running::runner::Runner`] (counted, held to the time
//! limit, cut at the deadline or on interruption): the time limit counts CPU time, as judge systems
//! do, and wall-clock time only caps a program that sleeps or blocks, so a busy machine gives the
//! same verdicts as an idle one; the memory the run holds is held to the memory limit. Every
//! program, and every submission's build, runs in the sandbox of the `referee-sandbox` crate
//! (unless `--unconfined`), as a judge system's sandbox runs a submission. An interrupted audit
//! ends every process it started, writes its reports and exits 128 + the signal.
//!
//! The same seed gives the same cases and the same findings whatever `--jobs`: cases are drawn from
//! their own random streams ([`crate::util::random::Rng::for_item`]) and each program's failures are
//! examined in case order.

#[cfg(target_os = "linux")]
pub mod cases;
#[cfg(target_os = "linux")]
pub mod entrants;
pub mod findings;
#[cfg(target_os = "linux")]
pub mod limits;
#[cfg(target_os = "linux")]
pub mod merge;
#[cfg(target_os = "linux")]
pub mod pipeline;
#[cfg(target_os = "linux")]
pub mod reports;
#[cfg(target_os = "linux")]
pub mod running;
#[cfg(target_os = "linux")]
pub mod settings;
#[cfg(target_os = "linux")]
mod stages;
#[cfg(target_os = "linux")]
pub mod strengthen;
pub mod terms;

pub use terms::{Auditable, Kind, Source};
