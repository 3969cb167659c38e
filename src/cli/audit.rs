//! `referee audit`: the flags, the programs (commands, a table, a package's submissions) and the
//! settings of [`crate::audit::pipeline::audit`]; the summary is [`super::audit_summary`]'s.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{amount, limit_seconds, rules_help, seconds, CiArgs, HtmlArgs, ShardArgs};
use crate::game::AnyGame;
use crate::game::{rules_from_flag, Constraints, Form, Game};
use crate::games::{GameName, Visitor};
use crate::util::error::RunError;

#[derive(Debug, clap::Args)]
pub(super) struct AuditArgs {
    /// What ends every run of the audit at once (on a signal: [`Interrupt::on_signals`]).
    ///
    /// [`Interrupt::on_signals`]: referee_sandbox::Interrupt::on_signals
    #[arg(skip)]
    pub(super) interrupt: referee_sandbox::Interrupt,
    /// The game the program judges.
    pub(super) game: GameName,
    /// The program and its arguments, split into words as a shell would (quotes honoured) and
    /// run directly, not through a shell. It reads one input on standard input and writes the
    /// contest's output on standard output. NAME=COMMAND names it (else it is named after the
    /// file it runs); repeated, several programs are audited at once on the same cases.
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
    /// cases there (never over one), and the advised time and memory limits (--repeat) to its
    /// problem.yaml (`limits`) or the tests of DMOJ's init.yml (`time`, `memory`), saying what
    /// changed and what to enter on DMOJ's site. Not
    /// with --shard (merge the shards; their cases are in the merged tests/).
    #[arg(long, value_name = "DIR")]
    pub(super) add_to: Option<PathBuf>,
    /// The problem's input form, which every run uses: the game's single-case form, its
    /// multi-case form (UVa 844's for Pousse), or `auto`: with several programs the form of
    /// the existing data, else of the statement's examples; with one program, the form in
    /// which its output has the shape of an answer to the statement's examples (multi when
    /// both do).
    #[arg(long, value_enum, default_value = "auto")]
    pub(super) form: FormChoice,
    /// The limits of the random cases: `contest`, the original problem's (N <= 100 for Pousse,
    /// even sides 2..10 for LittleSquares, 10,000 squares for Some Game), or `engine`, anything
    /// the engine judges (findings outside the contest's limits say so).
    #[arg(long, value_enum, default_value_t = Constraints::Contest)]
    pub(super) constraints: Constraints,
    /// Flaky findings (failures that did not come back when run again) are a line of the
    /// package's verdict too, and exit 1.
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
    /// The most cases each program runs, the statement's examples and the input files'
    /// included (default 1000 when --time is absent).
    #[arg(long, value_parser = amount, conflicts_with = "time")]
    pub(super) cases: Option<u64>,
    /// The whole run's wall-clock budget, in seconds: the existing data's runs take at most its
    /// first half, the repeated runs (--repeat) a tenth more, the cases run until three
    /// quarters, narrowing, reproducing and shrinking what they found until nine tenths, the
    /// strengthening the rest; the findings end earlier when the strengthening's screening
    /// needs it (its reserve, measured from the programs' runs).
    #[arg(long)]
    pub(super) time: Option<f64>,
    /// The CPU time a run may take, in seconds: the user and system time of the program's
    /// process group (and the children it waited for), as judge systems count it; past it the
    /// whole group is killed (finding kind `timeout`). Its wall-clock time is capped at three
    /// times that, not counting its waits for a CPU (a program that sleeps or blocks). With
    /// programs expected accepted, the limit is set lower from their CPU times on the existing
    /// data, as judge systems set it.
    #[arg(long, default_value_t = 2.0)]
    pub(super) timeout: f64,
    /// Runs of each program expected accepted, to time out or to run out of memory on each data
    /// file, for the advice on the problem's limits: CPU time and peak memory each run, their
    /// spread the noise. 0: no advice; at most 100. With --time, they take at most a tenth of
    /// it.
    #[arg(long, value_name = "K", default_value_t = crate::audit::limits::DEFAULT_REPEAT as u16, value_parser = clap::value_parser!(u16).range(..=100))]
    pub(super) repeat: u16,
    /// The most bytes of standard output read from one run; more is `output-limit`. A confined
    /// program's scratch (its `/tmp`, HOME and TMPDIR) holds as much, and no file it writes is
    /// larger.
    #[arg(long, value_parser = amount, default_value = "16777216")]
    pub(super) max_output: u64,
    /// The memory the processes of one run may hold together, in MiB (their resident sets, read
    /// while they run, and the largest one's high-water mark); more is `memory-limit`. The
    /// stack may grow as large. Default: the package's `limits.memory` (problem.yaml), else
    /// 2048, Kattis' default.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub(super) memory: Option<u64>,
    /// The CPU time one submission's build may take, in seconds (its wall-clock time capped at
    /// three times that); past it, or past its memory (the memory limit, at least 2048 MiB),
    /// the submission is `compile-error`.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub(super) compile_time: f64,
    /// A file or directory every program may read, besides the system's directories and its
    /// own files (the paths its command names); repeatable. For a judge that reads a file
    /// beside it.
    #[arg(long, value_name = "PATH")]
    pub(super) allow_read: Vec<PathBuf>,
    /// A cgroup v2 directory you may manage (a subtree delegated to you), under which each
    /// run's control group is made: the kernel's accounting for a normal user
    /// (docs/security.md). By default referee's own group, where it may write there.
    #[arg(
        long,
        value_name = "DIR",
        env = "REFEREE_CGROUP",
        conflicts_with = "unconfined"
    )]
    pub(super) cgroup: Option<PathBuf>,
    /// Run the programs with the auditor's rights, outside the sandbox: for programs you trust,
    /// on a kernel without a mechanism the sandbox needs (docs/security.md). Their limits
    /// (time, memory, output) still hold.
    #[arg(long, conflicts_with = "allow_read")]
    pub(super) unconfined: bool,
    /// Random cases per run, in the multi-case form (one in the single-case form); a failing
    /// run is narrowed to one case that fails alone. Default 20.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub(super) batch: Option<u32>,
    /// Runs at once (default: all cores; at most four per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub(super) jobs: Option<u32>,
    /// The existing data: input files, or directories of `*.in` files, run as a judge system
    /// runs them, then read as cases.
    #[arg(long)]
    pub(super) inputs: Vec<PathBuf>,
    /// Directory for the reports: programs.csv, audit.json, tests/ (the strengthening cases)
    /// and programs/NAME/ (each program's findings.csv, and each finding's .in, .ans, .out and
    /// .err); replaced as a whole. Not inside --package, --add-to or an --inputs directory.
    #[arg(long, default_value = "audit-findings")]
    pub(super) out: PathBuf,
    /// Keep running a program after it is proved wrong, keeping one shrunk finding per
    /// signature, instead of stopping at the first.
    #[arg(long)]
    pub(super) keep_going: bool,
    /// The most findings kept per program (the rest are counted).
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

