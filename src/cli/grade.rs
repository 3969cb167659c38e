//! `referee grade`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{check_rules, done, rules_help, CiArgs, ShardArgs};
use crate::games::GameName;
use crate::util::error::RunError;

#[derive(Debug, clap::Args)]
pub(super) struct GradeArgs {
    /// The cases: `*.in` files (with optional `.ans` answers).
    #[arg(long)]
    cases: PathBuf,
    /// One folder per submission, holding `.out` files laid out like the cases.
    #[arg(long)]
    submissions: PathBuf,
    /// Directory for grades.csv and summary.csv.
    #[arg(long, default_value = "grades")]
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
    #[command(flatten)]
    sharding: ShardArgs,
    #[command(flatten)]
    ci: CiArgs,
}

pub(super) fn grade(args: GradeArgs) -> Result<ExitCode, RunError> {
    check_rules(args.game, args.rules.as_deref())?;
    // The reports never land among someone else's submissions.
    if crate::formats::write::inside(&args.out, &args.submissions) {
        return Err(super::UsageError::OutInside {
            out: args.out.clone(),
            flag: "--submissions",
            tree: args.submissions.clone(),
        }
        .into());
    }
    super::Destinations {
        out: &args.out,
        reads: vec![
            ("--cases", args.cases.as_path()),
            ("--submissions", args.submissions.as_path()),
        ],
        reports: &crate::grade::REPORTS,
    }
    .check(&args.ci, None)?;
    let options = crate::grade::Options {
        game: args.game,
        rules: args.rules,
        kept_rows: None,
    };
    let outcome = crate::grade::grade(
        &args.cases,
        &args.submissions,
        &options,
        args.jobs.map(|j| j as usize),
        args.sharding.slice()?,
        &args.out,
    )?;
    super::publish(
        "referee grade",
        &crate::grade::suites(&outcome),
        &args.ci.output(&args.out, false),
    )?;
    Ok(done(outcome.judge_errors > 0))
}
