//! `referee validate` (an input validator) and `referee check` (an output validator), with the
//! exit codes and feedback files of the judge system's protocol.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::rules_help;
use crate::game::rules_from_flag;
use crate::game::AnyGame;
use crate::games::{GameName, Visitor};
use crate::judge_system::check::{check, check_answer, Decision, Layout};
use crate::judge_system::validate::{validate, Constraints};
use crate::util::answer::Verdict;
use crate::util::error::RunError;

/// Kattis' and DOMjudge's exit code for a valid input or an accepted output.
const KATTIS_ACCEPT: u8 = 42;
/// Kattis' and DOMjudge's exit code for an invalid input or a wrong answer.
const KATTIS_REJECT: u8 = 43;

#[derive(Debug, clap::Args)]
pub(super) struct ValidateArgs {
    /// The game.
    game: GameName,
    /// The input file; standard input when absent or `-`.
    file: Option<PathBuf>,
    #[arg(long, help = rules_help())]
    rules: Option<String>,
    /// `engine`: what the engine judges; `contest`: also the original problem's limits and the
    /// one canonical layout (single spaces, no leading zeros or extra blank lines).
    #[arg(long, value_enum, default_value_t = Constraints::Engine)]
    constraints: Constraints,
    /// Validate an answer file instead (BAPCtools' answer validator: `run INPUT < ANSWER`): it
    /// is valid when it is byte for byte the engine's verdicts on this input.
    #[arg(long, value_name = "INPUT")]
    answer_of: Option<PathBuf>,
    /// The most bytes of input read: a longer input is invalid (exit 43), so an endless one
    /// ends. Under `--constraints contest`, a case ends at the contest's limits before that.
    #[arg(long, value_parser = super::amount, default_value = "1000000000")]
    max_input_bytes: u64,
}

/// The judge system whose checker protocol `check` speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Protocol {
    /// Kattis and DOMjudge: `INPUT ANSWER FEEDBACK_DIR [ARGS] < OUTPUT`; exit 42 accepted, 43
    /// wrong, 1 judge error; judgemessage.txt (judgeerror.txt) in FEEDBACK_DIR.
    Kattis,
    /// testlib (Codeforces Polygon): `INPUT OUTPUT ANSWER`; exit 0 OK, 1 WA, 2 PE, 3 FAIL.
    Testlib,
    /// CMS: `INPUT ANSWER OUTPUT`; the score on standard output, a message on standard error.
    Cms,
}

#[derive(Debug, clap::Args)]
pub(super) struct CheckArgs {
    /// The game.
    game: GameName,
    /// The files, in the protocol's order (Kattis: INPUT ANSWER FEEDBACK_DIR, then the
    /// problem's validator arguments, where a rule set name, `rules=R` or `--rules R` chooses
    /// the rule set and `case_sensitive`, `space_change_sensitive` set the layout as for the
    /// default output validator; testlib: INPUT OUTPUT ANSWER; CMS: INPUT ANSWER OUTPUT).
    #[arg(required = true, num_args = 3.., allow_hyphen_values = true)]
    operands: Vec<String>,
    #[arg(long, help = rules_help())]
    rules: Option<String>,
    /// The judge system's protocol.
    #[arg(long, value_enum, default_value_t = Protocol::Kattis)]
    protocol: Protocol,
    /// Kattis: also write teammessage.txt (shown to the team) with the verdict's reason.
    #[arg(long)]
    team_message: bool,
}

pub(super) fn validate_input(args: ValidateArgs) -> Result<ExitCode, RunError> {
    let (name, input) = super::open_input(args.file.as_deref())?;
    struct Validate<'a> {
        args: &'a ValidateArgs,
        name: &'a str,
        input: Box<dyn Read + 'a>,
    }
    impl Visitor for Validate<'_> {
        type Output = Result<ExitCode, RunError>;
        fn visit<G: AnyGame>(self) -> Self::Output {
            let rules = rules_from_flag::<G>(self.args.rules.as_deref())?;
            if let Some(of) = &self.args.answer_of {
                let checked =
                    check_answer::<G>(of, self.input, rules).map_err(|e| RunError::io(of, e))?;
                return Ok(match checked {
                    Ok(()) => {
                        eprintln!("{}: the engine's verdicts on {}", self.name, of.display());
                        ExitCode::from(KATTIS_ACCEPT)
                    }
                    Err(why) => {
                        eprintln!("{}:{why}", self.name);
                        ExitCode::from(KATTIS_REJECT)
                    }
                });
            }
            let input = crate::util::text::Bounded::new(self.input, self.args.max_input_bytes);
            match validate::<G>(input, rules, self.args.constraints) {
                Ok(cases) => {
                    eprintln!(
                        "{}: valid ({cases} case{})",
                        self.name,
                        if cases == 1 { "" } else { "s" }
                    );
                    Ok(ExitCode::from(KATTIS_ACCEPT))
                }
                Err(why) => {
                    eprintln!("{}:{}", self.name, why.0);
                    Ok(ExitCode::from(KATTIS_REJECT))
                }
            }
        }
    }
    args.game.visit(Validate {
        args: &args,
        name: &name,
        input,
    })
}

