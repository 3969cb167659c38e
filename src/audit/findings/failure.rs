//! One failure of a program, from the run that showed it to the finding reported: one type,
//! [`Failure`], whose states are its stages, each holding what the stages before it gave.
//!
//! ```text
//!  Seen<C>        a run of a unit of cases failed (on the program's lane, in case order)
//!    |  isolate   narrowed to one case that fails alone, else the whole unit (batch only)
//!  Isolated<C>    its case, its input in the program's form
//!    |  settle    run again (a failure that does not come back is `flaky`), shrunk, the
//!    |            smallest case that fails every time run again, an answer confirmed by the
//!    |            reference (a disputed one is `engine-disputed`)
//!  Settled        a finding ([`Finding`]), ready to report
//! ```
//!
//! The moves between stages are in [`crate::audit::findings::settle`]; an isolated failure whose kind and
//! difference are already known is only counted ([`crate::audit::findings::finding::ProgramFindings`]).
//! A strengthening case that fails a program on every run is settled as it is
//! ([`crate::audit::strengthen::finding_of`]).

use std::sync::Arc;

use crate::audit::cases::plan::{Prepared, UnitCase};
use crate::audit::findings::evidence::Evidence;
use crate::audit::terms::outcome::{difference, Tried};
use crate::audit::terms::{Kind, Source};
use crate::harness::signatures::signature;
use referee_sandbox::Ending;

/// A failure at stage `S`.
#[derive(Debug, Clone)]
pub struct Failure<S> {
    /// The kind it was first seen as.
    pub seen: Kind,
    /// The run that shows it: the unit's, then its case's alone, then the smallest case's.
    pub tried: Tried,
    /// What its stage knows.
    pub stage: S,
}

/// The first stage: a run of a unit of cases failed.
#[derive(Debug)]
pub struct Seen<C> {
    /// The unit.
    pub prepared: Arc<Prepared<C>>,
}

/// The second stage: a case that fails alone, or the whole unit when none does.
#[derive(Debug)]
pub struct Isolated<C> {
    /// The case (the unit's first, when none fails alone).
    pub case: UnitCase<C>,
    /// The input run, in the program's form.
    pub input: Vec<u8>,
    /// Set when no single case of the failing run fails alone: `input` is the whole unit's.
    pub batch_only: bool,
    /// The time limit its runs get: its case's, or the whole unit's (the sum of its cases').
    pub limit: std::time::Duration,
}

/// The last stage: run again, shrunk and confirmed, ready to report.
#[derive(Debug, Clone)]
pub struct Settled {
    /// The time limit its input's runs get (the reproducing command's).
    pub limit: std::time::Duration,
    /// Its kind as reported (`flaky` and `engine-disputed` differ from the kind seen).
    pub kind: Kind,
    /// Where its case comes from.
    pub source: Source,
    /// The shape of its case (none for a failure of a whole run).
    pub shape: Option<String>,
    /// Its case alone, in the game's single-case form.
    pub case: Vec<u8>,
    /// Its input, in the form the program was run in.
    pub input: Vec<u8>,
    /// What stands behind it.
    pub evidence: Evidence,
    /// Shrinking steps taken.
    pub shrink_steps: usize,
    /// Whether it fails only with the other cases of its run.
    pub batch_only: bool,
    /// Where its case lies outside the contest's limits: what they allow, what it has.
    pub outside: Option<(String, String)>,
    /// The case's size as the game counts it (`12 moves`, `16 squares`), when known.
    pub size: Option<String>,
    /// More for the detail column.
    pub notes: Vec<String>,
}

/// A failure settled: a finding.
pub type Finding = Failure<Settled>;

impl<C> Failure<Seen<C>> {
    /// The failure `tried` shows on the unit `prepared`; none when the run passed.
    pub fn seen(prepared: Arc<Prepared<C>>, tried: Tried) -> Option<Self> {
        Some(Failure {
            seen: tried.kind?,
            tried,
            stage: Seen { prepared },
        })
    }
}

impl<C> Failure<Isolated<C>> {
    /// The key that tells failures apart before shrinking: the kind and how the output
    /// differs (for answers) or the exit (for crashes).
    pub fn key(&self) -> String {
        let (kind, tried) = (self.seen, &self.tried);
        match kind {
            k if k.about_the_answer() => signature(
                kind.as_str(),
                &[&difference(&tried.expected, &tried.run.stdout)],
            ),
            _ => signature(kind.as_str(), &[&crash_detail(kind, tried.run.ending)]),
        }
    }
}

