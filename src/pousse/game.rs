//! Pousse as a [`Game`]: the engine and the reference behind one interface.

use std::io::Read;

use super::{Judgement, PousseCase, Rules, CONTEST_MAX_N};
use crate::game::problem::Content;
use crate::game::view::{BoardView, DrawRequest};
use crate::game::{
    Engine, Form, Forms, Game, Generated, Packaged, Pictured, ReferenceCase, ReferenceStop,
    Referenced,
};
use crate::util::error::JudgeError;

/// Pousse, under a rule set.
pub struct Pousse;

impl Game for Pousse {
    const STEP: &'static str = "move";
    const NAME: &'static str = "pousse";
    const BETWEEN: &'static str = "\n";
    const FIRST_LINE: &'static str = "a board size or case count";
    type Options = Rules;
    type Judgement = Judgement;
    fn judge(
        engine: Engine,
        input: &mut dyn Read,
        rules: Rules,
    ) -> Result<Vec<Judgement>, JudgeError> {
        match engine {
            Engine::Fast => super::judge::judge(input, rules),
            Engine::Reference => super::reference::judge(input, rules),
        }
    }
    fn judge_each(
        input: &mut dyn Read,
        rules: Rules,
        each: &mut dyn FnMut(Judgement),
    ) -> Result<(), JudgeError> {
        super::judge::judge_each(input, rules, each)
    }
    fn judge_general_path(
        input: &[u8],
        rules: Rules,
    ) -> Option<Result<Vec<Judgement>, JudgeError>> {
        Some(super::judge::judge_on_general_boards(input, rules))
    }
    /// A single decimal number: the board size, or the case count of multi-case input.
    fn recognises(line: &[u8]) -> bool {
        let mut fields = line
            .split(|b| *b == b' ' || *b == b'\t')
            .filter(|f| !f.is_empty());
        matches!(
            (fields.next(), fields.next()),
            (Some(f), None) if f.iter().all(u8::is_ascii_digit)
        )
    }
}

impl Referenced for Pousse {
    /// Windows of the games replayed by the reference from the engine's boards.
    fn second_opinion(
        input: &[u8],
        _rules: Rules,
        judgements: &[Judgement],
    ) -> Option<Result<(), crate::game::Disagreement>> {
        Some(super::windows::check(input, judgements))
    }
    fn reference_cases<'a>(
        input: Box<dyn std::io::Read + Send + 'a>,
        bound: u64,
    ) -> Box<dyn Iterator<Item = Result<ReferenceCase, ReferenceStop>> + Send + 'a> {
        Box::new(referee_reference::pousse::cases(input, bound))
    }
    fn reference_judge_case(case: &ReferenceCase, rules: Rules) -> Result<Judgement, JudgeError> {
        super::reference::judge_case(case, rules)
    }
    fn reference_check_case(case: &ReferenceCase) -> Result<(), JudgeError> {
        Ok(referee_reference::pousse::check_case(case)?)
    }
    fn reference_parses(input: &[u8]) -> Result<(), JudgeError> {
        Ok(referee_reference::pousse::check(input)?)
    }
    /// Every move played pushes a line (N squares) and recounts all 2N lines of N squares;
    /// under the ICFP rule sets it also stores the board and compares it with every earlier one
    /// (at most N^2 squares each). An upper bound of the squares the reference visits, and
    /// under `waterloo` within a few percent of them (`tests/pousse.rs`).
    fn reference_cost(j: &Judgement, rules: Rules) -> u64 {
        let played = j.decisive_move.unwrap_or(j.moves);
        let n = j.n as u64;
        let board = n * n;
        let moves = played.saturating_mul(2 * board + n);
        if !rules.forbids_repetition() {
            return moves;
        }
        let comparisons = played.saturating_mul(played.saturating_sub(1)) / 2;
        moves
            .saturating_add(played.saturating_mul(board))
            .saturating_add(comparisons.saturating_mul(board))
    }
}

