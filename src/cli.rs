//! Command-line parsing and dispatch: parse the arguments, run the library's driver, map the
//! outcome to an exit code. Exit codes follow the contract in `docs/cli.md`: 0 done and all
//! agreed, 1 something disagreed or was invalid, 2 could not run.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, Parser, Subcommand};

use crate::error::{JudgeError, RunError};
use crate::game::{render, rules_from_flag, Engine, Game};
use crate::games::{self, GameName, Visitor};
use crate::knobs::{KnobKind, Knobs};

/// Decides who won: Pousse, LittleSquares and Some Game judged by an optimized engine and
/// cross-examined by an independent reference implementation.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The exit codes, in every `--help`.
const EXIT_CODES: &str = "Exit codes: 0 done, and everything judged agreed; 1 done, but \
    something disagreed or some input was invalid; 2 could not run (bad flags, unreadable \
    paths, unwritable output).";

#[derive(Debug, Subcommand)]
enum Command {
    /// Judge one input in the game's contest format and print the contest's expected output.
    #[command(after_help = EXIT_CODES)]
    Judge(JudgeArgs),
    /// Judge every `*.in` file under the paths with the engine and the reference, compare
    /// with each other and with sibling `.ans` answers, and write CSV reports.
    #[command(after_help = EXIT_CODES)]
    Verify(VerifyArgs),
    /// Combine the reports of `verify --shard` runs into the reports of one unsharded run.
    #[command(after_help = EXIT_CODES)]
    Merge(MergeArgs),
    /// Grade submissions' output files against the engine's verdicts.
    #[command(after_help = EXIT_CODES)]
    Grade(GradeArgs),
    /// Write seeded random inputs from the game's generator to a directory.
    #[command(after_help = EXIT_CODES)]
    Gen(GenArgs),
    /// Hunt for divergences between engine and reference on seeded random cases; shrink and
    /// save the first one found (exit 1).
    #[command(after_help = EXIT_CODES)]
    Stress(StressArgs),
    /// Cross-examine someone else's judge program: run it on input files and seeded random
    /// cases, compare its output with the engine's, and shrink where it is wrong.
    #[command(after_help = EXIT_CODES)]
    Audit(AuditArgs),
}

#[derive(Debug, clap::Args)]
struct AuditArgs {
    /// The game the program judges.
    game: GameName,
    /// The program and its arguments, split into words as a shell would (quotes honoured) and
    /// run directly, not through a shell. It reads one input on standard input and writes the
    /// contest's output on standard output.
    #[arg(long)]
    cmd: String,
    #[arg(long, help = rules_help())]
    rules: Option<String>,
    /// Seed of the random cases; the same seed gives the same cases and findings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many cases, input files included (default 1000 when --time is absent).
    #[arg(long, value_parser = amount, conflicts_with = "time")]
    cases: Option<u64>,
    /// Stop starting runs after this many seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Each run's wall-clock limit, in seconds; the program's whole process group is then
    /// killed (finding kind `timeout`).
    #[arg(long, default_value_t = 2.0)]
    timeout: f64,
    /// The most bytes of standard output read from one run; more is `output-limit`.
    #[arg(long, value_parser = amount, default_value = "16777216")]
    max_output: u64,
    /// Random cases per run, in the game's multi-case form; a failing run is split until one
    /// case fails alone.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    batch: u32,
    /// Runs at once (default: all cores; at most four per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Input files, or directories of `*.in` files, run before the random cases.
    #[arg(long)]
    inputs: Vec<PathBuf>,
    /// Directory for findings.csv, audit.json and each finding's .in, .ans, .out and .err.
    #[arg(long, default_value = "reports/audit")]
    out: PathBuf,
    /// Run the whole budget, keeping one shrunk finding per signature, instead of stopping at
    /// the first.
    #[arg(long)]
    keep_going: bool,
    /// The most findings kept with --keep-going (the rest are counted).
    #[arg(long, default_value_t = 20)]
    max_findings: usize,
    /// Seconds spent shrinking one finding.
    #[arg(long, default_value_t = 30.0)]
    shrink_time: f64,
}

/// A count of steps or bytes, written as a whole number (`2000000000`, `2_000_000_000`) or in
/// exponent notation (`2e9`).
fn amount(text: &str) -> Result<u64, String> {
    let plain = text.replace('_', "");
    if let Ok(v) = plain.parse::<u64>() {
        return Ok(v);
    }
    match plain.parse::<f64>() {
        Ok(v) if v >= 0.0 && v.fract() == 0.0 && v < 1.8e19 => Ok(v as u64),
        _ => Err(format!(
            "'{text}' is not a whole number (like 2000000000 or 2e9)"
        )),
    }
}

