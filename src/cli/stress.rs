//! `referee stress`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{limit_seconds, rules_help, seconds, CiArgs, HtmlArgs, ShardArgs};
use crate::game::rules_from_flag;
use crate::game::AnyGame;
use crate::games::{GameName, Visitor};
use crate::util::error::RunError;

#[derive(Debug, clap::Args)]
pub(super) struct StressArgs {
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
    /// The whole run's wall-clock budget, in seconds, shrinking included.
    #[arg(long)]
    time: Option<f64>,
    /// A case not judged within this many seconds counts as a hang: it is saved (as
    /// `...-hang.in` in --out) and the run stops with exit 1.
    #[arg(long, default_value_t = 10.0)]
    case_time: f64,
    /// The most seconds spent shrinking one divergence (never past --time).
    #[arg(long, default_value_t = 30.0)]
    shrink_time: f64,
    /// Directory for each shrunk divergence (its input and a regression vector, written at
    /// once), findings.csv and the manifest stress.json.
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
    #[command(flatten)]
    sharding: ShardArgs,
    #[command(flatten)]
    ci: CiArgs,
    #[command(flatten)]
    html: HtmlArgs,
}

pub(super) fn stress(args: StressArgs) -> Result<ExitCode, RunError> {
    super::Destinations {
        out: &args.out,
        reads: Vec::new(),
        reports: &crate::stress::REPORTS,
    }
    .check(&args.ci, Some(&args.html))?;
    let limits = crate::stress::Limits {
        seed: args.seed,
        cases: args.cases,
        time: args.time.map(|t| limit_seconds("--time", t)).transpose()?,
        case_time: limit_seconds("--case-time", args.case_time)?,
        shrink_time: seconds("--shrink-time", args.shrink_time)?,
        keep_going: args.keep_going,
        max_findings: args.max_findings,
        stats: args.stats,
        shard: args.sharding.slice()?,
    };
    struct Stress<'a> {
        limits: crate::stress::Limits,
        rules: Option<&'a str>,
        out: &'a std::path::Path,
    }
    impl Visitor for Stress<'_> {
        type Output = Result<crate::stress::Report, RunError>;
        fn visit<G: AnyGame>(self) -> Self::Output {
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
    let game = args.game.as_str();
    if args.stats {
        print_stats(&report.stats)?;
    }
    eprintln!(
        "stress {game}: {} cases in {:.1} s ({}), seed {}",
        report.cases,
        report.elapsed.as_secs_f64(),
        super::rate(report.cases, report.elapsed),
        args.seed
    );
    publish_findings(&args, &limits, &report)?;
    if report.findings.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    divergences_said(&args, &limits, &report);
    Ok(ExitCode::from(1))
}

/// The table of `--stats` on standard output, and what no case showed on standard error.
fn print_stats(stats: &crate::stress::Stats) -> Result<(), RunError> {
    let share = |n: u64| 100.0 * n as f64 / stats.cases.max(1) as f64;
    let mut table = String::from("| feature | cases | share |\n|---|---|---|\n");
    for (feature, n) in &stats.features {
        table.push_str(&format!("| {feature} | {n} | {:.1}% |\n", share(*n)));
    }
    table.push_str(&format!(
        "| malformed input | {} | {:.1}% |\n",
        stats.malformed,
        share(stats.malformed)
    ));
    super::print_out("the statistics", &table)?;
    let missing = stats.missing();
    if !missing.is_empty() {
        eprintln!("not reached: {}", missing.join("; "));
    }
    Ok(())
}

/// The run's CI outputs and HTML report.
fn publish_findings(
    args: &StressArgs,
    limits: &crate::stress::Limits,
    report: &crate::stress::Report,
) -> Result<(), RunError> {
    let game = args.game.as_str();
    let mut properties = vec![
        ("game".to_string(), game.to_string()),
        ("seed".to_string(), args.seed.to_string()),
        ("cases".to_string(), report.cases.to_string()),
    ];
    if let Some(rules) = &args.rules {
        properties.push(("rules".to_string(), rules.clone()));
    }
    if let Some(shard) = limits.shard {
        properties.push(("shard".to_string(), shard.to_string()));
    }
    let shown: Vec<_> = crate::stress::finding_rows(game, report)
        .iter()
        .map(|row| row.shown(&args.out))
        .collect();
    let suites = crate::formats::ci::findings_suites(game, &properties, &shown);
    let title = format!("referee stress {game}");
    let about = properties
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .chain([format!("findings in {}", args.out.display())])
        .collect();
    let header = &crate::stress::FINDINGS_HEADER;
    super::publish_all(
        &title,
        &suites,
        &args.ci.output(&args.out, false),
        &args.html,
        || crate::formats::html::findings_page(&title, about, header, &shown),
    )
}

/// Each divergence on standard error, with the commands that reproduce it.
fn divergences_said(
    args: &StressArgs,
    limits: &crate::stress::Limits,
    report: &crate::stress::Report,
) {
    let game = args.game.as_str();
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
            "  referee stress {game}{rules_flag} --seed {} --cases {}{}",
            args.seed,
            f.case + 1,
            limits
                .shard
                .map_or(String::new(), |s| format!(" --shard {s}"))
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
}
