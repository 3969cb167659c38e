//! `referee gen`: seeded random inputs from a game's generator, written as files (with the
//! engine's answers on request).

mod cases;

pub use cases::*;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::formats::write::AtomicFile;
use crate::game::knobs::{KnobError, Knobs};
use crate::game::Generated;
use crate::game::{case_for_programs, render, Case, Constraints, Engine, Form, Game};
use crate::game::{Forms, Packaged};
use crate::games::detect::file_suffix;
use crate::util::error::{JudgeError, RunError};
use crate::util::random::Rng;

/// What to write.
#[derive(Debug, Clone)]
pub struct Request {
    /// The output directory (created if needed).
    pub out: PathBuf,
    /// How many files.
    pub count: usize,
    /// The seed: the same seed, knobs and rule set give the same files.
    pub seed: u64,
    /// Also write each file's `.ans`, as judged by the engine.
    pub answers: bool,
    /// The generator's knobs.
    pub knobs: Knobs,
    /// Draw from the shape of `audit`'s random cases ([`Case::for_programs`]) inside the
    /// contest's limits, instead of the knobs'.
    pub like_audit: bool,
    /// The form of each file.
    pub form: Form,
    /// Cases per file (more than one in the multi-case form only).
    pub per_file: usize,
}

/// Writes `request.count` inputs of `G` under `rules` and returns how many. File `i` is
/// `GAME-SEED-i.in` (with the rule set's suffix, `.icfp98.in`) and holds cases `i * K` to
/// `i * K + K - 1` (K cases per file), each drawn from its own random stream, so files do not
/// depend on how many are written.
///
/// Refused before any file is written: more files than the file system of `request.out` has
/// room for.
pub fn generate<G: Game + Generated + Forms>(
    request: &Request,
    rules: G::Options,
) -> Result<usize, RunError> {
    check_knobs::<G>(&request.knobs)?;
    if request.per_file > 1 && request.form == Form::Single {
        return Err(GenerateError::PerFileSingle(request.per_file).into());
    }
    if request.like_audit && request.knobs.names().next().is_some() {
        return Err(GenerateError::LikeAuditWithKnobs.into());
    }
    let shape = if request.like_audit {
        G::Case::for_programs(Constraints::Contest)
    } else {
        G::Case::shape(&request.knobs)?
    };
    let per_file = request.per_file.max(1);
    let files = (request.count as u64).saturating_mul(if request.answers { 2 } else { 1 });
    let existing = request
        .out
        .ancestors()
        .find(|dir| dir.is_dir())
        .unwrap_or(Path::new("."));
    if let Some(room) = room_for_files(existing) {
        if files > room {
            return Err(GenerateError::NoRoom {
                count: request.count,
                files,
                out: request.out.clone(),
                room,
            }
            .into());
        }
    }
    fs::create_dir_all(&request.out).map_err(|e| RunError::io(&request.out, e))?;
    let bar = crate::util::pool::progress(request.count, "gen", "files");
    for i in 0..request.count {
        let path = request.out.join(format!(
            "{}-{}-{i:06}{}.in",
            G::NAME,
            request.seed,
            file_suffix(rules)
        ));
        let case = |j: usize| -> Vec<u8> {
            let index = (i * per_file + j) as u64;
            let mut rng = Rng::for_item(request.seed, index);
            if request.like_audit {
                case_for_programs::<G::Case>(&mut rng, index, Some(rules), &shape).input()
            } else {
                G::Case::generate(&mut rng, Some(rules), &shape).input()
            }
        };
        write_file::<G>(&path, request, rules, case)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(request.count)
}

/// Writes file `path` of `request` (its cases `case(0)`, `case(1)`, ..., in the request's
/// form) and its `.ans` when asked, a case at a time: memory bounded by one case, whatever
/// `--per-file`. Each file appears whole or not at all ([`AtomicFile`]): on an error (a full
/// disk) no part of it is left.
fn write_file<G: Game + Forms>(
    path: &Path,
    request: &Request,
    rules: G::Options,
    case: impl Fn(usize) -> Vec<u8>,
) -> Result<(), RunError> {
    let ans_path = path.with_extension("ans");
    let mut input = AtomicFile::create(path).map_err(|e| RunError::io(path, e))?;
    let mut answer = match request.answers {
        true => Some(AtomicFile::create(&ans_path).map_err(|e| RunError::io(&ans_path, e))?),
        false => None,
    };
    let per_file = request.per_file.max(1);
    // Each case judged alone as it is written: the multi-case form's output is its cases' in
    // order ([`Game::join`]).
    let mut failed: Option<RunError> = None;
    let mut cases = (0..per_file).map(|j| {
        let text = case(j);
        if let (Some(answer), None) = (answer.as_mut(), failed.as_ref()) {
            let written = answer_of::<G>(&text, rules)
                .map_err(|source| RunError::Judge {
                    file: path.display().to_string(),
                    source,
                })
                .and_then(|verdict| {
                    let between = if j > 0 { G::BETWEEN } else { "" };
                    write!(answer, "{between}{verdict}").map_err(|e| RunError::io(&ans_path, e))
                });
            if let Err(e) = written {
                failed = Some(e);
            }
        }
        text
    });
    let written = match request.form {
        Form::Single => cases.next().map_or(Ok(()), |text| input.write_all(&text)),
        Form::Multi => G::write_joined(per_file, &mut cases, &mut input),
    };
    drop(cases);
    written.map_err(|e| RunError::io(path, e))?;
    if let Some(e) = failed {
        return Err(e);
    }
    input.commit(false).map_err(|e| RunError::io(path, e))?;
    if let Some(answer) = answer {
        answer
            .commit(false)
            .map_err(|e| RunError::io(&ans_path, e))?;
    }
    Ok(())
}

/// How many more files the file system holding `dir` has room for, when it says: its free
/// inodes, and its free blocks (a file of any content takes one at least).
fn room_for_files(dir: &Path) -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let stats = rustix::fs::statvfs(dir).ok()?;
        // Some file systems (btrfs) report no inode count at all.
        let inodes = if stats.f_files > 0 {
            stats.f_favail
        } else {
            u64::MAX
        };
        Some(inodes.min(stats.f_bavail))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        None
    }
}