/// The help of every `--rules` flag: each game's rule sets and default.
fn rules_help() -> String {
    format!(
        "Rule set, for the games that have them ({})",
        games::rule_sets_help()
    )
}

#[derive(Debug, clap::Args)]
struct JudgeArgs {
    /// The game.
    game: GameName,
    /// The input file; standard input when absent or `-`.
    file: Option<PathBuf>,
    #[arg(long, help = rules_help())]
    rules: Option<String>,
    /// Which implementation judges.
    #[arg(long, value_enum, default_value_t = Engine::Fast)]
    engine: Engine,
    /// Refuse an input longer than this many bytes (it ends with an error, never runs
    /// forever on an endless input).
    #[arg(long, value_parser = amount, default_value = "16e9")]
    max_input_bytes: u64,
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// Files and directories to walk (recursively, in sorted order).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The game of every file; without it each file's game is recognised from its content.
    #[arg(long, value_enum)]
    game: Option<GameName>,
    /// Rule set for the files whose name chooses none (`case.icfp98.in` chooses icfp98).
    #[arg(long, help = rules_help())]
    rules: Option<String>,
    /// Directory for verdicts.csv and mismatches.csv.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Worker threads (default: all cores; at most four per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Judge only the K-th of N disjoint slices of the files (1-based), e.g. `2/4`.
    #[arg(long)]
    shard: Option<crate::walk::Shard>,
    /// The reference is slow by design: skip it (status `reference-skipped`) on cases whose
    /// estimated work exceeds this many elementary steps (board squares visited). Default
    /// 2e9, a few seconds.
    #[arg(long, value_parser = amount, default_value = "2e9")]
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
    /// Rule set for the cases whose name chooses none.
    #[arg(long, help = rules_help())]
    rules: Option<String>,
    /// Worker threads (default: all cores; at most four per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
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
    /// Seed; the same seed, knobs and rule set give the same files.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write each file's `.ans` as judged by the engine.
    #[arg(long)]
    answers: bool,
    #[arg(long, help = rules_help())]
    rules: Option<String>,
    #[command(flatten)]
    knobs: KnobArgs,
}

#[derive(Debug, clap::Args)]
struct StressArgs {
    /// The game.
    game: GameName,
    /// Rule set of every case (default: each case picks one at random).
    #[arg(long, help = rules_help())]
    rules: Option<String>,
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
    /// Run the whole budget, keeping one shrunk divergence per signature, instead of stopping
    /// at the first.
    #[arg(long)]
    keep_going: bool,
    /// The most divergences kept with --keep-going (the rest are counted).
    #[arg(long, default_value_t = 20)]
    max_findings: usize,
    /// Count how often each structural feature of the game (how games end, run lengths,
    /// winning steps, wrapped lines, malformed inputs...) turned up, and print the table.
    #[arg(long)]
    stats: bool,
}

/// The generators' knobs (`--n`, `--rows`, ...), one flag per name across every game; a game
/// takes only its own.
#[derive(Debug, Clone, Default)]
struct KnobArgs(Knobs);

