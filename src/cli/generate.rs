//! `referee gen`, and the generators' knobs as flags.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches};

use super::rules_help;
use crate::game::knobs::{KnobKind, Knobs};
use crate::game::AnyGame;
use crate::game::{rules_from_flag, Case};
use crate::games::{self, GameName, Visitor};
use crate::util::error::RunError;

#[derive(Debug, clap::Args)]
pub(super) struct GenArgs {
    /// The game.
    game: GameName,
    /// Output directory (created if needed). Without it, one case is written to standard
    /// output (a problem package's generator: see --item, --contest, --case, --answer).
    #[arg(long)]
    out: Option<PathBuf>,
    /// How many files.
    #[arg(long, value_parser = super::amount, default_value = "1")]
    count: u64,
    /// Seed; the same seed, knobs and rule set give the same files.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write each file's `.ans` as judged by the engine.
    #[arg(long)]
    answers: bool,
    #[arg(long, help = rules_help())]
    rules: Option<String>,
    /// Draw the cases as `audit` does: every style of the game's generator, a share of its
    /// extremes (the longest games, the largest boards), all inside the contest's limits (no
    /// knob goes with it).
    #[arg(long)]
    like_audit: bool,
    /// The form of each file: the game's single-case form, or its multi-case form (UVa 844's
    /// for Pousse).
    #[arg(long, value_enum, default_value_t = crate::game::Form::Single)]
    form: crate::game::Form,
    /// Cases per file, in the multi-case form (`--form multi`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    per_file: u32,
    /// Without --out: which of the seed's random streams the case is drawn from.
    #[arg(long, default_value_t = 0, conflicts_with = "out")]
    item: u64,
    /// Without --out: draw the case again until it is inside the contest's limits (as
    /// `validate --constraints contest` says), as `referee package` does.
    #[arg(long, conflicts_with = "out")]
    contest: bool,
    /// Without --out: the case of the game's package named NAME (a sample or an edge case)
    /// instead of a random one.
    #[arg(long, value_name = "NAME", conflicts_with = "out")]
    case: Option<String>,
    /// Without --out: also write the case's `.ans`, as judged by the engine, to FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    answer: Option<PathBuf>,
    /// Instead of writing cases: how often each of the game's coverage features occurs among
    /// the first CASES random cases of --seed as `audit` draws them (a Markdown table on
    /// standard output, with the first case of each); exit 1 when one does not occur.
    #[arg(long, value_name = "CASES", conflicts_with_all = ["out", "case", "answer"])]
    coverage: Option<u64>,
    #[command(flatten)]
    knobs: KnobArgs,
}

/// The generators' knobs (`--n`, `--rows`, ...), one flag per name across every game; a game
/// takes only its own.
#[derive(Debug, Clone, Default)]
pub(super) struct KnobArgs(Knobs);

/// Every knob name once, with its kind and the help of every game that has it.
pub(super) fn all_knobs() -> Vec<(&'static str, KnobKind, String)> {
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

pub(super) fn generate(args: GenArgs) -> Result<ExitCode, RunError> {
    if let Some(cases) = args.coverage {
        return coverage(&args, cases);
    }
    let Some(out) = args.out.clone() else {
        return generate_one(args);
    };
    struct Gen<'a> {
        request: &'a crate::gen::Request,
        rules: Option<&'a str>,
    }
    impl Visitor for Gen<'_> {
        type Output = Result<usize, RunError>;
        fn visit<G: AnyGame>(self) -> Self::Output {
            let rules = rules_from_flag::<G>(self.rules)?;
            crate::gen::generate::<G>(self.request, rules)
        }
    }
    let request = crate::gen::Request {
        out,
        count: usize::try_from(args.count).unwrap_or(usize::MAX),
        seed: args.seed,
        answers: args.answers,
        knobs: args.knobs.0,
        like_audit: args.like_audit,
        form: args.form,
        per_file: args.per_file as usize,
    };
    let written = args.game.visit(Gen {
        request: &request,
        rules: args.rules.as_deref(),
    })?;
    eprintln!(
        "gen {}: wrote {} input files{} to {}",
        args.game.as_str(),
        written,
        if args.answers {
            " and their answers"
        } else {
            ""
        },
        request.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `referee gen` without `--out`: one case on standard output (and its answer in a file).
fn generate_one(args: GenArgs) -> Result<ExitCode, RunError> {
    if args.count != 1 || args.answers || args.per_file != 1 {
        return Err(super::UsageError::OneCaseWithoutOut.into());
    }
    struct One<'a>(&'a GenArgs);
    impl Visitor for One<'_> {
        type Output = Result<(Vec<u8>, String), RunError>;
        fn visit<G: AnyGame>(self) -> Self::Output {
            let args = self.0;
            let rules = rules_from_flag::<G>(args.rules.as_deref())?;
            let single = match &args.case {
                Some(name) => {
                    if args.knobs.0.names().next().is_some() || args.like_audit {
                        return Err(super::UsageError::CaseWithKnobs.into());
                    }
                    crate::gen::named_case::<G>(name, rules)?
                }
                None => {
                    crate::gen::check_knobs::<G>(&args.knobs.0)?;
                    let shape = if args.like_audit {
                        G::Case::for_programs(crate::game::Constraints::Contest)
                    } else {
                        G::Case::shape(&args.knobs.0)?
                    };
                    crate::gen::one_case::<G>(args.seed, args.item, &shape, rules, args.contest)?
                }
            };
            let input = crate::game::in_form::<G>(args.form, &[single]);
            let answer =
                crate::gen::answer_of::<G>(&input, rules).map_err(|source| RunError::Judge {
                    file: "the case".into(),
                    source,
                })?;
            Ok((input, answer))
        }
    }
    let (input, answer) = args.game.visit(One(&args))?;
    if let Some(path) = &args.answer {
        std::fs::write(path, answer).map_err(|e| RunError::io(path, e))?;
    }
    super::print_out("the case", &String::from_utf8_lossy(&input))?;
    Ok(ExitCode::SUCCESS)
}

/// `referee gen GAME --coverage CASES`: the coverage table of the first CASES random cases of
/// the seed as `audit` draws them.
fn coverage(args: &GenArgs, cases: u64) -> Result<ExitCode, RunError> {
    if args.knobs.0.names().next().is_some() {
        return Err(super::UsageError::CoverageWithKnobs.into());
    }
    struct Count<'a>(&'a GenArgs, u64);
    impl Visitor for Count<'_> {
        type Output = Result<crate::gen::Coverage, RunError>;
        fn visit<G: AnyGame>(self) -> Self::Output {
            let rules = rules_from_flag::<G>(self.0.rules.as_deref())?;
            Ok(crate::gen::coverage::<G>(self.0.seed, self.1, rules))
        }
    }
    let covered = args.game.visit(Count(args, cases))?;
    super::print_out("the coverage table", &covered.markdown())?;
    let missing = covered.missing();
    eprintln!(
        "gen {} --coverage: {} features of {} occur in the first {} cases of seed {} ({} dropped \
         outside the contest's limits)",
        args.game.as_str(),
        covered.rows.len() - missing.len(),
        covered.rows.len(),
        covered.cases,
        args.seed,
        covered.dropped
    );
    if missing.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!("not reached: {}", missing.join("; "));
    Ok(ExitCode::from(1))
}
