//! `referee package`: a Kattis problem package for a game.

use std::path::PathBuf;
use std::process::ExitCode;

use super::rules_help;
use crate::game::rules_from_flag;
use crate::game::AnyGame;
use crate::games::{GameName, Visitor};
use crate::package::programs::Pin;
use crate::package::{write, FormatVersion, Settings, System, Written};
use crate::util::error::RunError;

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
    /// How many random secret cases (besides the edge cases), taking the game's generator
    /// rules in turn (ordinary cases, the largest boards, the longest games).
    #[arg(long, default_value_t = 30)]
    cases: usize,
    /// The problem's name shown to contestants (default: the game's).
    #[arg(long)]
    name: Option<String>,
    /// The judge system: kattis (the problem package format: Kattis, DOMjudge, BAPCtools) or
    /// dmoj (DMOJ's judge: init.yml and a checker that calls referee).
    #[arg(long, value_enum, default_value_t = System::Kattis)]
    system: System,
    /// The problem package format version: 2025-09 (BAPCtools), 2023-07-draft or legacy
    /// (Kattis problemtools, DOMjudge).
    #[arg(long, value_enum, default_value_t = FormatVersion::V2025_09)]
    format_version: FormatVersion,
    /// Where the package's programs build referee from when it is not installed where they
    /// run: a git URL (URL#REV for a revision) or a directory holding referee's source.
    #[arg(long, value_name = "SOURCE")]
    referee_source: Option<String>,
    /// Put this referee binary beside each program of the package (for judge hosts that cannot
    /// install referee); by default the programs find referee where they run.
    #[arg(long, value_name = "BINARY")]
    referee: Option<PathBuf>,
    /// Replace --out even when it holds files that referee did not write (by default such a
    /// directory is refused, naming the first of them).
    #[arg(long)]
    force: bool,
}

pub(super) fn package(args: PackageArgs) -> Result<ExitCode, RunError> {
    let pin = Pin::checked(
        env!("CARGO_PKG_VERSION"),
        args.referee_source.as_deref().unwrap_or_default(),
        args.referee.as_deref(),
    )?;
    let settings = Settings {
        out: args.out.clone(),
        system: args.system,
        seed: args.seed,
        cases: args.cases,
        name: args.name.clone(),
        format: args.format_version,
        pin,
        force: args.force,
    };
    struct Package<'a>(&'a Settings, Option<&'a str>);
    impl Visitor for Package<'_> {
        type Output = Result<Written, RunError>;
        fn visit<G: AnyGame>(self) -> Self::Output {
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