/// Every knob name once, with its kind and the help of every game that has it.
fn all_knobs() -> Vec<(&'static str, KnobKind, String)> {
    let mut out: Vec<(&'static str, KnobKind, String)> = Vec::new();
    for game in games::ALL {
        for knob in game.knobs() {
            let help = format!("{}: {}", game.as_str(), knob.help);
            match out.iter_mut().find(|k| k.0 == knob.name) {
                Some(k) => k.2 = format!("{}; {help}", k.2),
                None => out.push((knob.name, knob.kind, help)),
            }
        }
    }
    out
}

impl clap::FromArgMatches for KnobArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<KnobArgs, clap::Error> {
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for (name, kind, _) in all_knobs() {
            if kind == KnobKind::Switch {
                if matches.get_flag(name) {
                    pairs.push((name, "true"));
                }
            } else if let Some(value) = matches.get_one::<String>(name) {
                pairs.push((name, value));
            }
        }
        Ok(KnobArgs(Knobs::new(pairs)))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = KnobArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for KnobArgs {
    fn augment_args(mut cmd: clap::Command) -> clap::Command {
        for (name, kind, help) in all_knobs() {
            let arg = Arg::new(name).long(name).help(help);
            cmd = cmd.arg(match kind {
                KnobKind::Switch => arg.action(ArgAction::SetTrue),
                KnobKind::Count => arg.value_name("N"),
                KnobKind::Fraction => arg.value_name("0..1"),
            });
        }
        cmd
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        KnobArgs::augment_args(cmd)
    }
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Judge(args) => judge(args),
        Command::Verify(args) => verify(args),
        Command::Merge(args) => merge(args),
        Command::Grade(args) => grade(args),
        Command::Gen(args) => generate(args),
        Command::Stress(args) => stress(args),
        Command::Audit(args) => audit(args),
    };
    outcome.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

/// Exit code 1 when `problems`, else 0.
fn done(problems: bool) -> ExitCode {
    if problems {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A `--rules` value checked against `game` when one is named, else against every game.
fn check_rules(game: Option<GameName>, rules: Option<&str>) -> Result<(), String> {
    struct Check<'a>(Option<&'a str>);
    impl Visitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<G: Game>(self) -> Result<(), String> {
            rules_from_flag::<G>(self.0).map(|_| ())
        }
    }
    match (game, rules) {
        (Some(g), _) => g.visit(Check(rules)),
        (None, Some(name)) => games::check_rule_set_name(name),
        (None, None) => Ok(()),
    }
}

fn judge(args: JudgeArgs) -> Result<ExitCode, RunError> {
    let (name, input): (String, Box<dyn Read>) = match &args.file {
        Some(p) if p.as_os_str() != "-" => {
            let file = File::open(p).map_err(|e| RunError::io(p, e))?;
            (p.display().to_string(), Box::new(file))
        }
        _ => ("<stdin>".into(), Box::new(io::stdin().lock())),
    };
    let mut input = crate::text::Bounded::new(input, args.max_input_bytes);
    struct Judge<'a> {
        name: &'a str,
        input: &'a mut dyn Read,
        engine: Engine,
        rules: Option<&'a str>,
    }
    impl Visitor for Judge<'_> {
        type Output = Result<ExitCode, RunError>;
        fn visit<G: Game>(self) -> Self::Output {
            let rules = rules_from_flag::<G>(self.rules)?;
            match G::judge(self.engine, self.input, rules) {
                Ok(judgements) => {
                    let mut out = io::stdout().lock();
                    out.write_all(render::<G>(&judgements).as_bytes())
                        .and_then(|()| out.flush())
                        .map_err(|e| RunError::Usage(format!("writing the output: {e}")))?;
                    Ok(ExitCode::SUCCESS)
                }
                Err(JudgeError::Input(e)) => {
                    eprintln!("error: {}", e.located(self.name));
                    Ok(ExitCode::from(1))
                }
                Err(e) => Err(RunError::Usage(e.located(self.name))),
            }
        }
    }
    args.game.visit(Judge {
        name: &name,
        input: &mut input,
        engine: args.engine,
        rules: args.rules.as_deref(),
    })
}

fn verify(args: VerifyArgs) -> Result<ExitCode, RunError> {
    check_rules(args.game, args.rules.as_deref())?;
    let settings = crate::verify::Settings {
        reference_budget: args.reference_budget,
        no_reference: args.no_reference,
    };
    let options = [
        ("game", args.game.map_or("", |g| g.as_str()).to_string()),
        ("rules", args.rules.clone().unwrap_or_default()),
        ("reference-budget", args.reference_budget.to_string()),
        ("no-reference", args.no_reference.to_string()),
        ("timings", args.timings.to_string()),
    ];
    let batch = crate::verify::run::Batch {
        paths: args.paths,
        shard: args.shard,
        jobs: args.jobs.map(|j| j as usize),
        out: args.out,
        timings: args.timings,
        options: options
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    };
    let (game, rules) = (args.game, args.rules.as_deref());
    let outcome = crate::verify::run::run(&batch, |file| {
        crate::verify::verify_any(file, &settings, game, rules)
    })?;
    Ok(done(outcome.has_problems()))
}

fn merge(args: MergeArgs) -> Result<ExitCode, RunError> {
    let merged = crate::report::merge::merge(&args.shards, &args.out)?;
    let dir = args.out.display();
    eprintln!(
        "merged {} shards, {} rows ({} mismatches or invalid input) into {dir}/verdicts.csv, \
         {dir}/mismatches.csv, {dir}/{}",
        merged.shards,
        merged.rows,
        merged.problems,
        crate::verify::run::MANIFEST
    );
    Ok(done(merged.problems > 0))
}