/// `--batch` when it is not given.
const DEFAULT_BATCH: u32 = 20;

/// The least `--max-output` may be, in bytes (whatever it is, a run may write twice its
/// expected output: [`crate::audit::running::runner`]).
const LEAST_OUTPUT: u64 = 4096;

/// `--form`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum FormChoice {
    /// The data's or the statement's form, or the one the program's output fits.
    Auto,
    /// One case per run.
    Single,
    /// The game's multi-case form.
    Multi,
}

impl AuditArgs {
    /// Checks the flags that do not depend on the game, before any work; the edit of
    /// `--add-to`'s package begun, when there is one ([`PackageEdit::begin`]).
    ///
    /// [`PackageEdit::begin`]: crate::package::edit::PackageEdit::begin
    fn check(&self) -> Result<Option<crate::package::edit::PackageEdit>, RunError> {
        limit_seconds("--timeout", self.timeout)?;
        limit_seconds("--compile-time", self.compile_time)?;
        if let Some(time) = self.time {
            limit_seconds("--time", time)?;
        }
        seconds("--shrink-time", self.shrink_time)?;
        if self.max_output < LEAST_OUTPUT {
            return Err(super::UsageError::MaxOutput {
                value: self.max_output,
                least: LEAST_OUTPUT,
            }
            .into());
        }
        if self.add_to.is_some() && self.sharding.slice()?.is_some() {
            return Err(super::UsageError::AddToAShard.into());
        }
        if let Some(dir) = &self.add_to {
            if !dir.join("data").is_dir() && !dir.join("init.yml").is_file() {
                return Err(super::UsageError::NotAPackage(dir.clone()).into());
            }
        }
        if let Some(package) = &self.package {
            if !package.join("submissions").is_dir() {
                return Err(super::UsageError::NoSubmissions(package.clone()).into());
            }
        }
        let trees = [("--package", &self.package), ("--add-to", &self.add_to)]
            .into_iter()
            .filter_map(|(flag, dir)| dir.as_ref().map(|d| (flag, d)))
            .chain(self.inputs.iter().map(|d| ("--inputs", d)));
        for (flag, tree) in trees {
            if crate::formats::write::inside(&self.out, tree) {
                return Err(super::UsageError::OutInside {
                    out: self.out.clone(),
                    flag,
                    tree: tree.clone(),
                }
                .into());
            }
        }
        self.allow_read_apart()?;
        let programs = self.program_files()?;
        let reads: Vec<(&str, &std::path::Path)> = [
            ("--package", &self.package),
            ("--add-to", &self.add_to),
            ("--programs", &self.programs),
        ]
        .into_iter()
        .filter_map(|(flag, path)| path.as_deref().map(|p| (flag, p)))
        .chain(self.inputs.iter().map(|p| ("--inputs", p.as_path())))
        .chain(programs.iter().map(|p| ("the program's file", p.as_path())))
        .collect();
        if let Some(saved) = &self.save_runs {
            super::saved_runs_apart(saved, &self.out, &reads)?;
        }
        super::Destinations {
            out: &self.out,
            reads,
            reports: &crate::audit::terms::layout::Layout::REPORTS,
        }
        .check(&self.ci, Some(&self.html))?;
        // What the end of the audit needs, checked before the first build or run: the report
        // directory, the package's limits and rules, and the edit of --add-to's package.
        crate::formats::write::Staging::new(&self.out).map_err(|e| RunError::io(&self.out, e))?;
        self.memory()?;
        #[cfg(target_os = "linux")]
        let advising = self.advising()?;
        #[cfg(target_os = "linux")]
        if let Some(package) = &self.add_to {
            use crate::package::{add, edit::PackageEdit, limits};
            let edit = PackageEdit::begin(package)?;
            limits::check_editable(&edit, advising.rules.sets_time_limit())?;
            add::check_addable(&edit)?;
            return Ok(Some(edit));
        }
        Ok(None)
    }

