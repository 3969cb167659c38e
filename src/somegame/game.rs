//! Some Game as a [`Game`]: the engine and the reference behind one interface.

use std::io::Read;

use super::{BoardCase, Judgement, Reason, CONTEST_MAX_SQUARES};
use crate::game::problem::Content;
use crate::game::view::{BoardView, DrawRequest};
use crate::game::{
    Engine, Form, Forms, Game, Generated, Packaged, Pictured, ReferenceCase, ReferenceStop,
    Referenced,
};
use crate::util::error::JudgeError;

/// Some Game.
pub struct SomeGame;

impl Game for SomeGame {
    const NAME: &'static str = "somegame";
    const BETWEEN: &'static str = "\n";
    const FIRST_LINE: &'static str = "a header 'P R C K'";
    type Options = ();
    type Judgement = Judgement;
    fn judge(engine: Engine, input: &mut dyn Read, (): ()) -> Result<Vec<Judgement>, JudgeError> {
        match engine {
            Engine::Fast => super::judge(input),
            Engine::Reference => super::reference::judge(input),
        }
    }
    fn judge_each(
        input: &mut dyn Read,
        (): (),
        each: &mut dyn FnMut(Judgement),
    ) -> Result<(), JudgeError> {
        super::judge_streamed(input, super::engine::judge, each)
    }
    /// The walk of whole cycles, without the scan that settles most boards first.
    fn judge_general_path(input: &[u8], (): ()) -> Option<Result<Vec<Judgement>, JudgeError>> {
        Some(super::judge_by_walk(input))
    }
    /// Four integers.
    fn recognises(line: &[u8]) -> bool {
        let fields: Vec<&[u8]> = line
            .split(|b| *b == b' ' || *b == b'\t')
            .filter(|f| !f.is_empty())
            .collect();
        fields.len() == 4 && fields.iter().all(|f| f.iter().all(u8::is_ascii_digit))
    }
}

impl Referenced for SomeGame {
    fn reference_cases<'a>(
        input: Box<dyn std::io::Read + Send + 'a>,
        bound: u64,
    ) -> Box<dyn Iterator<Item = Result<ReferenceCase, ReferenceStop>> + Send + 'a> {
        Box::new(referee_reference::somegame::cases(input, bound))
    }
    fn reference_judge_case(case: &ReferenceCase, (): ()) -> Result<Judgement, JudgeError> {
        super::reference::judge_case(case)
    }
    fn reference_check_case(case: &ReferenceCase) -> Result<(), JudgeError> {
        Ok(referee_reference::somegame::check_case(case)?)
    }
    fn reference_parses(input: &[u8]) -> Result<(), JudgeError> {
        referee_reference::somegame::parse(input)?;
        Ok(())
    }
    fn reference_cost(j: &Judgement, (): ()) -> u64 {
        // The counts visit every square once per player owning squares (at most min(P, n));
        // a line check walks up to min(K, squares) squares from every square along 8 steps, for
        // each such player, once, and again per square of the last mover removed.
        let n = j.squares;
        let owners = j.players.min(n).max(1);
        let walk = j.walk.min(n).max(1);
        let checks = match j.reason {
            Reason::LastMoverLine { .. } => n + 1,
            _ => 1,
        };
        let counts = n.saturating_mul(owners);
        let lines = n
            .saturating_mul(8)
            .saturating_mul(walk)
            .saturating_mul(owners)
            .saturating_mul(checks);
        counts.saturating_add(lines)
    }
}

impl Forms for SomeGame {
    const SINGLE_FORM: &'static str = "one data set: 'P R C K', then R rows of C values";
    const MULTI_FORM: &'static str = "data sets one after another until the end of input";
    /// The first and third data sets of the sample input.
    const PROBES: [&'static str; 2] = [
        "1 3 3 4\n1 0 0\n0 1 0\n0 0 1\n",
        "2 3 3 2\n2 2 2\n1 0 1\n0 0 0\n",
    ];
    /// The sample input stacks its four data sets.
    const STATEMENT_FORM: Form = Form::Multi;
    /// `PLAYER x` (x a player's number: 1 or more, without leading zeros), `NO WINNERS`,
    /// `ERROR`.
    fn is_verdict(line: &str) -> bool {
        match line.strip_prefix("PLAYER ") {
            Some(number) => {
                !number.is_empty()
                    && !number.starts_with('0')
                    && number.bytes().all(|b| b.is_ascii_digit())
            }
            None => matches!(line, "NO WINNERS" | "ERROR"),
        }
    }
    fn join(inputs: &[Vec<u8>]) -> Vec<u8> {
        inputs.concat()
    }
    /// Data sets one after another.
    fn write_joined(
        count: usize,
        inputs: &mut dyn Iterator<Item = Vec<u8>>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        for input in inputs.take(count) {
            out.write_all(&input)?;
        }
        Ok(())
    }
    fn case_ranges(input: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
        data_sets(input)
    }
}

impl Generated for SomeGame {
    type Case = BoardCase;
    const FEATURES: &'static [&'static str] = super::features::FEATURES;
    const COVERAGE: &'static [&'static str] = super::features::COVERAGE;
    fn coverage(input: &[u8], _: Self::Options, judgements: &[Judgement]) -> Vec<&'static str> {
        super::features::coverage(input, judgements)
    }
    fn features(input: &[u8], _: Self::Options, judgements: &[Judgement]) -> Vec<&'static str> {
        super::features::features(input, judgements)
    }
}

impl Packaged for SomeGame {
    fn outside_contest(j: &Judgement) -> Option<(String, String)> {
        (j.squares > CONTEST_MAX_SQUARES).then(|| {
            (
                format!("a board of at most {CONTEST_MAX_SQUARES} squares (the package's limit)"),
                format!("{} squares", j.squares),
            )
        })
    }
    fn package((): ()) -> Option<Content> {
        Some(super::package::content())
    }
}

impl Pictured for SomeGame {
    fn draw(input: &[u8], _: (), request: &DrawRequest) -> Result<String, JudgeError> {
        super::show::draw(input, request)
    }
    fn board_view(input: &[u8], _: (), case: u64) -> Result<BoardView, JudgeError> {
        super::show::board_view(input, case)
    }
}

/// The byte ranges of the data sets of an input (a header `P R C K`, then R rows; blank lines
/// between data sets), each a one-data-set input on its own; `None` when a header does not
/// read or rows are missing.
fn data_sets(input: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
    let mut sets = Vec::new();
    let mut lines = crate::util::text::line_spans(input);
    while let Some((start, mut end, header)) =
        lines.find(|(_, _, l)| !crate::util::text::is_blank(l))
    {
        let rows: u64 = std::str::from_utf8(header)
            .ok()?
            .split_ascii_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        for _ in 0..rows {
            end = lines.next()?.1;
        }
        sets.push(start..end);
    }
    (!sets.is_empty()).then_some(sets)
}
