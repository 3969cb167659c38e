//! What an audit says of each program, and of the data: the program's standing, its class
//! (what a judge system would make of it), the data's scores and the package's verdict. Pure
//! functions of the facts the stages gathered.

use serde::{Deserialize, Serialize};

use crate::audit::terms::Class;
use crate::audit::terms::Kind;

/// What the audit says of one program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// A finding proves it wrong (reproduced, and not the engine's fault).
    ProvedWrong,
    /// It ran its cases and nothing proves it wrong.
    NoFinding,
    /// It times out on the existing data: classified by it, and not run on more cases.
    TimesOutOnData,
    /// It ran no case to its end.
    NotAudited(Unaudited),
    /// It cannot be run: why (it does not build, or cannot be started).
    CannotRun(String),
}

/// Why a program ran no case to its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unaudited {
    /// `--time` ran out, or an interruption came, before its examples ran.
    BeforeExamples,
    /// `--time` ran out, or an interruption came, before its first case.
    BeforeFirstCase,
}

impl Unaudited {
    /// In words.
    pub fn text(self) -> &'static str {
        match self {
            Unaudited::BeforeExamples => {
                "--time ran out, or an interruption came, before its examples ran"
            }
            Unaudited::BeforeFirstCase => {
                "--time ran out, or an interruption came, before its first case"
            }
        }
    }
}

impl Standing {
    /// Whether the audit proved it wrong.
    pub fn proved_wrong(&self) -> bool {
        *self == Standing::ProvedWrong
    }

    /// Whether the scores count it wrong: a finding proves it, or it times out on a file of
    /// the existing data.
    pub fn counted_wrong(&self) -> Option<bool> {
        match self {
            Standing::ProvedWrong | Standing::TimesOutOnData => Some(true),
            Standing::NoFinding => Some(false),
            Standing::NotAudited(_) | Standing::CannotRun(_) => None,
        }
    }
}

/// A share of programs: `hits` out of `of`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
pub struct Rate {
    /// Programs counted.
    pub hits: usize,
    /// Out of.
    pub of: usize,
}

impl Rate {
    /// The share in words: `2/3 (66.7%)`, `- (no program)` of nothing.
    pub fn text(self) -> String {
        if self.of == 0 {
            "- (no program)".into()
        } else {
            format!(
                "{}/{} ({:.1}%)",
                self.hits,
                self.of,
                100.0 * self.hits as f64 / self.of as f64
            )
        }
    }
}

/// The data's scores, before and after the strengthening cases, on the same programs: those
/// with a result on the existing data that the audit classified (proved wrong by a finding or
/// by timing out on the data, or audited with no finding).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
pub struct Scores {
    /// Of the programs proved wrong, those the existing data rejects (true positive rate).
    pub tpr_existing: Rate,
    /// Of the programs with no finding, those the existing data accepts (true negative rate).
    pub tnr_existing: Rate,
    /// Of the programs proved wrong, those the strengthened data rejects.
    pub tpr_strengthened: Rate,
    /// Of the programs with no finding, those the strengthened data accepts.
    pub tnr_strengthened: Rate,
}

/// One program as the scores count it: whether the audit proved it wrong (`None`: not
/// counted), and whether the data rejects it before and after strengthening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scored {
    /// Proved wrong (`Some(true)`), audited with no finding (`Some(false)`), else not counted.
    pub wrong: Option<bool>,
    /// The existing data rejects it.
    pub rejected_before: bool,
    /// The data with the strengthening cases rejects it.
    pub rejected_after: bool,
}

/// The scores of `programs`.
pub fn scores(programs: &[Scored]) -> Scores {
    let rate = |wrong: bool, rejected: fn(&Scored) -> bool| {
        let pool: Vec<&Scored> = programs.iter().filter(|p| p.wrong == Some(wrong)).collect();
        Rate {
            hits: pool.iter().filter(|p| rejected(p) == wrong).count(),
            of: pool.len(),
        }
    };
    Scores {
        tpr_existing: rate(true, |p| p.rejected_before),
        tnr_existing: rate(false, |p| p.rejected_before),
        tpr_strengthened: rate(true, |p| p.rejected_after),
        tnr_strengthened: rate(false, |p| p.rejected_after),
    }
}

