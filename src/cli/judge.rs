//! `referee judge`: one input judged, the contest's output printed.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::{amount, rules_help};
use crate::game::AnyGame;
use crate::game::{render, rules_from_flag, Engine, Game, Judged, RuleSet};
use crate::games::{GameName, Visitor};
use crate::util::error::{JudgeError, RunError};

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
    /// forever on an endless input). Default: 16e9 for the engine, whose memory is bounded by
    /// the board; for the reference, which holds the whole input and takes up to 64 times its
    /// size, the memory available (MemAvailable) over 64.
    #[arg(long, value_parser = amount)]
    max_input_bytes: Option<u64>,
    /// Print a JSON object instead of the contest's output: each case's verdict, explanation
    /// and size, the output, or the input error with its line and column (see docs/cli.md).
    #[arg(long)]
    json: bool,
}

/// The engine's default input limit, in bytes: its memory is bounded by the board, so this only
/// ends endless inputs.
const ENGINE_INPUT_LIMIT: u64 = 16_000_000_000;

pub(super) fn judge(args: JudgeArgs) -> Result<ExitCode, RunError> {
    let (name, input) = super::open_input(args.file.as_deref())?;
    let limit = args.max_input_bytes.unwrap_or(match args.engine {
        Engine::Fast => ENGINE_INPUT_LIMIT,
        Engine::Reference => crate::util::text::reference_input_limit(),
    });
    let mut input = crate::util::text::Bounded::new(input, limit);
    struct Judge<'a> {
        name: &'a str,
        input: &'a mut dyn Read,
        engine: Engine,
        rules: Option<&'a str>,
        json: bool,
    }
    impl Visitor for Judge<'_> {
        type Output = Result<ExitCode, RunError>;
        fn visit<G: AnyGame>(self) -> Self::Output {
            let rules = rules_from_flag::<G>(self.rules)?;
            let judged = G::judge(self.engine, self.input, rules);
            if self.json {
                let rules = (!rules.name().is_empty()).then(|| rules.name());
                let object = match judged {
                    Ok(judgements) => {
                        return write_json::<G>(rules, &judgements)
                            .map(|()| ExitCode::SUCCESS)
                            .map_err(|e| RunError::stdout("the JSON object", e));
                    }
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
                    Err(source) => {
                        return Err(RunError::Judge {
                            file: self.name.to_string(),
                            source,
                        })
                    }
                };
                super::print_out("the JSON object", &format!("{object}\n"))?;
                return Ok(ExitCode::from(1));
            }
            match judged {
                Ok(judgements) => {
                    super::print_out("the output", &render::<G>(&judgements))?;
                    Ok(ExitCode::SUCCESS)
                }
                Err(JudgeError::Input(e)) => {
                    eprintln!("error: {}", e.located(self.name));
                    Ok(ExitCode::from(1))
                }
                Err(source) => Err(RunError::Judge {
                    file: self.name.to_string(),
                    source,
                }),
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

/// Writes the `--json` object of judged cases to standard output as it goes (one case at a
/// time, the contest output one verdict at a time), so that it takes no memory beyond the
/// judgements: `{"game", "rules", "cases": [{"case", "verdict", "explanation", "size"}, ...],
/// "output"}` on one line.
fn write_json<G: Game>(rules: Option<&str>, judgements: &[G::Judgement]) -> io::Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    write!(out, "{{\"game\":{},", serde_json::json!(G::NAME))?;
    write!(out, "\"rules\":{},\"cases\":[", serde_json::json!(rules))?;
    for (i, j) in judgements.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        let case = serde_json::json!({
            "case": i + 1,
            "verdict": j.verdict(),
            "explanation": j.explain(),
            "size": j.size(),
        });
        serde_json::to_writer(&mut out, &case)?;
    }
    out.write_all(b"],\"output\":\"")?;
    for (i, j) in judgements.iter().enumerate() {
        let mut piece = if i > 0 {
            G::BETWEEN.to_string()
        } else {
            String::new()
        };
        piece.push_str(&j.verdict());
        piece.push('\n');
        // The piece as a JSON string, without its quotes.
        let quoted = serde_json::to_string(&piece)?;
        out.write_all(&quoted.as_bytes()[1..quoted.len() - 1])?;
    }
    out.write_all(b"\"}\n")?;
    out.flush()
}