/// What `gen` cannot give.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// Several cases a file in the single-case form.
    #[error("--per-file {0} needs --form multi: the single-case form holds one case")]
    PerFileSingle(usize),
    /// Knobs with `--like-audit`.
    #[error("--like-audit draws from audit's shape: no knob goes with it")]
    LikeAuditWithKnobs,
    /// More files than the file system has room for.
    #[error("--count {count}: {files} files, but the file system of {} has room for {room} more", out.display())]
    NoRoom {
        /// The cases asked for.
        count: usize,
        /// The files they take.
        files: u64,
        /// Where they go.
        out: PathBuf,
        /// The files the file system has room for.
        room: u64,
    },
    /// Every draw of the seed and item broke the contest's limits.
    #[error(
        "no {game} case inside the contest's limits in {DRAWS} draws of seed {seed}, item {item}"
    )]
    NoContestCase {
        /// The game.
        game: &'static str,
        /// The seed.
        seed: u64,
        /// The item.
        item: u64,
    },
    /// The game has no package, so no named cases.
    #[error("{game} has no package cases")]
    NoPackage {
        /// The game.
        game: &'static str,
    },
    /// No package case has that name.
    #[error("{game} has no case named '{name}' (its cases: {known})")]
    NoSuchCase {
        /// The game.
        game: &'static str,
        /// The name asked for.
        name: String,
        /// The cases' names, comma-separated.
        known: String,
    },
}

/// The engine's verdicts on `input`, as a `.ans` holds them.
pub fn answer_of<G: Game>(input: &[u8], rules: G::Options) -> Result<String, JudgeError> {
    G::judge(Engine::Fast, &mut &input[..], rules).map(|judgements| render::<G>(&judgements))
}

/// Checks that every knob given is one of `G`'s.
pub fn check_knobs<G: Game + Generated>(knobs: &Knobs) -> Result<(), KnobError> {
    let known = <G::Case as Case>::KNOBS;
    match knobs.names().find(|n| known.iter().all(|k| k.name != *n)) {
        None => Ok(()),
        Some(name) => Err(KnobError::NotThisGames {
            name: name.into(),
            game: G::NAME,
            known: known.iter().map(|k| format!("--{}", k.name)).collect(),
        }),
    }
}

impl crate::util::error::RunRefusal for GenerateError {}