/// What a program does, as a judge system would class it: the data's result when the data
/// rejects it, else the class of its first finding that proves it wrong, else accepted;
/// `None` when neither the data nor the audit says.
pub fn does(
    on_data: Option<Class>,
    standing: &Standing,
    first_proof: Option<Kind>,
) -> Option<Class> {
    match (on_data, standing) {
        (Some(class), _) if class != Class::Accepted => Some(class),
        (_, Standing::ProvedWrong) => Some(first_proof.map_or(Class::WrongAnswer, Class::of_kind)),
        (Some(class), Standing::NoFinding) => Some(class),
        (None, Standing::NoFinding) => Some(Class::Accepted),
        _ => None,
    }
}

/// The facts the package's verdict on one program is drawn from.
#[derive(Debug, Clone)]
pub struct Facts<'a> {
    /// Its expected class.
    pub expected: Option<Class>,
    /// What it does.
    pub does: Option<Class>,
    /// The audit's standing.
    pub standing: &'a Standing,
    /// Whether the existing data rejects it.
    pub rejected_existing: bool,
    /// Whether it has a result on the existing data (or there is none).
    pub data_result: bool,
    /// Its first failing case, as reports name it.
    pub first_case: Option<&'a str>,
    /// Its flaky findings, when they fail the audit (`--strict`); else 0.
    pub flaky: usize,
}

