//! `referee judge`: one input judged, the contest's output printed.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::{amount, rules_help};
use crate::error::{JudgeError, RunError};
use crate::game::{render, rules_from_flag, Engine, Game, Judged, RuleSet};
use crate::games::{GameName, Visitor};

#[derive(Debug, clap::Args)]
pub(super) struct JudgeArgs {
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
    /// Print a JSON object instead of the contest's output: each case's verdict, explanation
    /// and size, the output, or the input error with its line and column (see docs/cli.md).
    #[arg(long)]
    json: bool,
}

pub(super) fn judge(args: JudgeArgs) -> Result<ExitCode, RunError> {
    let (name, input) = super::open_input(args.file.as_deref())?;
    let mut input = crate::text::Bounded::new(input, args.max_input_bytes);
    struct Judge<'a> {
        name: &'a str,
        input: &'a mut dyn Read,
        engine: Engine,
        rules: Option<&'a str>,
        json: bool,
    }
    impl Visitor for Judge<'_> {
        type Output = Result<ExitCode, RunError>;
        fn visit<G: Game>(self) -> Self::Output {
            let rules = rules_from_flag::<G>(self.rules)?;
            let judged = G::judge(self.engine, self.input, rules);
            if self.json {
                let rules = (!rules.name().is_empty()).then(|| rules.name());
                let object = match &judged {
                    Ok(judgements) => serde_json::json!({
                        "game": G::NAME,
                        "rules": rules,
                        "cases": judgements.iter().enumerate().map(|(i, j)| serde_json::json!({
                            "case": i + 1,
                            "verdict": j.verdict(),
                            "explanation": j.explain(),
                            "size": j.size(),
                        })).collect::<Vec<_>>(),
                        "output": render::<G>(judgements),
                    }),
                    Err(JudgeError::Input(e)) => serde_json::json!({
                        "game": G::NAME,
                        "rules": rules,
                        "error": {
                            "file": self.name,
                            "line": e.position.line,
                            "column": e.position.column,
                            "case": e.case,
                            "expected": e.expected,
                            "found": e.found,
                            "message": e.located(self.name),
                        },
                    }),
                    Err(e) => return Err(RunError::Usage(e.located(self.name))),
                };
                println!("{object}");
                return Ok(if judged.is_ok() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                });
            }
            match judged {
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
        json: args.json,
    })
}