fn grade(args: GradeArgs) -> Result<ExitCode, RunError> {
    check_rules(args.game, args.rules.as_deref())?;
    let options = crate::grade::Options {
        game: args.game,
        rules: args.rules,
    };
    let judge_errors = crate::grade::grade(
        &args.cases,
        &args.submissions,
        &options,
        args.jobs.map(|j| j as usize),
        &args.out,
    )?;
    Ok(done(judge_errors > 0))
}

fn generate(args: GenArgs) -> Result<ExitCode, RunError> {
    struct Gen<'a> {
        request: &'a crate::gen::Request,
        rules: Option<&'a str>,
    }
    impl Visitor for Gen<'_> {
        type Output = Result<Vec<PathBuf>, RunError>;
        fn visit<G: Game>(self) -> Self::Output {
            let rules = rules_from_flag::<G>(self.rules)?;
            crate::gen::generate::<G>(self.request, rules)
        }
    }
    let request = crate::gen::Request {
        out: args.out,
        count: args.count,
        seed: args.seed,
        answers: args.answers,
        knobs: args.knobs.0,
    };
    let written = args.game.visit(Gen {
        request: &request,
        rules: args.rules.as_deref(),
    })?;
    eprintln!(
        "gen {}: wrote {} input files{} to {}",
        args.game.as_str(),
        written.len(),
        if args.answers {
            " and their answers"
        } else {
            ""
        },
        request.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn seconds(flag: &str, value: f64) -> Result<Duration, RunError> {
    Duration::try_from_secs_f64(value).map_err(|_| {
        RunError::Usage(format!(
            "{flag} must be a non-negative number of seconds, not {value}"
        ))
    })
}

fn stress(args: StressArgs) -> Result<ExitCode, RunError> {
    let limits = crate::stress::Limits {
        seed: args.seed,
        cases: args.cases,
        time: args.time.map(|t| seconds("--time", t)).transpose()?,
        case_time: seconds("--case-time", args.case_time)?,
        keep_going: args.keep_going,
        max_findings: args.max_findings,
        stats: args.stats,
    };
    struct Stress<'a> {
        limits: crate::stress::Limits,
        rules: Option<&'a str>,
        out: &'a std::path::Path,
    }
    impl Visitor for Stress<'_> {
        type Output = Result<crate::stress::Report, RunError>;
        fn visit<G: Game>(self) -> Self::Output {
            let rules = match self.rules {
                Some(_) => Some(rules_from_flag::<G>(self.rules)?),
                None => None,
            };
            crate::stress::run::<G>(self.limits, rules, self.out)
        }
    }
    let report = args.game.visit(Stress {
        limits,
        rules: args.rules.as_deref(),
        out: &args.out,
    })?;
    let secs = report.elapsed.as_secs_f64();
    let game = args.game.as_str();
    if args.stats {
        let stats = &report.stats;
        let share = |n: u64| 100.0 * n as f64 / stats.cases.max(1) as f64;
        println!("| feature | cases | share |");
        println!("|---|---|---|");
        for (feature, n) in &stats.features {
            println!("| {feature} | {n} | {:.1}% |", share(*n));
        }
        println!(
            "| malformed input | {} | {:.1}% |",
            stats.malformed,
            share(stats.malformed)
        );
        let missing = stats.missing();
        if !missing.is_empty() {
            eprintln!("not reached: {}", missing.join("; "));
        }
    }
    eprintln!(
        "stress {game}: {} cases in {secs:.1} s ({:.0} cases/s), seed {}",
        report.cases,
        report.cases as f64 / secs.max(1e-9),
        args.seed
    );
    if report.findings.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    let rules_flag = args
        .rules
        .as_ref()
        .map_or(String::new(), |r| format!(" --rules {r}"));
    for f in &report.findings {
        let file = f.file.display();
        let case_rules = match f.rules.as_str() {
            "" => String::new(),
            r => format!(" --rules {r}"),
        };
        eprintln!(
            "DIVERGENCE at case {} ({} case{} of this signature; shrunk, written to {file}):",
            f.case,
            f.count,
            if f.count == 1 { "" } else { "s" }
        );
        eprintln!("signature: {}", f.signature);
        eprintln!("{}", f.divergence);
        eprintln!("reproduce:");
        eprintln!("  referee judge {game} {file}{case_rules} --engine fast");
        eprintln!("  referee judge {game} {file}{case_rules} --engine reference");
        eprintln!(
            "  referee stress {game}{rules_flag} --seed {} --cases {}",
            args.seed,
            f.case + 1
        );
        eprintln!(
            "keep it: copy {} into tests/vectors/regressions/{game}/ and write its root cause",
            f.regression.display()
        );
    }
    if report.dropped > 0 {
        eprintln!(
            "{} more divergences of other signatures were not kept (--max-findings)",
            report.dropped
        );
    }
    Ok(ExitCode::from(1))
}

