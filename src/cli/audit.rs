//! `referee audit`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use super::{amount, rules_help, seconds, CiArgs, HtmlArgs, ShardArgs};
use crate::error::RunError;
use crate::game::{rules_from_flag, Constraints, Form, Game};
use crate::games::{GameName, Visitor};

#[derive(Debug, clap::Args)]
pub(super) struct AuditArgs {
    /// The game the program judges.
    pub(super) game: GameName,
    /// The program and its arguments, split into words as a shell would (quotes honoured) and
    /// run directly, not through a shell. It reads one input on standard input and writes the
    /// contest's output on standard output. Repeated, or as NAME=COMMAND, several programs are
    /// audited at once on the same cases (programs.csv, a strengthening set).
    #[arg(long, required_unless_present_any = ["programs", "package"])]
    pub(super) cmd: Vec<String>,
    /// A CSV table of programs to audit at once: columns `name`, `command`, and optionally
    /// `expected` (accepted, wrong_answer, time_limit_exceeded, run_time_error, rejected).
    #[arg(long, value_name = "FILE")]
    pub(super) programs: Option<PathBuf>,
    /// A Kattis problem package: its `submissions/<class>/` programs (C, C++, Python 3, Java,
    /// Rust, built into OUT/build) are audited at once, expected in the class of their folder,
    /// on its data (`data/sample`, `data/secret`) first, then on referee's cases.
    #[arg(long, value_name = "DIR")]
    pub(super) package: Option<PathBuf>,
    /// Add the strengthening cases to this package's `data/secret/`, named to sort after the
    /// cases there (never over one). Several programs only.
    #[arg(long, value_name = "DIR")]
    pub(super) add_to: Option<PathBuf>,
    /// The input form every run uses: the game's single-case form, its multi-case form (UVa
    /// 844's for Pousse), or `auto`: the form in which the program answers the statement's
    /// examples, tried before any work (multi when it answers both).
    #[arg(long, value_enum, default_value = "auto")]
    pub(super) form: FormChoice,
    /// The limits of the random cases: `contest`, the original problem's (N <= 100 for Pousse,
    /// even sides 2..10 for LittleSquares, 10,000 squares for Some Game), or `engine`, anything
    /// the engine judges (findings outside the contest's limits say so).
    #[arg(long, value_enum, default_value_t = Constraints::Contest)]
    pub(super) constraints: Constraints,
    /// Exit 1 on flaky findings too (failures that did not come back when run again).
    #[arg(long)]
    pub(super) strict: bool,
    /// Also write the input of every run of the cases into this directory
    /// (`run-NNNNNN.in`), in the program's form, to replay them elsewhere.
    #[arg(long)]
    pub(super) save_runs: Option<PathBuf>,
    #[arg(long, help = rules_help())]
    pub(super) rules: Option<String>,
    /// Seed of the random cases; the same seed gives the same cases and findings.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Stop after this many cases, input files included (default 1000 when --time is absent).
    #[arg(long, value_parser = amount, conflicts_with = "time")]
    pub(super) cases: Option<u64>,
    /// The whole audit's wall-clock budget, in seconds: the cases run for its first three
    /// quarters; narrowing, reproducing and shrinking what they found take the rest.
    #[arg(long)]
    pub(super) time: Option<f64>,
    /// Each run's wall-clock limit, in seconds; the program's whole process group is then
    /// killed (finding kind `timeout`).
    #[arg(long, default_value_t = 2.0)]
    pub(super) timeout: f64,
    /// The most bytes of standard output read from one run; more is `output-limit`.
    #[arg(long, value_parser = amount, default_value = "16777216")]
    pub(super) max_output: u64,
    /// Random cases per run, in the multi-case form (one when the program reads only the
    /// single-case form); a failing run is narrowed to one case that fails alone.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub(super) batch: u32,
    /// Runs at once (default: all cores; at most four per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub(super) jobs: Option<u32>,
    /// Input files, or directories of `*.in` files, run before the random cases.
    #[arg(long)]
    pub(super) inputs: Vec<PathBuf>,
    /// Directory for findings.csv, audit.json and each finding's .in, .ans, .out and .err.
    #[arg(long, default_value = "audit-findings")]
    pub(super) out: PathBuf,
    /// Run the whole budget, keeping one shrunk finding per signature, instead of stopping at
    /// the first.
    #[arg(long)]
    pub(super) keep_going: bool,
    /// The most findings kept with --keep-going (the rest are counted).
    #[arg(long, default_value_t = 20)]
    pub(super) max_findings: usize,
    /// The most seconds spent shrinking one finding (with --time, also at most half the time
    /// left).
    #[arg(long, default_value_t = 30.0)]
    pub(super) shrink_time: f64,
    #[command(flatten)]
    pub(super) sharding: ShardArgs,
    #[command(flatten)]
    pub(super) ci: CiArgs,
    #[command(flatten)]
    pub(super) html: HtmlArgs,
}