    /// Whether no `--allow-read` path is, holds or lies in a protected path
    /// ([`protected`](Self::protected)).
    fn allow_read_apart(&self) -> Result<(), RunError> {
        let protected = self.protected();
        for path in &self.allow_read {
            let real = crate::formats::write::real_path(path);
            let overlaps = |q: &&PathBuf| real.starts_with(q) || q.starts_with(&real);
            if let Some(q) = protected.iter().find(overlaps) {
                return Err(super::UsageError::AllowsProtected {
                    path: path.clone(),
                    protected: q.clone(),
                }
                .into());
            }
        }
        Ok(())
    }

    /// The files the programs of `--cmd` and `--programs` name ([`Program::files`]): the
    /// submissions, which no output may replace.
    ///
    /// [`Program::files`]: referee_sandbox::Program::files
    fn program_files(&self) -> Result<Vec<PathBuf>, RunError> {
        use crate::audit::entrants;
        let mut all = entrants::from_commands(&self.cmd)?;
        if let Some(table) = &self.programs {
            all.extend(entrants::from_table(table)?);
        }
        Ok(all
            .iter()
            .filter_map(|entrant| entrant.program.as_ref().ok())
            .flat_map(referee_sandbox::Program::files)
            .collect())
    }

    /// The data's paths: `--inputs`, else a package's `data/sample` and `data/secret`, or a
    /// DMOJ problem's cases (the `in` files of its `init.yml`'s `test_cases`).
    fn inputs(&self) -> Vec<PathBuf> {
        match &self.package {
            Some(package) if self.inputs.is_empty() && !package.join("data").is_dir() => {
                crate::package::dmoj::case_inputs(package)
            }
            Some(package) if self.inputs.is_empty() => ["data/sample", "data/secret"]
                .iter()
                .map(|d| package.join(d))
                .filter(|d| d.is_dir())
                .collect(),
            _ => self.inputs.clone(),
        }
    }