#[cfg(target_os = "linux")]
fn audit(args: AuditArgs) -> Result<ExitCode, RunError> {
    use crate::audit::{program, Kind};
    let program = program::Program::parse(&args.cmd)?;
    let jobs = match args.jobs {
        Some(j) if j as usize > crate::pool::most_jobs() => {
            eprintln!(
                "note: --jobs {j} capped at {} (four per core)",
                crate::pool::most_jobs()
            );
            crate::pool::most_jobs()
        }
        Some(j) => j as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let time = args.time.map(|t| seconds("--time", t)).transpose()?;
    let limits = program::Limits {
        timeout: seconds("--timeout", args.timeout)?,
        max_output: args.max_output.min(usize::MAX as u64) as usize,
        stderr_tail: 4 << 10,
    };
    struct Audit<'a> {
        args: &'a AuditArgs,
        program: program::Program,
        jobs: usize,
        time: Option<Duration>,
        limits: program::Limits,
        shrink_time: Duration,
    }
    impl Visitor for Audit<'_> {
        type Output = Result<(crate::audit::Report, String), RunError>;
        fn visit<G: Game>(self) -> Self::Output {
            let rules = rules_from_flag::<G>(self.args.rules.as_deref())?;
            let settings = crate::audit::Settings {
                program: self.program,
                rules,
                seed: self.args.seed,
                cases: match (self.args.cases, self.time) {
                    (None, None) => Some(1000),
                    (c, _) => c,
                },
                time: self.time,
                limits: self.limits,
                batch: self.args.batch as usize,
                jobs: self.jobs,
                inputs: self.args.inputs.clone(),
                out: self.args.out.clone(),
                keep_going: self.args.keep_going,
                max_findings: self.args.max_findings,
                shrink_time: self.shrink_time,
                reference_budget: crate::verify::DEFAULT_REFERENCE_BUDGET,
            };
            let report = crate::audit::audit::<G>(&settings)?;
            Ok((report, crate::detect::file_suffix(rules)))
        }
    }
    let shrink_time = seconds("--shrink-time", args.shrink_time)?;
    let (report, _) = args.game.visit(Audit {
        args: &args,
        program: program.clone(),
        jobs,
        time,
        limits,
        shrink_time,
    })?;
    let game = args.game.as_str();
    for skipped in &report.skipped {
        eprintln!("skipped {skipped}");
    }
    let secs = report.elapsed.as_secs_f64();
    eprintln!(
        "audit {game}: {} cases in {secs:.1} s ({:.0} cases/s), {} runs of {}",
        report.cases,
        report.cases as f64 / secs.max(1e-9),
        report.runs,
        program.display()
    );
    if report.per_kind.is_empty() {
        eprintln!("no finding");
        return Ok(ExitCode::SUCCESS);
    }
    let counts: Vec<String> = Kind::ALL
        .iter()
        .filter_map(|k| report.per_kind.get(k).map(|n| format!("{k} {n}")))
        .collect();
    eprintln!("failing cases: {}", counts.join(", "));
    let rules_flag = args
        .rules
        .as_ref()
        .map_or(String::new(), |r| format!(" --rules {r}"));
    for f in &report.findings {
        if f.kind == Kind::EngineDisputed {
            eprintln!(
                "ENGINE DISPUTED (finding {}): the reference does not side with referee's engine \
                 on {}: {}",
                f.number,
                f.input.display(),
                f.confirmed
            );
        }
        eprintln!(
            "finding {} ({}, {} case{}): {}",
            f.number,
            f.kind,
            f.count,
            if f.count == 1 { "" } else { "s" },
            f.signature
        );
        eprintln!("  reproduce: {} < {}", program.display(), f.input.display());
        eprintln!(
            "  expected:  referee judge {game} {}{rules_flag}",
            f.input.display()
        );
    }
    eprintln!(
        "reports: {}/findings.csv, {}/{}",
        args.out.display(),
        args.out.display(),
        crate::audit::MANIFEST
    );
    Ok(ExitCode::from(1))
}

#[cfg(not(target_os = "linux"))]
fn audit(_: AuditArgs) -> Result<ExitCode, RunError> {
    Err(RunError::Usage(
        "audit runs programs under Linux only (process groups, pidfd)".into(),
    ))
}
