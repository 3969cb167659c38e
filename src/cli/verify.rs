//! `referee verify` and `referee merge`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{amount, check_rules, done, rules_help, CiArgs, HtmlArgs, ShardArgs};
use crate::games::GameName;
use crate::util::error::RunError;

#[derive(Debug, clap::Args)]
pub(super) struct VerifyArgs {
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
    #[command(flatten)]
    sharding: ShardArgs,
    /// The reference is slow by design: skip it (status `reference-skipped`) on each case whose
    /// estimated work exceeds this many elementary steps (board squares visited). Default
    /// 2e9, a few seconds.
    #[arg(long, value_parser = amount, default_value = "2e9")]
    reference_budget: u64,
    /// Do not run the reference at all.
    #[arg(long)]
    no_reference: bool,
    /// Skip the reference (`reference-skipped`) on each case larger than this many bytes (the
    /// reference reads a multi-case file a case at a time). It holds a case in memory, up to
    /// 64 times its size: the default is the memory available (MemAvailable) over 64, at most
    /// 8 MiB.
    #[arg(long, value_parser = amount)]
    reference_max_bytes: Option<u64>,
    /// Add the engine's time per file (`engine_micros`) to the reports (they are then no
    /// longer byte-identical between runs).
    #[arg(long)]
    timings: bool,
    /// Print a JSON summary of the run on standard output (counts per status and game, the
    /// reports' paths; see docs/cli.md).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    ci: CiArgs,
    #[command(flatten)]
    html: HtmlArgs,
}

#[derive(Debug, clap::Args)]
pub(super) struct MergeArgs {
    /// The `--out` directories of the shard runs.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// Directory for the combined reports.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Print a JSON summary of the merged run on standard output (for verify shards, the
    /// object `verify --json` prints).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    ci: CiArgs,
}

pub(super) fn verify(args: VerifyArgs) -> Result<ExitCode, RunError> {
    check_rules(args.game, args.rules.as_deref())?;
    super::Destinations {
        out: &args.out,
        reads: args
            .paths
            .iter()
            .map(|p| ("the input", p.as_path()))
            .collect(),
        reports: &crate::verify::run::REPORTS,
    }
    .check(&args.ci, Some(&args.html))?;
    let settings = crate::verify::Settings {
        reference_budget: args.reference_budget,
        no_reference: args.no_reference,
        reference_max_bytes: args
            .reference_max_bytes
            .unwrap_or_else(crate::verify::default_reference_max_bytes),
        // Capped as the run caps it (which says so).
        jobs: args.jobs.map_or_else(
            || crate::util::pool::threads(None),
            |j| (j as usize).min(crate::util::pool::most_jobs()),
        ),
    };
    let options = crate::verify::run::VerifyOptions {
        game: args.game.map_or("", |g| g.as_str()).to_string(),
        rules: args.rules.clone().unwrap_or_default(),
        reference_budget: args.reference_budget,
        no_reference: args.no_reference,
        reference_max_bytes: args.reference_max_bytes,
        timings: args.timings,
    };
    let batch = crate::verify::run::Batch {
        paths: args.paths,
        shard: args.sharding.slice()?,
        jobs: args.jobs.map(|j| j as usize),
        out: args.out,
        timings: args.timings,
        options,
        kept_rows: crate::verify::run::KEPT_ROWS,
    };
    let (game, rules) = (args.game, args.rules.as_deref());
    let packages = crate::verify::package::find(&batch.paths);
    let outcome = crate::verify::run::run(&batch, |file, emit| {
        crate::verify::verify_any(file, &settings, game, rules, &packages, emit)
    })?;
    if args.json {
        let summary = crate::verify::run::summary_json(&outcome, &batch.out, batch.shard);
        super::print_out("the summary", &format!("{summary}\n"))?;
    }
    let suites = crate::verify::run::suites(&outcome, batch.timings);
    super::publish_all(
        "referee verify",
        &suites,
        &args.ci.output(&batch.out, args.json),
        &args.html,
        || {
            let about = vec![
                format!(
                    "{} cases in {} files; reports in {}",
                    outcome.rows,
                    outcome.files,
                    batch.out.display()
                ),
                format!(
                    "options: {}",
                    settings_line(&crate::formats::as_text::to_map(&batch.options))
                ),
            ];
            crate::verify::run::html_page(&outcome, about)
        },
    )?;
    Ok(done(outcome.has_problems()))
}

pub(super) fn merge(args: MergeArgs) -> Result<ExitCode, RunError> {
    let reports: Vec<&str> = [
        &crate::verify::run::REPORTS[..],
        &crate::grade::REPORTS,
        &crate::stress::REPORTS,
        &crate::audit::terms::layout::Layout::REPORTS,
    ]
    .concat();
    super::Destinations {
        out: &args.out,
        reads: args
            .shards
            .iter()
            .map(|s| ("the shard", s.as_path()))
            .collect(),
        reports: &reports,
    }
    .check(&args.ci, None)?;
    let merged = crate::formats::merge::merge(
        &args.shards,
        &args.out,
        crate::verify::run::KEPT_ROWS,
        super::SHARDED,
    )?;
    let dir = args.out.display();
    let reports: Vec<String> = merged
        .reports
        .iter()
        .map(|r| format!("{dir}/{r}"))
        .collect();
    eprintln!(
        "merged {} shards of {}: {} rows ({} problems) into {}",
        merged.shards,
        merged.command,
        merged.rows,
        merged.problems,
        reports.join(", ")
    );
    if args.json {
        let summary = merged.summary_json(&args.out);
        super::print_out("the summary", &format!("{summary}\n"))?;
    }
    super::publish(
        &format!("referee {} (merged)", merged.command),
        &merged.suites,
        &args.ci.output(&args.out, args.json),
    )?;
    Ok(done(merged.problems > 0))
}

/// The options of a run, `name=value` separated by spaces, the empty ones left out.
fn settings_line(options: &std::collections::BTreeMap<String, String>) -> String {
    let set: Vec<String> = options
        .iter()
        .filter(|(_, v)| !v.is_empty() && v.as_str() != "false")
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if set.is_empty() {
        "defaults".to_string()
    } else {
        set.join(" ")
    }
}