    /// What no program may read: the package, the inputs, the reports, the runs saved, the
    /// package added to ([`Settings::protected`](crate::audit::settings::Settings::protected)).
    fn protected(&self) -> Vec<PathBuf> {
        crate::audit::settings::protected(
            &self.inputs(),
            [&self.package, &self.save_runs, &self.add_to],
            &self.out,
        )
    }

    /// What the advice on the limits needs: `--repeat`, and the rules and memory limit of the
    /// package the advice is for (`--add-to`'s, else `--package`'s; the format's defaults
    /// without one).
    #[cfg(target_os = "linux")]
    fn advising(&self) -> Result<crate::audit::settings::Advising, RunError> {
        use crate::judge_system::problem_yaml::{memory_mib, time_rules, TimeRules};
        let target = self.add_to.as_ref().or(self.package.as_ref());
        Ok(crate::audit::settings::Advising {
            repeat: usize::from(self.repeat),
            rules: match target {
                Some(package) => time_rules(package)?,
                None => TimeRules::defaults("2025-09"),
            },
            set_memory_mib: match target {
                Some(package) => memory_mib(package)?,
                None => None,
            },
        })
    }

    /// The memory limit of every run, in bytes: `--memory`, else the package's
    /// `limits.memory`, else Kattis' default.
    fn memory(&self) -> Result<u64, RunError> {
        use crate::judge_system::problem_yaml::{memory_mib, DEFAULT_MEMORY_MIB};
        let mib = match (self.memory, &self.package) {
            (Some(mib), _) => mib,
            (None, Some(package)) => memory_mib(package)?.unwrap_or(DEFAULT_MEMORY_MIB),
            (None, None) => DEFAULT_MEMORY_MIB,
        };
        Ok(mib << 20)
    }

    /// The sandbox the programs run in, checked before any of them runs; `None` with
    /// `--unconfined`.
    #[cfg(target_os = "linux")]
    fn sandbox(&self) -> Result<Option<std::sync::Arc<referee_sandbox::Sandbox>>, RunError> {
        if self.unconfined {
            return Ok(None);
        }
        referee_sandbox::Sandbox::new(&referee_sandbox::Options {
            allow_read: self.allow_read.clone(),
            cgroup: self.cgroup.clone(),
            interrupt: self.interrupt.clone(),
        })
        .map(Some)
        .map_err(|e| crate::cli::refused::NoSandbox(e).into())
    }

    /// The limits of each run of a program: `--timeout`, `--memory`, `--max-output`, audit's
    /// wall-clock cap, the rest the sandbox's defaults.
    fn limits(&self) -> Result<referee_sandbox::Limits, RunError> {
        Ok(referee_sandbox::Limits {
            cpu: limit_seconds("--timeout", self.timeout)?,
            memory: self.memory()?,
            max_output: self.max_output.min(usize::MAX as u64) as usize,
            wall_factor: crate::audit::running::runner::WALL_FACTOR,
            ..referee_sandbox::Limits::default()
        })
    }