/// What the package's verdict says of a program: nothing when it does what it should.
pub fn verdict(facts: &Facts) -> Vec<String> {
    let mut said = Vec::new();
    match facts.standing {
        Standing::CannotRun(why) => return vec![format!("not run: {why}")],
        Standing::NotAudited(why) => said.push(format!("not audited: {}", why.text())),
        _ => {}
    }
    if facts.flaky > 0 {
        said.push(format!(
            "{} flaky finding{} (failures that did not come back every time; --strict)",
            facts.flaky,
            if facts.flaky == 1 { "" } else { "s" }
        ));
    }
    if !facts.data_result {
        said.push("no result on the existing data: --time ran out before its runs ended".into());
    }
    let case = facts.first_case.unwrap_or("the statement's examples");
    let proved = facts.standing.proved_wrong();
    match facts.expected {
        Some(Class::Accepted) if proved => {
            said.push(format!("accepted, but proved wrong ({case})"));
            return said;
        }
        Some(expected) if expected != Class::Accepted && !facts.rejected_existing => {
            if proved {
                said.push(format!(
                    "the existing data accepts it; proved wrong ({case})"
                ));
            } else if *facts.standing == Standing::NoFinding {
                said.push("the existing data accepts it, and referee found no failing case".into());
            }
        }
        None if proved => said.push(format!("proved wrong ({case})")),
        None if *facts.standing == Standing::TimesOutOnData => {
            said.push("times out on the existing data".into())
        }
        _ => {}
    }
    if let (Some(expected), Some(does)) = (facts.expected, facts.does) {
        if !expected.allows(does) {
            said.push(format!("expected {expected}, does {does}"));
        }
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_the_same_programs_before_and_after() {
        let p = |wrong, before, after| Scored {
            wrong,
            rejected_before: before,
            rejected_after: after,
        };
        let s = scores(&[
            p(Some(true), true, true),
            p(Some(true), false, true),
            p(Some(true), false, false),
            p(Some(false), false, false),
            p(Some(false), true, true),
            p(None, true, true),
        ]);
        assert_eq!(s.tpr_existing, Rate { hits: 1, of: 3 });
        assert_eq!(s.tpr_strengthened, Rate { hits: 2, of: 3 });
        assert_eq!(s.tnr_existing, Rate { hits: 1, of: 2 });
        assert_eq!(s.tnr_strengthened, Rate { hits: 1, of: 2 });
        assert_eq!(Rate { hits: 2, of: 3 }.text(), "2/3 (66.7%)");
        assert_eq!(Rate { hits: 0, of: 0 }.text(), "- (no program)");
    }

    #[test]
    fn a_program_does_what_the_data_then_the_audit_say() {
        use Class::*;
        let wrong = Standing::ProvedWrong;
        let clean = Standing::NoFinding;
        assert_eq!(
            does(Some(TimeLimitExceeded), &wrong, Some(Kind::Crash)),
            Some(TimeLimitExceeded)
        );
        assert_eq!(
            does(Some(Accepted), &wrong, Some(Kind::Crash)),
            Some(RunTimeError)
        );
        assert_eq!(does(Some(Accepted), &wrong, None), Some(WrongAnswer));
        assert_eq!(does(Some(Accepted), &clean, None), Some(Accepted));
        assert_eq!(does(None, &clean, None), Some(Accepted));
        assert_eq!(
            does(
                None,
                &Standing::NotAudited(Unaudited::BeforeFirstCase),
                None
            ),
            None
        );
    }

    #[test]
    fn the_verdict_names_what_is_not_as_expected() {
        let facts = |expected, does, standing: &'static Standing, rejected| Facts {
            expected,
            does,
            standing,
            rejected_existing: rejected,
            data_result: true,
            first_case: Some("programs/a/x.in"),
            flaky: 0,
        };
        static WRONG: Standing = Standing::ProvedWrong;
        static CLEAN: Standing = Standing::NoFinding;
        use Class::*;
        assert!(verdict(&facts(Some(Accepted), Some(Accepted), &CLEAN, false)).is_empty());
        assert_eq!(
            verdict(&facts(Some(Accepted), Some(WrongAnswer), &WRONG, false)),
            ["accepted, but proved wrong (programs/a/x.in)"]
        );
        assert_eq!(
            verdict(&facts(Some(WrongAnswer), Some(WrongAnswer), &WRONG, false)),
            ["the existing data accepts it; proved wrong (programs/a/x.in)"]
        );
        assert!(verdict(&facts(Some(WrongAnswer), Some(WrongAnswer), &WRONG, true)).is_empty());
        assert_eq!(
            verdict(&facts(
                Some(TimeLimitExceeded),
                Some(WrongAnswer),
                &WRONG,
                true
            )),
            ["expected time_limit_exceeded, does wrong_answer"]
        );
        assert_eq!(
            verdict(&facts(Some(WrongAnswer), Some(Accepted), &CLEAN, false)),
            [
                "the existing data accepts it, and referee found no failing case",
                "expected wrong_answer, does accepted"
            ]
        );
        assert_eq!(
            verdict(&facts(None, Some(WrongAnswer), &WRONG, false)),
            ["proved wrong (programs/a/x.in)"]
        );
        let cannot = Standing::CannotRun("does not build".into());
        let f = Facts {
            standing: &cannot,
            ..facts(Some(Accepted), None, &CLEAN, false)
        };
        assert_eq!(verdict(&f), ["not run: does not build"]);
        // A program with no expected class that times out on the data, or is not audited.
        static SLOW: Standing = Standing::TimesOutOnData;
        assert_eq!(
            verdict(&facts(None, Some(TimeLimitExceeded), &SLOW, true)),
            ["times out on the existing data"]
        );
        let late = Standing::NotAudited(Unaudited::BeforeExamples);
        let f = Facts {
            standing: &late,
            ..facts(None, None, &CLEAN, false)
        };
        assert_eq!(
            verdict(&f),
            ["not audited: --time ran out, or an interruption came, before its examples ran"]
        );
        // Flaky findings are said with --strict only (the caller counts them then).
        let f = Facts {
            flaky: 2,
            ..facts(None, Some(Accepted), &CLEAN, false)
        };
        assert_eq!(
            verdict(&f),
            ["2 flaky findings (failures that did not come back every time; --strict)"]
        );
    }
}
