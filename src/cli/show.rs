//! `referee show`: one case drawn on the terminal (and, with `--html`, as a report page).

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{check_output_file, rules_help};
use crate::formats::html::{Page, Problem, LARGEST_DRAWN};
use crate::game::view::{use_color, ColorChoice, DrawRequest};
use crate::game::AnyGame;
use crate::game::{rules_from_flag, RuleSet};
use crate::games::{GameName, Visitor};
use crate::util::error::{JudgeError, RunError};

#[derive(Debug, clap::Args)]
pub(super) struct ShowArgs {
    /// The game.
    game: GameName,
    /// The input file; standard input when absent or `-`.
    file: Option<PathBuf>,
    #[arg(long, help = rules_help())]
    rules: Option<String>,
    /// The case of a multi-case input (1-based).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    case: u64,
    /// Pousse: the board after this move (0: the empty board; default: the decisive move, or
    /// the last).
    #[arg(long = "move", value_name = "K")]
    step: Option<u64>,
    /// Colours: `auto` on a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Also write the case as a self-contained HTML page to FILE (with the replay for Pousse;
    /// replaced atomically).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

pub(super) fn show(args: ShowArgs) -> Result<ExitCode, RunError> {
    if let Some(html) = &args.html {
        check_output_file("--html", html, None)?;
        let input = args.file.as_deref().filter(|f| f.as_os_str() != "-");
        super::not_inside("--html", html, input.map(|f| ("the input", f)))?;
    }
    let (name, reader) = super::open_input(args.file.as_deref())?;
    let input = crate::util::text::read_at_most(reader, LARGEST_DRAWN)
        .map_err(|source| RunError::Io {
            path: name.clone().into(),
            source,
        })?
        .ok_or_else(|| super::UsageError::TooLargeToDraw {
            name: name.clone(),
            mib: LARGEST_DRAWN >> 20,
        })?;
    args.game.visit(Show {
        args: &args,
        name: &name,
        input: &input,
    })
}

/// A case drawn: the flags, the input's name and its bytes.
struct Show<'a> {
    args: &'a ShowArgs,
    name: &'a str,
    input: &'a [u8],
}
impl Visitor for Show<'_> {
    type Output = Result<ExitCode, RunError>;
    fn visit<G: AnyGame>(self) -> Self::Output {
        let args = self.args;
        let rules = rules_from_flag::<G>(args.rules.as_deref())?;
        if args.step.is_some() && G::STEP.is_empty() {
            return Err(super::UsageError::NoMoves(G::NAME).into());
        }
        let request = DrawRequest {
            case: args.case,
            step: args.step,
            color: use_color(args.color, io::stdout().is_terminal()),
        };
        let drawing = match G::draw(self.input, rules, &request) {
            Ok(drawing) => drawing,
            Err(JudgeError::Input(e)) => {
                eprintln!("error: {}", e.located(self.name));
                return Ok(ExitCode::from(1));
            }
            Err(source) => {
                return Err(RunError::Judge {
                    file: self.name.to_string(),
                    source,
                })
            }
        };
        super::print_out("the drawing", &drawing)?;
        if let Some(path) = &args.html {
            self.write_page::<G>(path, rules)?;
        }
        Ok(ExitCode::SUCCESS)
    }
}
impl Show<'_> {
    /// The case as a self-contained HTML page at `path`.
    fn write_page<G: AnyGame>(&self, path: &Path, rules: G::Options) -> Result<(), RunError> {
        let case = self.args.case;
        let view = G::board_view(self.input, rules, case).map_err(|source| RunError::Judge {
            file: self.name.to_string(),
            source,
        })?;
        let mut page = Page::new(&format!("referee show {}", G::NAME));
        page.about = vec![format!(
            "{}, case {case}{}",
            self.name,
            if rules.name().is_empty() {
                String::new()
            } else {
                format!(", rules {}", rules.name())
            }
        )];
        let problem = Problem {
            name: format!("{}, case {case}", self.name),
            game: G::NAME.to_string(),
            status: "shown".to_string(),
            view: Some(view),
            ..Problem::default()
        };
        page.add_problem(problem, None);
        page.write(path, &[]).map_err(|e| RunError::io(path, e))
    }
}