    /// The settings of an audit of `programs` programs judging `G`.
    #[cfg(target_os = "linux")]
    fn settings<G: Game>(
        &self,
        programs: usize,
        confinement: referee_sandbox::Confinement,
    ) -> Result<crate::audit::settings::Settings<G::Options>, RunError> {
        use crate::audit::settings::{FormRule, Settings};
        let time = self.time.map(|t| limit_seconds("--time", t)).transpose()?;
        Ok(Settings {
            rules: rules_from_flag::<G>(self.rules.as_deref())?,
            seed: self.seed,
            cases: match (self.cases, time) {
                (None, None) => Some(1000),
                (c, _) => c,
            },
            time,
            limits: self.limits()?,
            batch: self.batch.unwrap_or(DEFAULT_BATCH) as usize,
            jobs: crate::util::pool::threads(self.jobs.map(|j| j as usize)),
            inputs: self.inputs(),
            out: self.out.clone(),
            keep_going: self.keep_going,
            max_findings: self.max_findings,
            strict: self.strict,
            shrink_time: seconds("--shrink-time", self.shrink_time)?,
            compile_time: limit_seconds("--compile-time", self.compile_time)?,
            reference_budget: crate::verify::DEFAULT_REFERENCE_BUDGET,
            shard: self.sharding.slice()?,
            form: match (self.form, programs) {
                (FormChoice::Single, _) => FormRule::Asked(Form::Single),
                (FormChoice::Multi, _) => FormRule::Asked(Form::Multi),
                (FormChoice::Auto, 1) => FormRule::ByShape,
                (FormChoice::Auto, _) => FormRule::Problem,
            },
            constraints: self.constraints,
            save_runs: self.save_runs.clone(),
            add_to: self.add_to.clone(),
            package: self.package.clone(),
            confinement,
            advising: self.advising()?,
            interrupt: self.interrupt.clone(),
        })
    }

    /// The programs: `--cmd` values, `--programs`' table, a package's submissions (built into
    /// OUT/build), each confined in `sandbox` when there is one; what was left out is said in
    /// `notes`.
    #[cfg(target_os = "linux")]
    fn entrants(
        &self,
        notes: &mut Vec<String>,
        sandbox: Option<&std::sync::Arc<referee_sandbox::Sandbox>>,
    ) -> Result<Vec<crate::audit::entrants::Entrant>, RunError> {
        use crate::audit::entrants;
        let mut all = entrants::from_commands(&self.cmd)?;
        if let Some(table) = &self.programs {
            all.extend(entrants::from_table(table)?);
        }
        if let Some(sandbox) = sandbox {
            let protected = self.protected();
            for entrant in &mut all {
                if let Ok(program) = &entrant.program {
                    entrant.program = match entrants::apart_from(program, &protected) {
                        Err(e) => Err(e),
                        Ok(()) => program
                            .confined(sandbox)
                            .map_err(|e| entrants::BuildError::Staged(std::sync::Arc::new(e))),
                    };
                }
            }
        }
        if let Some(package) = &self.package {
            let dir = self.out.join("build");
            std::fs::create_dir_all(&dir).map_err(|e| RunError::io(&dir, e))?;
            eprintln!(
                "building the submissions of {} into {}",
                package.display(),
                dir.display()
            );
            let builder = entrants::Builder {
                sandbox,
                cpu: limit_seconds("--compile-time", self.compile_time)?,
                memory: self.memory()?,
                interrupt: &self.interrupt,
            };
            all.extend(entrants::from_package(package, &dir, notes, &builder)?);
        }
        // Every run of every program, confined or not, ends with the audit's interruption.
        for entrant in &mut all {
            if let Ok(program) = &mut entrant.program {
                *program = program.clone().ended_by(&self.interrupt);
            }
        }
        entrants::unique(all)
    }
}