/// `--form`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum FormChoice {
    /// The form the program answers, found by the probe.
    Auto,
    /// One case per run.
    Single,
    /// The game's multi-case form.
    Multi,
}

impl FormChoice {
    fn form(self) -> Option<Form> {
        match self {
            FormChoice::Auto => None,
            FormChoice::Single => Some(Form::Single),
            FormChoice::Multi => Some(Form::Multi),
        }
    }
}

/// What every audit of a run takes from the flags, checked.
#[derive(Debug, Clone, Copy)]
pub(super) struct Common {
    pub(super) jobs: usize,
    pub(super) time: Option<Duration>,
    pub(super) limits: crate::audit::program::Limits,
    pub(super) shrink_time: Duration,
    pub(super) shard: Option<crate::shard::Shard>,
}

#[cfg(target_os = "linux")]
impl Common {
    pub(super) fn of(args: &AuditArgs) -> Result<Common, RunError> {
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
        Ok(Common {
            jobs,
            time: args.time.map(|t| seconds("--time", t)).transpose()?,
            limits: crate::audit::program::Limits {
                timeout: seconds("--timeout", args.timeout)?,
                max_output: args.max_output.min(usize::MAX as u64) as usize,
                stderr_tail: 4 << 10,
            },
            shrink_time: seconds("--shrink-time", args.shrink_time)?,
            shard: args.sharding.slice()?,
        })
    }
}

impl AuditArgs {
    /// The settings of an audit of `program` as a judge of `G`.
    #[cfg(target_os = "linux")]
    pub(super) fn settings<G: Game>(
        &self,
        common: &Common,
        program: crate::audit::program::Program,
    ) -> Result<crate::audit::Settings<G::Options>, RunError> {
        Ok(crate::audit::Settings {
            program,
            rules: rules_from_flag::<G>(self.rules.as_deref())?,
            seed: self.seed,
            cases: match (self.cases, common.time) {
                (None, None) => Some(1000),
                (c, _) => c,
            },
            time: common.time,
            limits: common.limits,
            batch: self.batch as usize,
            jobs: common.jobs,
            inputs: self.inputs.clone(),
            out: self.out.clone(),
            keep_going: self.keep_going,
            max_findings: self.max_findings,
            shrink_time: common.shrink_time,
            reference_budget: crate::verify::DEFAULT_REFERENCE_BUDGET,
            shard: common.shard,
            form: self.form.form(),
            constraints: self.constraints,
            save_runs: self.save_runs.clone(),
        })
    }

    /// Whether several programs are audited at once.
    fn several(&self) -> bool {
        self.programs.is_some()
            || self.package.is_some()
            || self.cmd.len() > 1
            || self
                .cmd
                .iter()
                .any(|c| crate::audit::entrants::named(c).is_some())
    }
}

/// `code`, or after an interruption by signal N, `128 + N`, said on standard error with where
/// the reports of what was found before are. Called once, at the end of the run.
#[cfg(target_os = "linux")]
pub(super) fn exit_code(out: &std::path::Path, code: u8) -> ExitCode {
    let Some(signal) = crate::audit::program::interrupted_by() else {
        return ExitCode::from(code);
    };
    eprintln!(
        "interrupted by signal {signal}: every process the audit started ended; the reports in \
         {} hold what was found before (exit {})",
        out.display(),
        128 + signal
    );
    ExitCode::from(128 + signal as u8)
}

