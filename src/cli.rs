//! Command-line parsing and dispatch. Exit codes follow the contract in `shared/specs/cli.md`:
//! 0 done and all agreed, 1 something disagreed or was invalid, 2 could not run.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::game::{render, Game, GameName, Implementation, LittleSquares, Pousse, SomeGame};
use crate::pousse::Rules;

/// Decides who won: Pousse, LittleSquares and Some Game judged by an optimized engine and
/// cross-examined by an independent reference implementation.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Judge one input in the game's contest format and print the contest's expected output.
    Judge(JudgeArgs),
    /// Judge every `*.in` file under the paths with the engine and the reference, compare
    /// with each other and with sibling `.ans` answers, and write CSV reports.
    Verify(VerifyArgs),
    /// Combine the reports of `verify --shard` runs into the reports of one unsharded run.
    Merge(MergeArgs),
    /// Grade submissions' output files against the engine's verdicts.
    Grade(GradeArgs),
    /// Write seeded random inputs (transcripts, grids, boards) to a directory.
    Gen(GenArgs),
    /// Hunt for divergences between engine and reference on seeded random cases; shrink and
    /// save the first one found (exit 1).
    Stress(StressArgs),
}

#[derive(Debug, clap::Args)]
struct StressArgs {
    /// The game.
    game: GameName,
    /// Pousse rule set (default: each case picks one at random).
    #[arg(long, value_parser = clap::value_parser!(RulesArg))]
    rules: Option<RulesArg>,
    /// Seed; the same seed replays the same cases.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many cases (default 10000 when --time is absent).
    #[arg(long)]
    cases: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long)]
    time: Option<f64>,
    /// A case not judged within this many seconds counts as a hang: it is saved (as
    /// `...-hang.in` in --out) and the run stops with exit 1.
    #[arg(long, default_value_t = 10.0)]
    case_time: f64,
    /// Where a shrunk diverging case is written.
    #[arg(long, default_value = "stress-failures")]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct GenArgs {
    /// The game.
    game: GameName,
    /// Output directory (created if needed).
    #[arg(long)]
    out: PathBuf,
    /// How many files.
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// Seed; the same seed and shape give the same files.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write each file's `.ans` as judged by the engine.
    #[arg(long)]
    answers: bool,
    /// Pousse: board size.
    #[arg(long, default_value_t = 8)]
    n: usize,
    /// Pousse: moves per game.
    #[arg(long, default_value_t = 100)]
    moves: usize,
    /// Pousse: draw 80% of the moves from a palette of this many (0: uniform moves).
    #[arg(long, default_value_t = 0)]
    palette: usize,
    /// Pousse: only moves that do not end the game under --rules (long games a judge must
    /// play to the end).
    #[arg(long)]
    undecided: bool,
    /// Pousse: rule set for --undecided and for the file names (`.icfp98.in`).
    #[arg(long, value_parser = clap::value_parser!(RulesArg))]
    rules: Option<RulesArg>,
    /// LittleSquares and Some Game: rows.
    #[arg(long, default_value_t = 4)]
    rows: usize,
    /// LittleSquares and Some Game: columns.
    #[arg(long, default_value_t = 4)]
    cols: usize,
    /// LittleSquares: probability that a square is filled.
    #[arg(long, default_value_t = 0.3)]
    filled: f64,
    /// Some Game: players.
    #[arg(long, default_value_t = 2)]
    players: u64,
    /// Some Game: winning length.
    #[arg(long, default_value_t = 3)]
    k: u64,
    /// Some Game: fraction of squares filled by random play.
    #[arg(long, default_value_t = 0.5)]
    fill: f64,
    /// Some Game: squares rewritten with random values afterwards.
    #[arg(long, default_value_t = 0)]
    perturb: usize,
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// Files and directories to walk (recursively, in sorted order).
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// The game of every file; without it each file's game is recognised from its content.
    #[arg(long, value_enum)]
    game: Option<GameName>,
    /// Pousse rule set for files whose name does not choose one (`case.icfp98.in`).
    #[arg(long, value_parser = clap::value_parser!(RulesArg))]
    rules: Option<RulesArg>,
    /// Directory for verdicts.csv and mismatches.csv.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Judge only the K-th of N disjoint slices of the files (1-based), e.g. `2/4`.
    #[arg(long)]
    shard: Option<crate::walk::Shard>,
    /// The reference is slow by design: skip it (status `reference-skipped`) on cases whose
    /// estimated work exceeds this many elementary steps (board squares visited). Default
    /// 2e9, a few seconds.
    #[arg(long, default_value_t = crate::verify::DEFAULT_REFERENCE_BUDGET)]
    reference_budget: u64,
    /// Do not run the reference at all.
    #[arg(long)]
    no_reference: bool,
    /// Add the engine's time per file (`engine_micros`) to the reports (they are then no
    /// longer byte-identical between runs).
    #[arg(long)]
    timings: bool,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// The `--out` directories of the shard runs.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// Directory for the combined reports.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct GradeArgs {
    /// The cases: `*.in` files (with optional `.ans` answers).
    #[arg(long)]
    cases: PathBuf,
    /// One folder per submission, holding `.out` files laid out like the cases.
    #[arg(long)]
    submissions: PathBuf,
    /// Directory for grades.csv and summary.csv.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// The game of every case; recognised from content when absent.
    #[arg(long, value_enum)]
    game: Option<GameName>,
    /// Pousse rule set for cases whose name does not choose one.
    #[arg(long, value_parser = clap::value_parser!(RulesArg))]
    rules: Option<RulesArg>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
}