#[cfg(target_os = "linux")]
pub(super) fn audit(args: AuditArgs) -> Result<ExitCode, RunError> {
    use crate::audit::reports::audited::AuditReport;
    use crate::audit::reports::report::RunOptions;
    use crate::audit::reports::sink::{ReportDir, Sink};
    use referee_sandbox::Confinement;
    let edit = args.check()?;
    let sandbox = args.sandbox()?;
    let limits = args.limits()?;
    let confinement = sandbox
        .as_ref()
        .map_or(Confinement::Unconfined, |s| s.confinement(&limits));
    let listening = args.interrupt.on_signals().map_err(RunError::Signals)?;
    let mut notes = Vec::new();
    let entrants = args.entrants(&mut notes, sandbox.as_ref())?;
    struct Audit<'a> {
        args: &'a AuditArgs,
        entrants: &'a [crate::audit::entrants::Entrant],
        notes: Vec<String>,
        confinement: Confinement,
        edit: Option<crate::package::edit::PackageEdit>,
    }
    impl Visitor for Audit<'_> {
        type Output = Result<(AuditReport, RunOptions, Option<PathBuf>), RunError>;
        fn visit<G: AnyGame>(self) -> Self::Output {
            let settings = self
                .args
                .settings::<G>(self.entrants.len(), self.confinement)?;
            let mut dir = ReportDir::new(G::NAME, &settings)?;
            let mut audited = crate::audit::pipeline::audit::<G>(
                &settings,
                self.entrants,
                self.notes,
                self.edit,
            )?;
            let edited = commit_edit(&mut audited, &self.args.interrupt);
            dir.take(&audited)?;
            let changed = edited?;
            Ok((audited.report, dir.options().clone(), changed))
        }
    }
    let ran = args.game.visit(Audit {
        args: &args,
        entrants: &entrants,
        notes,
        confinement,
        edit,
    });
    listening.close();
    let (report, options, changed) = ran?;
    let shown = super::audit_summary::Shown {
        out: &args.out,
        options: &options,
        ci: &args.ci,
        html: &args.html,
        batch_asked: args.batch.is_some(),
    };
    let code = super::audit_summary::summary(&shown, &report)?;
    Ok(super::audit_summary::exit_code(
        &args.out,
        code,
        &args.interrupt,
        changed.as_deref(),
    ))
}

/// Makes the changes of `--add-to` ([`PackageEdit::commit`]) once the audit is complete, not
/// when it was interrupted; when they are not made, the report says nothing was added or
/// written. The package, when it was changed.
///
/// [`PackageEdit::commit`]: crate::package::edit::PackageEdit::commit
#[cfg(target_os = "linux")]
fn commit_edit(
    audited: &mut crate::audit::reports::sink::Audited,
    interrupt: &referee_sandbox::Interrupt,
) -> Result<Option<PathBuf>, RunError> {
    let Some(edit) = audited.edit.take().filter(|e| !e.is_empty()) else {
        return Ok(None);
    };
    let shown = edit.package().to_path_buf();
    let package = shown.display().to_string();
    let committed = edit.commit(|| interrupt.interrupted());
    if !matches!(committed, Ok(true)) {
        let report = &mut audited.report;
        for test in &mut report.tests {
            test.added_as = None;
        }
        if let Some(advice) = &mut report.limits {
            if advice
                .written
                .iter()
                .all(|w| !w.starts_with("no limit written"))
            {
                advice.written = vec![format!(
                    "nothing written: {package} is unchanged ({})",
                    match &committed {
                        Err(e) => e.to_string(),
                        Ok(_) => "the audit was interrupted".to_string(),
                    }
                )];
            }
        }
    }
    if matches!(committed, Ok(true)) {
        interrupt_failpoint(interrupt);
    }
    committed.map(|changed| changed.then_some(shown))
}

/// For the tests: with `REFEREE_FAILPOINT=interrupt-after-add-to`, this process sends itself
/// SIGINT once the package is changed, as a user's Ctrl-C then would, and waits (5 s at most)
/// until `interrupt` holds it.
#[cfg(target_os = "linux")]
fn interrupt_failpoint(interrupt: &referee_sandbox::Interrupt) {
    if std::env::var_os("REFEREE_FAILPOINT").is_some_and(|v| v == "interrupt-after-add-to") {
        let _ =
            rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::INT);
        for _ in 0..500 {
            if interrupt.signal().is_some() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) fn audit(_: AuditArgs) -> Result<ExitCode, RunError> {
    Err(RunError::Unsupported(
        "audit runs programs under Linux only (process groups, pidfd)",
    ))
}