#[cfg(target_os = "linux")]
pub(super) fn audit(args: AuditArgs) -> Result<ExitCode, RunError> {
    use crate::audit::{program, Kind};
    if args.several() {
        return super::audit_contest::audit_contest(args);
    }
    if args.add_to.is_some() {
        return Err(RunError::Usage(
            "--add-to needs several programs (--package, --programs, or --cmd NAME=COMMAND)".into(),
        ));
    }
    let program = program::Program::parse(&args.cmd[0])?;
    args.html.check(&args.out)?;
    args.ci.check(&args.out)?;
    let common = Common::of(&args)?;
    struct Audit<'a> {
        args: &'a AuditArgs,
        program: program::Program,
        common: Common,
    }
    impl Visitor for Audit<'_> {
        type Output = Result<(crate::audit::Report, String), RunError>;
        fn visit<G: Game>(self) -> Self::Output {
            let settings = self.args.settings::<G>(&self.common, self.program)?;
            let report = crate::audit::audit::<G>(&settings)?;
            Ok((report, crate::detect::file_suffix(settings.rules)))
        }
    }
    let shard = common.shard;
    let listening = program::interrupt_on_signals()
        .map_err(|e| RunError::Usage(format!("cannot listen for interruptions: {e}")))?;
    let audited = args.game.visit(Audit {
        args: &args,
        program: program.clone(),
        common,
    });
    listening.close();
    let (report, _) = match audited {
        Err(e) => match program::interrupted_by() {
            Some(signal) => {
                eprintln!("interrupted by signal {signal} before any case ran: {e}");
                return Ok(ExitCode::from(128 + signal as u8));
            }
            None => return Err(e),
        },
        Ok(done) => done,
    };
    let game = args.game.as_str();
    for skipped in &report.skipped {
        eprintln!("skipped {skipped}");
    }
    eprintln!("form {}: {}", report.form.form.as_str(), report.form.why);
    if report.form.form == Form::Single && args.batch > 1 {
        eprintln!(
            "note: --batch {} needs the multi-case form; one case per run",
            args.batch
        );
    }
    if report.dropped > 0 {
        eprintln!(
            "note: {} random cases outside the contest's limits dropped",
            report.dropped
        );
    }
    let secs = report.case_time.as_secs_f64();
    eprintln!(
        "audit {game}: {} cases in {secs:.1} s ({}), {} runs of {}; {:.1} s in all",
        report.cases,
        super::rate(report.cases, report.case_time),
        report.runs,
        program.display(),
        report.elapsed.as_secs_f64()
    );
    if report.unexamined > 0 {
        eprintln!(
            "note: {} failing runs not narrowed: --time ran out (the first ones are reported)",
            report.unexamined
        );
    }
    let exit = |code: u8| exit_code(&args.out, code);
    let mut properties = vec![
        ("game".to_string(), game.to_string()),
        ("program".to_string(), program.display()),
        ("seed".to_string(), args.seed.to_string()),
        ("cases".to_string(), report.cases.to_string()),
        ("form".to_string(), report.form.form.as_str().to_string()),
        (
            "constraints".to_string(),
            args.constraints.as_str().to_string(),
        ),
    ];
    if let Some(rules) = &args.rules {
        properties.push(("rules".to_string(), rules.clone()));
    }
    if let Some(shard) = shard {
        properties.push(("shard".to_string(), shard.to_string()));
    }
    let suites = crate::report::ci::findings_suites(
        game,
        &properties,
        &crate::audit::FINDINGS_HEADER,
        &report.rows,
    );
    super::publish(
        &format!("referee audit {game}"),
        &suites,
        &args.ci.output(&args.out, false),
    )?;
    args.html.write(
        || {
            let about = properties
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .chain([format!("findings in {}", args.out.display())])
                .collect();
            crate::report::html::findings_page(
                &format!("referee audit {game}"),
                about,
                &args.out,
                &crate::audit::FINDINGS_HEADER,
                &report.rows,
                &[
                    ("the program's output", "got"),
                    ("the engine's verdict", "expected"),
                ],
            )
        },
        &suites,
    )?;
    if report.per_kind.is_empty() {
        eprintln!("no finding");
        return Ok(exit(0));
    }
    let failing = report
        .findings
        .iter()
        .any(|f| f.kind != Kind::Flaky || args.strict);
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
        eprintln!("  confirmed: {}", f.confirmed);
        if let Some(outside) = &f.outside {
            eprintln!("  outside the contest's limits: {outside}");
        }
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
    if !failing {
        eprintln!("only flaky findings (failures that did not come back): exit 0 without --strict");
        return Ok(exit(0));
    }
    Ok(exit(1))
}

#[cfg(not(target_os = "linux"))]
pub(super) fn audit(_: AuditArgs) -> Result<ExitCode, RunError> {
    Err(RunError::Usage(
        "audit runs programs under Linux only (process groups, pidfd)".into(),
    ))
}
