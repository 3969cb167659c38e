//! Command-line parsing and dispatch. Exit codes follow the contract in `shared/specs/cli.md`:
//! 0 done and all agreed, 1 something disagreed or was invalid, 2 could not run.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::game::{render, Game, Implementation, LittleSquares, Pousse, SomeGame};
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
}

/// A game's command-line name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// Pousse (ICFP 1998, UVa 844).
    Pousse,
    /// LittleSquares (TopCoder SRM 389).
    Littlesquares,
    /// Some Game (DMOJ ioiqrp5).
    Somegame,
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