impl Finding {
    /// The finding's signature: its kind, how the whole output differs (for answers) or the
    /// exit (for crashes), and the shape of its case.
    pub fn signature(&self) -> String {
        let kind = self.stage.kind;
        let answer = match kind {
            Kind::WrongAnswer | Kind::PresentationError | Kind::EngineDisputed => {
                difference(&self.tried.expected, &self.tried.run.stdout)
            }
            _ => String::new(),
        };
        let exit = crash_detail(self.seen, self.tried.run.ending);
        let seen = if kind == Kind::Flaky {
            format!("first seen as {}", self.seen)
        } else {
            String::new()
        };
        let shape = self.stage.shape.clone().unwrap_or_default();
        signature(kind.as_str(), &[&seen, &answer, &exit, &shape])
    }
}

/// The exit code or signal of a crash, or the forbidden call it was ended on, for signatures
/// and the detail column.
fn crash_detail(kind: Kind, ending: Ending) -> String {
    match ending {
        Ending::Exited(code) if kind == Kind::Crash => format!("exit {code}"),
        Ending::Signalled(signal) => format!("signal {signal}"),
        Ending::Forbidden(refusal) => format!("forbidden: {}", refusal.call),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::findings::evidence::Reruns;
    use referee_sandbox::Run;

    fn tried(ending: Ending, stdout: &[u8], expected: &str) -> Tried {
        Tried::new(Run::ended(ending, stdout), expected.to_string())
    }

    fn unit() -> Arc<Prepared<()>> {
        Arc::new(Prepared {
            index: 3,
            cases: Vec::new(),
            input: b"1\n".to_vec(),
            expected: "X WINS\n".into(),
            verdicts: vec!["X WINS".into()],
            dropped: 0,
        })
    }

    fn isolated(tried: Tried) -> Failure<Isolated<()>> {
        Failure {
            seen: tried.kind.expect("a failing run"),
            tried,
            stage: Isolated {
                case: UnitCase {
                    source: Source::Examples,
                    case: (),
                    input: b"1\n".to_vec(),
                    outside: None,
                },
                input: b"1\n".to_vec(),
                batch_only: false,
                limit: std::time::Duration::from_secs(1),
            },
        }
    }

    #[test]
    fn a_run_that_passes_is_no_failure() {
        let passed = tried(Ending::Exited(0), b"X WINS\n", "X WINS\n");
        assert!(Failure::seen(unit(), passed).is_none());
        let wrong = tried(Ending::Exited(0), b"O WINS\n", "X WINS\n");
        let failure = Failure::seen(unit(), wrong).expect("a wrong answer is a failure");
        assert_eq!(
            (failure.seen, failure.stage.prepared.index),
            (Kind::WrongAnswer, 3)
        );
    }

    #[test]
    fn the_key_tells_answers_by_their_difference_and_crashes_by_their_exit() {
        let wrong = isolated(tried(Ending::Exited(0), b"O WINS\n", "X WINS\n"));
        let other = isolated(tried(Ending::Exited(0), b"TIE GAME\n", "X WINS\n"));
        assert_ne!(wrong.key(), other.key());
        let crash = isolated(tried(Ending::Exited(3), b"", "X WINS\n"));
        let signalled = isolated(tried(Ending::Signalled(11), b"", "X WINS\n"));
        assert_eq!(crash.seen, Kind::Crash);
        assert_ne!(crash.key(), signalled.key());
        assert!(signalled.key().contains("signal 11"), "{}", signalled.key());
    }

    #[test]
    fn a_flaky_finding_is_signed_with_the_kind_first_seen() {
        let run = tried(Ending::Exited(0), b"O WINS\n", "X WINS\n");
        let settled = |kind| Finding {
            seen: Kind::WrongAnswer,
            tried: run.clone(),
            stage: Settled {
                limit: std::time::Duration::from_secs(1),
                kind,
                source: Source::Examples,
                shape: Some("3x3".into()),
                case: b"1\n".to_vec(),
                input: b"1\n".to_vec(),
                evidence: Evidence {
                    reruns: Reruns::seen(1),
                    reference: None,
                },
                shrink_steps: 0,
                batch_only: false,
                outside: None,
                size: None,
                notes: Vec::new(),
            },
        };
        let flaky = settled(Kind::Flaky).signature();
        let wrong = settled(Kind::WrongAnswer).signature();
        assert!(flaky.contains("first seen as wrong-answer"), "{flaky}");
        assert!(!wrong.contains("first seen"), "{wrong}");
        assert!(wrong.contains("3x3"), "{wrong}");
    }
}
