//! LittleSquares as a [`Game`]: the engine and the reference behind one interface.

use std::io::Read;

use super::{GridCase, Judgement};
use crate::game::problem::Content;
use crate::game::view::{BoardView, DrawRequest};
use crate::game::{
    Engine, Form, Forms, Game, Generated, Packaged, Pictured, ReferenceCase, ReferenceStop,
    Referenced,
};
use crate::util::error::JudgeError;

/// LittleSquares.
pub struct LittleSquares;

impl Game for LittleSquares {
    const NAME: &'static str = "littlesquares";
    const BETWEEN: &'static str = "";
    const FIRST_LINE: &'static str = "a grid row of '.' and '#' or a '{' literal";
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
        super::parse::judge_each(input, each)
    }
    /// A row of `.` and `#`, or the `{` of a TopCoder literal.
    fn recognises(line: &[u8]) -> bool {
        line.starts_with(b"{") || line.iter().all(|b| *b == b'.' || *b == b'#')
    }
}

impl Referenced for LittleSquares {
    /// The Grundy value from the definitions, for grids beyond the reference's search.
    fn second_opinion(
        input: &[u8],
        (): (),
        judgements: &[Judgement],
    ) -> Option<Result<(), crate::game::Disagreement>> {
        Some(super::oracle::check(input, judgements))
    }
    fn reference_cases<'a>(
        input: Box<dyn std::io::Read + Send + 'a>,
        bound: u64,
    ) -> Box<dyn Iterator<Item = Result<ReferenceCase, ReferenceStop>> + Send + 'a> {
        Box::new(referee_reference::littlesquares::cases(input, bound))
    }
    fn reference_judge_case(case: &ReferenceCase, (): ()) -> Result<Judgement, JudgeError> {
        super::reference::judge_case(case)
    }
    fn reference_check_case(case: &ReferenceCase) -> Result<(), JudgeError> {
        Ok(referee_reference::littlesquares::check_case(case)?)
    }
    fn reference_parses(input: &[u8]) -> Result<(), JudgeError> {
        Ok(referee_reference::littlesquares::check(input)?)
    }
    fn reference_cost(j: &Judgement, (): ()) -> u64 {
        // Memoised positions (2^empty) times the moves tried in each.
        if j.empty > referee_reference::littlesquares::MAX_EMPTY as u64 {
            return 0; // The reference refuses at once.
        }
        (1u64 << j.empty).saturating_mul(2 * j.empty + 1)
    }
}

impl Forms for LittleSquares {
    const SINGLE_FORM: &'static str = "one grid, a row per line";
    const MULTI_FORM: &'static str = "grids separated by an empty line";
    /// The first and third examples of the statement.
    const PROBES: [&'static str; 2] = ["..\n..\n", "..\n..\n..\n..\n"];
    /// A TopCoder problem: each example is one call, one grid.
    const STATEMENT_FORM: Form = Form::Single;
    fn is_verdict(line: &str) -> bool {
        matches!(line, "first" | "second")
    }
    fn join(inputs: &[Vec<u8>]) -> Vec<u8> {
        inputs.join(&b"\n"[..])
    }
    /// Grids separated by an empty line.
    fn write_joined(
        count: usize,
        inputs: &mut dyn Iterator<Item = Vec<u8>>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        for (i, input) in inputs.take(count).enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(&input)?;
        }
        Ok(())
    }
    fn case_ranges(input: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
        grids_of_rows_form(input).or_else(|| literals(input))
    }
}

impl Generated for LittleSquares {
    type Case = GridCase;
    const FEATURES: &'static [&'static str] = super::features::FEATURES;
    const COVERAGE: &'static [&'static str] = super::features::COVERAGE;
    fn coverage(input: &[u8], _: Self::Options, judgements: &[Judgement]) -> Vec<&'static str> {
        super::features::coverage(input, judgements)
    }
    fn features(input: &[u8], _: Self::Options, judgements: &[Judgement]) -> Vec<&'static str> {
        super::features::features(input, judgements)
    }
}

impl Packaged for LittleSquares {
    fn package((): ()) -> Option<Content> {
        Some(super::package::content())
    }
    fn outside_contest(j: &Judgement) -> Option<(String, String)> {
        (!j.within_contest_limits).then(|| {
            (
                "an even number of rows from 2 to 10, all of the same even length from 2 to 10 \
                 (the contest's limits)"
                    .to_string(),
                format!("a {} x {} grid", j.rows, j.cols),
            )
        })
    }
    /// Ten rows of ten squares and their line ends, or the literal of such a grid: far less.
    const CONTEST_CASE_BYTES: Option<u64> = Some(1 << 10);
}

impl Pictured for LittleSquares {
    fn draw(input: &[u8], _: (), request: &DrawRequest) -> Result<String, JudgeError> {
        super::show::draw(input, request)
    }
    fn board_view(input: &[u8], _: (), case: u64) -> Result<BoardView, JudgeError> {
        super::show::board_view(input, case)
    }
}

/// The byte ranges of the literals of an input in the TopCoder literal form (`{` to its `}`,
/// each a one-grid input on its own: the squares' strings hold no braces); `None` for the rows
/// form, an input without a literal, or a brace left open or closed twice.
fn literals(input: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
    let mut found = Vec::new();
    let mut open: Option<usize> = None;
    for (i, &b) in input.iter().enumerate() {
        match (b, open) {
            (b'{', None) => open = Some(i),
            (b'}', Some(start)) => {
                found.push(start..i + 1);
                open = None;
            }
            (b'{' | b'}', _) => return None,
            _ => {}
        }
    }
    (open.is_none() && !found.is_empty()).then_some(found)
}

/// The byte ranges of the grids of an input in the rows form (runs of lines that are not
/// blank, separated by blank lines), each a one-grid input on its own; `None` for the literal
/// form or an input without a grid.
fn grids_of_rows_form(input: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
    if input.iter().find(|b| !b" \t\r\n".contains(b)) == Some(&b'{') {
        return None;
    }
    let mut grids: Vec<std::ops::Range<usize>> = Vec::new();
    let mut open = false;
    for (start, next, line) in crate::util::text::line_spans(input) {
        match (crate::util::text::is_blank(line), open) {
            (true, _) => open = false,
            (false, true) => grids.last_mut().expect("an open grid").end = next,
            (false, false) => {
                grids.push(start..next);
                open = true;
            }
        }
    }
    (!grids.is_empty()).then_some(grids)
}