pub(super) fn check_output(args: CheckArgs) -> Result<ExitCode, RunError> {
    let ops = &args.operands;
    let (input, answer, output, feedback, extra) = match args.protocol {
        Protocol::Kattis => (
            &ops[0],
            &ops[1],
            None,
            Some(PathBuf::from(&ops[2])),
            &ops[3..],
        ),
        Protocol::Testlib => (&ops[0], &ops[2], Some(&ops[1]), None, &ops[3..]),
        Protocol::Cms => (&ops[0], &ops[1], Some(&ops[2]), None, &ops[3..]),
    };
    let rules = args
        .rules
        .clone()
        .or_else(|| crate::judge_system::rules_in(extra));
    struct Check<'a> {
        input: &'a Path,
        answer: &'a Path,
        output: Option<&'a Path>,
        rules: Option<&'a str>,
        layout: Layout,
    }
    impl Visitor for Check<'_> {
        type Output = Result<io::Result<Decision>, RunError>;
        fn visit<G: AnyGame>(self) -> Self::Output {
            let rules = rules_from_flag::<G>(self.rules)?;
            Ok(match self.output {
                Some(path) => crate::util::guard::open_regular_named(path)
                    .and_then(|f| check::<G>(self.input, self.answer, f, rules, self.layout)),
                None => check::<G>(
                    self.input,
                    self.answer,
                    io::stdin().lock(),
                    rules,
                    self.layout,
                ),
            })
        }
    }
    let decided = args.game.visit(Check {
        input: Path::new(input),
        answer: Path::new(answer),
        output: output.map(Path::new),
        rules: rules.as_deref(),
        layout: Layout::from_arguments(extra),
    });
    // Bad flags, unreadable files: a judge error in every protocol.
    let decision = match decided {
        Ok(Ok(d)) => d,
        Ok(Err(e)) => Decision::JudgeError(format!("reading the files: {e}")),
        Err(e) => Decision::JudgeError(e.to_string()),
    };
    report(
        args.protocol,
        feedback.as_deref(),
        args.team_message,
        &decision,
    )
}

/// The files referee writes in a Kattis feedback directory.
const FEEDBACK_FILES: [&str; 3] = ["judgemessage.txt", "judgeerror.txt", "teammessage.txt"];

/// Tells the judge system `decision` in `protocol`'s terms.
fn report(
    protocol: Protocol,
    feedback: Option<&Path>,
    team_message: bool,
    decision: &Decision,
) -> Result<ExitCode, RunError> {
    if let Some(dir) = feedback {
        clear_feedback(dir)?;
    }
    match protocol {
        Protocol::Kattis => kattis(feedback, team_message, decision),
        Protocol::Testlib => {
            let (code, text) = match decision {
                Decision::Accepted => (0, "ok every verdict agrees with the engine".to_string()),
                Decision::Rejected {
                    verdict: Verdict::PE,
                    message,
                } => (2, format!("wrong output format {message}")),
                Decision::Rejected { message, .. } => (1, format!("wrong answer {message}")),
                Decision::JudgeError(why) => (3, format!("FAIL {why}")),
            };
            eprintln!("{text}");
            Ok(ExitCode::from(code))
        }
        Protocol::Cms => match decision {
            Decision::Accepted => {
                super::print_out("the score", "1.0\n")?;
                eprintln!("Output is correct");
                Ok(ExitCode::SUCCESS)
            }
            Decision::Rejected { verdict, message } => {
                super::print_out("the score", "0.0\n")?;
                eprintln!("{}: {message}", verdict_word(*verdict));
                Ok(ExitCode::SUCCESS)
            }
            Decision::JudgeError(why) => {
                eprintln!("judge error: {why}");
                Ok(ExitCode::from(1))
            }
        },
    }
}

/// Removes referee's own files left in the feedback directory `dir` by an earlier run (a link
/// is removed, never followed): it holds this run's files only.
fn clear_feedback(dir: &Path) -> Result<(), RunError> {
    for name in FEEDBACK_FILES {
        match std::fs::remove_file(dir.join(name)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(RunError::io(&dir.join(name), e))
            }
            _ => {}
        }
    }
    Ok(())
}

/// `decision` in the Kattis protocol: its exit code, and its messages in the feedback
/// directory, when there is one (each file created anew, refusing anything that appears in its
/// place meanwhile).
fn kattis(
    feedback: Option<&Path>,
    team_message: bool,
    decision: &Decision,
) -> Result<ExitCode, RunError> {
    let write = |name: &str, text: &str| -> Result<(), RunError> {
        let Some(dir) = feedback else {
            return Ok(());
        };
        let path = dir.join(name);
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut f| io::Write::write_all(&mut f, format!("{text}\n").as_bytes()))
            .map_err(|e| RunError::io(&path, e))
    };
    match decision {
        Decision::Accepted => {
            write(
                "judgemessage.txt",
                "accepted: every verdict agrees with the engine",
            )?;
            Ok(ExitCode::from(KATTIS_ACCEPT))
        }
        Decision::Rejected { verdict, message } => {
            let text = format!("{}: {message}", verdict_word(*verdict));
            write("judgemessage.txt", &text)?;
            if team_message {
                write("teammessage.txt", &text)?;
            }
            Ok(ExitCode::from(KATTIS_REJECT))
        }
        Decision::JudgeError(why) => {
            let text = format!("judge error: {why}");
            write("judgeerror.txt", &text)?;
            write("judgemessage.txt", &text)?;
            eprintln!("{text}");
            Ok(ExitCode::from(1))
        }
    }
}

fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::AC => "accepted",
        Verdict::PE => "presentation error",
        Verdict::NO => "no output",
        Verdict::WA | Verdict::JE => "wrong answer",
    }
}
