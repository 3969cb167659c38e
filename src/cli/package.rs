//! `referee package`: a Kattis problem package for a game.

use std::path::PathBuf;
use std::process::ExitCode;

use super::rules_help;
use crate::error::RunError;
use crate::game::{rules_from_flag, Game};
use crate::games::{GameName, Visitor};
use crate::judge_system::package::{write, Settings, Written};

#[derive(Debug, clap::Args)]
pub(super) struct PackageArgs {
    /// The game.
    game: GameName,
    /// The package directory, whose name is the problem's short name (lowercase letters and
    /// digits, as Kattis wants); replaced as a whole when every file in it is one that referee
    /// wrote (see --force).
    #[arg(long)]
    out: PathBuf,
    #[arg(long, help = rules_help())]
    rules: Option<String>,
    /// Seed of the generated secret cases.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many generated secret cases (besides the edge cases).
    #[arg(long, default_value_t = 30)]
    cases: usize,
    /// The problem's name shown to contestants (default: the game's).
    #[arg(long)]
    name: Option<String>,
    /// The referee binary the package's validators run (default: this one).
    #[arg(long)]
    referee: Option<PathBuf>,
    /// Replace --out even when it holds files that referee did not write (by default such a
    /// directory is refused, naming the first of them).
    #[arg(long)]
    force: bool,
}

pub(super) fn package(args: PackageArgs) -> Result<ExitCode, RunError> {
    let referee = match &args.referee {
        Some(p) => p.clone(),
        None => std::env::current_exe()
            .map_err(|e| RunError::Usage(format!("finding the referee binary: {e}")))?,
    };
    let settings = Settings {
        out: args.out.clone(),
        seed: args.seed,
        cases: args.cases,
        name: args.name.clone(),
        referee,
        force: args.force,
    };
    struct Package<'a>(&'a Settings, Option<&'a str>);
    impl Visitor for Package<'_> {
        type Output = Result<Written, RunError>;
        fn visit<G: Game>(self) -> Self::Output {
            let rules = rules_from_flag::<G>(self.1)?;
            write::<G>(self.0, rules)
        }
    }
    let written = args.game.visit(Package(&settings, args.rules.as_deref()))?;
    eprintln!(
        "package {}: {} sample and {} secret cases, {} submissions",
        args.out.display(),
        written.samples,
        written.secret,
        written.submissions
    );
    Ok(ExitCode::SUCCESS)
}