impl Forms for Pousse {
    const SINGLE_FORM: &'static str = "one game: N, the moves, QUIT";
    const MULTI_FORM: &'static str =
        "UVa 844: the number of games, a blank line, the games separated by blank lines";
    /// The two games of UVa 844's sample input.
    const PROBES: [&'static str; 2] = [
        "4\nL2\nT2\nL2\nB2\nR2\nQUIT\n",
        "4\nL2\nT2\nL2\nB2\nR2\nT1\nL2\nQUIT\n",
    ];
    /// UVa 844's sample input holds both games, in its multi-case form.
    const STATEMENT_FORM: Form = Form::Multi;
    fn is_verdict(line: &str) -> bool {
        matches!(line, "X WINS" | "O WINS" | "TIE GAME")
    }
    /// The UVa form (a count, a blank line, the games) however many games it holds; any
    /// other input is one game.
    fn form_of(input: &[u8], _cases: usize) -> Option<Form> {
        Some(if games_of_multi_case(input).is_some() {
            Form::Multi
        } else {
            Form::Single
        })
    }
    fn join(inputs: &[Vec<u8>]) -> Vec<u8> {
        let mut out = Vec::new();
        Self::write_joined(inputs.len(), &mut inputs.iter().cloned(), &mut out)
            .expect("writing to memory");
        out
    }
    /// UVa 844's wrapper: the count, then each game after a blank line.
    fn write_joined(
        count: usize,
        inputs: &mut dyn Iterator<Item = Vec<u8>>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        writeln!(out, "{count}")?;
        for input in inputs.take(count) {
            out.write_all(b"\n")?;
            out.write_all(&input)?;
        }
        Ok(())
    }
    fn case_ranges(input: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
        games_of_multi_case(input)
    }
}

impl Generated for Pousse {
    type Case = PousseCase;
    const FEATURES: &'static [&'static str] = super::features::FEATURES;
    const COVERAGE: &'static [&'static str] = super::features::COVERAGE;
    fn coverage(input: &[u8], _: Self::Options, judgements: &[Judgement]) -> Vec<&'static str> {
        super::features::coverage(input, judgements)
    }
    fn features(input: &[u8], _: Self::Options, judgements: &[Judgement]) -> Vec<&'static str> {
        super::features::features(input, judgements)
    }
}

impl Packaged for Pousse {
    fn package(rules: Rules) -> Option<Content> {
        Some(super::package::content(rules))
    }
    fn outside_contest(j: &Judgement) -> Option<(String, String)> {
        (j.n > CONTEST_MAX_N).then(|| {
            (
                format!("a board size N <= {CONTEST_MAX_N} (the contest's limit)"),
                format!("N = {}", j.n),
            )
        })
    }
}

impl Pictured for Pousse {
    fn draw(input: &[u8], rules: Rules, request: &DrawRequest) -> Result<String, JudgeError> {
        super::show::draw(input, rules, request)
    }
    fn board_view(input: &[u8], rules: Rules, case: u64) -> Result<BoardView, JudgeError> {
        super::show::board_view(input, rules, case)
    }
    const REPORT_SCRIPT: &'static str = include_str!("replay.js");
}

/// The byte ranges of the games of a multi-case input (a count, a blank line, then games from
/// the board size to `QUIT`, separated by blank lines): each range runs from a game's size line
/// to the end of its `QUIT` line, a single-game input on its own. `None` for any other shape.
fn games_of_multi_case(input: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
    let mut lines = crate::util::text::line_spans(input);
    let blank = crate::util::text::is_blank;
    let (_, _, count) = lines.find(|(_, _, l)| !blank(l))?;
    let count: usize = std::str::from_utf8(count).ok()?.trim().parse().ok()?;
    if !blank(lines.next()?.2) {
        return None;
    }
    let mut games = Vec::with_capacity(count.min(1 << 20));
    while let Some((start, _, line)) = lines.find(|(_, _, l)| !blank(l)) {
        if line.trim_ascii() == b"QUIT" {
            return None;
        }
        let (_, end, _) = lines.find(|(_, _, l)| l.trim_ascii() == b"QUIT")?;
        games.push(start..end);
    }
    (games.len() == count).then_some(games)
}

#[cfg(test)]
mod cut_tests {
    use super::*;
    use crate::game::Judged;

    #[test]
    fn a_multi_case_input_is_cut_into_its_games() {
        let input = b"3\n\n2\nL1\nQUIT\n\n1\nQUIT\r\n\n4\nT2\nT2\nQUIT\n";
        let games = games_of_multi_case(input).unwrap();
        let texts: Vec<&[u8]> = games.iter().map(|r| &input[r.clone()]).collect();
        assert_eq!(
            texts,
            [&b"2\nL1\nQUIT\n"[..], b"1\nQUIT\r\n", b"4\nT2\nT2\nQUIT\n"]
        );
        // Each game alone gets the verdict it gets in the file.
        let whole = super::super::judge::judge(&input[..], Rules::Waterloo).unwrap();
        for (range, j) in games.iter().zip(&whole) {
            let alone = super::super::judge::judge(&input[range.clone()], Rules::Waterloo).unwrap();
            assert_eq!(alone[0].verdict(), j.verdict());
        }
        assert_eq!(games_of_multi_case(b"3\nL1\nQUIT\n"), None);
        assert_eq!(games_of_multi_case(b"2\n\n1\nQUIT\n"), None);
    }
}