#[derive(Debug, clap::Args)]
struct JudgeArgs {
    /// The game.
    game: GameName,
    /// The input file; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Pousse rule set: waterloo, icfp98 or icfp98-board.
    #[arg(long, value_parser = clap::value_parser!(RulesArg))]
    rules: Option<RulesArg>,
    /// Which implementation judges.
    #[arg(long, value_enum, default_value_t = Implementation::Fast)]
    engine: Implementation,
}

/// `--rules`, parsed with the library's names.
#[derive(Debug, Clone, Copy)]
struct RulesArg(Rules);

impl std::str::FromStr for RulesArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        s.parse().map(RulesArg)
    }
}

impl clap::builder::ValueParserFactory for RulesArg {
    type Parser = clap::builder::ValueParser;
    fn value_parser() -> Self::Parser {
        clap::builder::ValueParser::new(|s: &str| s.parse::<RulesArg>())
    }
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Judge(args) => judge(args),
        Command::Verify(args) => verify(args),
        Command::Merge(args) => merge(args),
        Command::Grade(args) => grade(args),
        Command::Gen(args) => generate(args),
        Command::Stress(args) => stress(args),
    }
}

fn stress(args: StressArgs) -> ExitCode {
    use crate::harness::{littlesquares::GridCase, pousse::PousseCase, somegame::BoardCase};
    let seconds = |flag: &str, value: f64| {
        std::time::Duration::try_from_secs_f64(value)
            .map_err(|_| format!("{flag} must be a non-negative number of seconds, not {value}"))
    };
    let durations = (
        args.time.map(|t| seconds("--time", t)).transpose(),
        seconds("--case-time", args.case_time),
    );
    let (time, case_time) = match durations {
        (Ok(time), Ok(case_time)) => (time, case_time),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let limits = crate::stress::Limits {
        seed: args.seed,
        cases: args.cases,
        time,
        case_time,
    };
    let rules = args.rules.map(|r| r.0);
    let suffix = match rules {
        Some(r) if r != Rules::Waterloo => format!(".{r}"),
        _ => String::new(),
    };
    let report = match args.game {
        GameName::Pousse => crate::stress::run::<PousseCase>(limits, rules, &args.out, &suffix),
        GameName::Littlesquares => crate::stress::run::<GridCase>(limits, None, &args.out, ""),
        GameName::Somegame => crate::stress::run::<BoardCase>(limits, None, &args.out, ""),
    };
    let report = match report {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let secs = report.elapsed.as_secs_f64();
    eprintln!(
        "stress {}: {} cases in {secs:.1} s ({:.0} cases/s), seed {}",
        args.game.as_str(),
        report.cases,
        report.cases as f64 / secs.max(1e-9),
        args.seed
    );
    match report.finding {
        None => ExitCode::SUCCESS,
        Some(f) => {
            let file = f.file.display();
            let rules_flag = rules.map_or(String::new(), |r| format!(" --rules {r}"));
            eprintln!("DIVERGENCE at case {} (shrunk, written to {file}):", f.case);
            eprintln!("{}", f.divergence);
            eprintln!("reproduce:");
            eprintln!(
                "  referee judge {} {file}{rules_flag} --engine fast",
                args.game.as_str()
            );
            eprintln!(
                "  referee judge {} {file}{rules_flag} --engine reference",
                args.game.as_str()
            );
            eprintln!(
                "  referee stress {}{rules_flag} --seed {} --cases {}",
                args.game.as_str(),
                args.seed,
                f.case + 1
            );
            ExitCode::from(1)
        }
    }
}

fn generate(args: GenArgs) -> ExitCode {
    use crate::generate as g;
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        return fail(format!("{}: {e}", args.out.display()));
    }
    let rules = args.rules.map_or(Rules::default(), |r| r.0);
    for i in 0..args.count {
        let mut rng = g::Rng::new(crate::pousse::board::mix64(
            args.seed ^ (i as u64).wrapping_mul(0x9E37_79B9),
        ));
        let (text, suffix) = match args.game {
            GameName::Pousse => {
                let shape = g::PousseShape {
                    n: args.n.clamp(1, crate::pousse::MAX_N),
                    moves: args.moves,
                    palette: args.palette,
                    undecided: args.undecided,
                    rules,
                };
                let moves = g::pousse_moves(&mut rng, &shape);
                let suffix = if rules == Rules::Waterloo {
                    String::new()
                } else {
                    format!(".{rules}")
                };
                (g::pousse_transcript(shape.n, &moves), suffix)
            }
            GameName::Littlesquares => (
                g::littlesquares_grid(&mut rng, args.rows.max(1), args.cols.max(1), args.filled),
                String::new(),
            ),
            GameName::Somegame => {
                let shape = g::SomeGameShape {
                    players: args.players.max(1),
                    rows: args.rows.max(1),
                    cols: args.cols.max(1),
                    k: args.k,
                    fill: args.fill,
                    perturb: args.perturb,
                };
                (
                    g::somegame_text(&shape, &g::somegame_cells(&mut rng, &shape)),
                    String::new(),
                )
            }
        };
        let path = args.out.join(format!(
            "{}-{}-{i:06}{suffix}.in",
            args.game.as_str(),
            args.seed
        ));
        let written = std::fs::write(&path, &text).and_then(|()| {
            if !args.answers {
                return Ok(());
            }
            let answer = match args.game {
                GameName::Pousse => {
                    Pousse::judge(Implementation::Fast, &mut text.as_bytes(), rules)
                        .map(|j| render::<Pousse>(&j))
                }
                GameName::Littlesquares => {
                    LittleSquares::judge(Implementation::Fast, &mut text.as_bytes(), ())
                        .map(|j| render::<LittleSquares>(&j))
                }
                GameName::Somegame => {
                    SomeGame::judge(Implementation::Fast, &mut text.as_bytes(), ())
                        .map(|j| render::<SomeGame>(&j))
                }
            };
            std::fs::write(
                path.with_extension("ans"),
                answer.map_err(|e| std::io::Error::other(e.to_string()))?,
            )
        });
        if let Err(e) = written {
            return fail(format!("{}: {e}", path.display()));
        }
    }
    ExitCode::SUCCESS
}

fn verify(args: VerifyArgs) -> ExitCode {
    let options = crate::verify::Options {
        game: args.game,
        rules: args.rules.map_or(Rules::default(), |r| r.0),
        reference_budget: args.reference_budget,
        no_reference: args.no_reference,
    };
    match crate::batch::verify(
        &args.paths,
        &options,
        args.jobs,
        args.shard,
        &args.out,
        args.timings,
    ) {
        Ok(outcome) if outcome.has_problems() => ExitCode::from(1),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

fn merge(args: MergeArgs) -> ExitCode {
    match crate::report::merge(&args.shards, &args.out) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(problems) => {
            eprintln!("merged; {problems} rows are mismatches or invalid input");
            ExitCode::from(1)
        }
        Err(e) => fail(e),
    }
}

fn grade(args: GradeArgs) -> ExitCode {
    let options = crate::grade::Options {
        game: args.game,
        rules: args.rules.map_or(Rules::default(), |r| r.0),
    };
    match crate::grade::grade(
        &args.cases,
        &args.submissions,
        &options,
        args.jobs,
        &args.out,
    ) {
        Ok(judge_errors) if judge_errors > 0 => ExitCode::from(1),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn judge(args: JudgeArgs) -> ExitCode {
    let (name, mut input): (String, Box<dyn Read>) = match &args.file {
        None => ("<stdin>".into(), Box::new(io::stdin().lock())),
        Some(p) if p.as_os_str() == "-" => ("<stdin>".into(), Box::new(io::stdin().lock())),
        Some(p) => match File::open(p) {
            Ok(f) => (p.display().to_string(), Box::new(f)),
            Err(e) => return fail(format!("{}: {e}", p.display())),
        },
    };
    if args.rules.is_some() && args.game != GameName::Pousse {
        return fail("--rules applies to pousse only");
    }
    match args.game {
        GameName::Pousse => {
            let rules = args.rules.map_or(Rules::default(), |r| r.0);
            judge_with::<Pousse>(&name, &mut input, args.engine, rules)
        }
        GameName::Littlesquares => judge_with::<LittleSquares>(&name, &mut input, args.engine, ()),
        GameName::Somegame => judge_with::<SomeGame>(&name, &mut input, args.engine, ()),
    }
}

fn judge_with<G: Game>(
    name: &str,
    input: &mut dyn Read,
    implementation: Implementation,
    options: G::Options,
) -> ExitCode {
    match G::judge(implementation, input, options) {
        Ok(judgements) => {
            if let Some((k, why)) = judgements
                .iter()
                .enumerate()
                .find_map(|(k, j)| G::refusal(j).map(|why| (k + 1, why)))
            {
                return fail(format!("{name}: case {k}: {why}"));
            }
            let mut out = io::stdout().lock();
            match out
                .write_all(render::<G>(&judgements).as_bytes())
                .and_then(|()| out.flush())
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(format!("writing the output: {e}")),
            }
        }
        Err(crate::error::JudgeError::Input(e)) => {
            eprintln!("error: {}", e.located(name));
            ExitCode::from(1)
        }
        Err(e) => fail(e.located(name)),
    }
}
