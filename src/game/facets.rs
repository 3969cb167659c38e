//! The game trait and its facets: what a driver may ask of a game.

use super::*;

/// A game's rule sets: settings that change who wins (Pousse's `--rules`), `()` for a game
/// with a single set of rules.
pub trait RuleSet: Copy + Debug + Default + Eq + Hash + Send + Sync + 'static {
    /// The command-line names of the rule sets, the default first; empty when the game has one
    /// set of rules.
    const NAMES: &'static [&'static str];

    /// The rule set called `name`.
    fn from_name(name: &str) -> Option<Self>;

    /// The command-line name (empty for a game with one set of rules).
    fn name(self) -> &'static str;
}

impl RuleSet for () {
    const NAMES: &'static [&'static str] = &[];

    fn from_name(_: &str) -> Option<()> {
        None
    }

    fn name(self) -> &'static str {
        ""
    }
}

/// What a judgement of one case says.
pub trait Judged {
    /// The contest's output line (without the newline).
    fn verdict(&self) -> String;

    /// A one-line explanation: decisive move, reason, sizes.
    fn explain(&self) -> String;

    /// The size of the case for reports: moves for Pousse, squares otherwise.
    fn size(&self) -> u64;
}

/// A contest game with two independent implementations: its name, its rule sets, its engine's
/// judgement, and what recognises its input. What else a driver needs of a game is a facet of
/// its own ([`Referenced`], [`Forms`], [`Generated`], [`Packaged`], [`Pictured`]), each
/// implemented in the game's folder and asked for by the drivers that use it.
pub trait Game: Sized + Send + Sync + 'static {
    /// What a step of [`DrawRequest::step`] is called (`move` for Pousse); empty when the
    /// game's cases have no steps to show.
    const STEP: &'static str = "";

    /// The command-line name.
    const NAME: &'static str;
    /// Text printed between two verdicts, after the first one's newline (the blank line of
    /// multi-case outputs, or nothing).
    const BETWEEN: &'static str;
    /// What the first non-blank line of this game's input is, for messages ("a board size").
    const FIRST_LINE: &'static str;
    /// The rule sets.
    type Options: RuleSet;
    /// The full result of judging one case: the verdict and what explains it. Two
    /// implementations agree when their judgements are equal.
    type Judgement: Judged + Clone + PartialEq + Debug + Send + Sync + 'static;
    /// Judges every case of `input` with `engine`. The reference refuses a case beyond its
    /// limits with [`JudgeError::Refused`]; it never guesses.
    fn judge(
        engine: Engine,
        input: &mut dyn Read,
        options: Self::Options,
    ) -> Result<Vec<Self::Judgement>, JudgeError>;
    /// Judges every case of `input` with the engine, handing each judgement to `each` as it is
    /// made, in order. Where a game overrides it, memory is bounded by the largest case
    /// whatever the number of cases; the default collects [`judge`](Game::judge)'s. On an
    /// error, the cases before it have been handed over.
    fn judge_each(
        input: &mut dyn Read,
        options: Self::Options,
        each: &mut dyn FnMut(Self::Judgement),
    ) -> Result<(), JudgeError> {
        Self::judge(Engine::Fast, input, options)?
            .into_iter()
            .for_each(each);
        Ok(())
    }
    /// The engine again through its general code path, where the engine has specialised
    /// ones (Pousse: small boards); `None` where it has a single path. The harness requires
    /// the same result as [`judge`](Game::judge) with the engine.
    fn judge_general_path(
        _input: &[u8],
        _options: Self::Options,
    ) -> Option<Result<Vec<Self::Judgement>, JudgeError>> {
        None
    }
    /// Whether `line`, the first line of an input that is not blank (without its line end),
    /// starts an input of this game. The games' first lines are told apart by their shape
    /// alone, so at most one game recognises any line.
    fn recognises(line: &[u8]) -> bool;
}

/// A game's reference implementation, as the drivers that cross-examine the engine use it
/// (`verify`, `stress`, the harness, `audit`'s confirmations): its own reading of an input, its
/// judgement of one case, and what it costs; and the game's second opinion where the reference
/// cannot go.
pub trait Referenced: Game {
    /// An independent check of the engine's `judgements` of `input`, for where the reference
    /// cannot go (beyond its budget or its limits): `None` when the game has none for this
    /// input, `Err` saying what differs. The harness asks for it whenever the reference only
    /// parses a case.
    fn second_opinion(
        _input: &[u8],
        _options: Self::Options,
        _judgements: &[Self::Judgement],
    ) -> Option<Result<(), Disagreement>> {
        None
    }
    /// Whether the reference's parser accepts `input` (without judging it): for checking the
    /// parsers against each other on inputs too large for the reference to judge.
    fn reference_parses(input: &[u8]) -> Result<(), JudgeError>;
    /// The reference's own reading of `input`'s multi-case framing, a case at a time, each
    /// case's text held while it has at most `bound` bytes: memory bounded by `bound`, whatever
    /// the number of cases. The iteration ends after a [`ReferenceStop`].
    fn reference_cases<'a>(
        input: Box<dyn Read + Send + 'a>,
        bound: u64,
    ) -> Box<dyn Iterator<Item = Result<ReferenceCase, ReferenceStop>> + Send + 'a>;
    /// The reference's judgement of one case of [`Referenced::reference_cases`] (held), its grammar
    /// checked first; [`JudgeError::Refused`] beyond the reference's limits.
    fn reference_judge_case(
        case: &ReferenceCase,
        options: Self::Options,
    ) -> Result<Self::Judgement, JudgeError>;
    /// The reference's grammar check of one case of [`Referenced::reference_cases`] (held).
    fn reference_check_case(case: &ReferenceCase) -> Result<(), JudgeError>;
    /// An estimate of the reference implementation's work on this case under `options`, in
    /// elementary steps, from the engine's judgement; drivers skip the reference beyond a
    /// budget.
    fn reference_cost(judgement: &Self::Judgement, options: Self::Options) -> u64;
}

/// A game's input and output forms, as the drivers that run other people's programs use them
/// (`audit`, `gen`, `package`): the single-case and multi-case forms, joining cases, the
/// statement's examples that probe a program's form, and the output grammar.
pub trait Forms: Game {
    /// The inputs of several cases, each in the game's single-case form, as one input in the
    /// game's multi-case form (Pousse: the UVa 844 wrapper; LittleSquares: grids separated by an
    /// empty line; Some Game: consecutive data sets), whose output is theirs in order.
    fn join(inputs: &[Vec<u8>]) -> Vec<u8>;
    /// [`join`](crate::game::Forms::join) of the `count` inputs `inputs` gives, written to `out` a case at a
    /// time: memory bounded by one case, whatever the count (`gen --per-file`). The default
    /// holds them all; a game whose joining can be streamed writes each as it comes.
    fn write_joined(
        count: usize,
        inputs: &mut dyn Iterator<Item = Vec<u8>>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let all: Vec<Vec<u8>> = inputs.take(count).collect();
        out.write_all(&Self::join(&all))
    }
    /// The single-case form in a few words, for messages and reports.
    const SINGLE_FORM: &'static str;
    /// The multi-case form in a few words.
    const MULTI_FORM: &'static str;
    /// Two small cases of the problem statement's own examples (which every program written
    /// for the problem answers), in the single-case form, with different verdicts under the
    /// default rules: what `audit` probes a program's input form with.
    const PROBES: [&'static str; 2];
    /// The form the problem statement's examples are written in: the problem's input form
    /// when nothing else says it (a contest audit without data or `--form`).
    const STATEMENT_FORM: Form;
    /// Whether `line` (one output line, its blanks already normalised: single spaces, none at
    /// either end) is in the game's output grammar, whatever the case it answers: what tells
    /// a program that reads an input form from one that does not, before its answers are
    /// judged.
    fn is_verdict(line: &str) -> bool;
    /// The form an input of `cases` cases is written in, when its shape says: the multi-case
    /// form for an input of several cases, `None` for an input that reads the same in both
    /// (one case, where the game's multi-case form of one case is its single-case form). A
    /// game whose multi-case form of one case differs (Pousse's UVa wrapper) tells them apart.
    fn form_of(_input: &[u8], cases: usize) -> Option<Form> {
        (cases > 1).then_some(Form::Multi)
    }
    /// The byte ranges of the cases of `input` in the game's multi-case form, each of which is
    /// on its own a valid input of that one case (for drawing a case without judging the whole
    /// file); `None` when the input is not in that form or the game does not cut its inputs.
    /// A cut is only a shortcut: callers check that the case alone gets its verdict.
    fn case_ranges(_input: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
        None
    }
}

/// A game's generated cases, as the drivers that draw them use them (`gen`, `stress`, `audit`,
/// `package`, the fuzz targets): its [`Case`], and the features and coverage a case shows.
pub trait Generated: Game {
    /// The game's random, shrinkable test case.
    type Case: Case<Game = Self>;
    /// The structural features a case can show (the rows of `referee stress --stats`): each
    /// corner of the rules the harness must reach.
    const FEATURES: &'static [&'static str];
    /// The features of [`Generated::FEATURES`] that `input`, judged `judgements` by the engine,
    /// shows.
    fn features(
        input: &[u8],
        options: Self::Options,
        judgements: &[Self::Judgement],
    ) -> Vec<&'static str>;
    /// What `audit`'s random cases must reach within every [`CORNER_PERIOD`] cases, inside the
    /// contest's limits (the rows of `referee gen GAME --like-audit --coverage`): board size
    /// bands crossed with how a case ends, and the game's own corners. None by default.
    const COVERAGE: &'static [&'static str] = &[];
    /// The features of [`Generated::COVERAGE`] that `input`, judged `judgements` by the engine,
    /// shows.
    fn coverage(
        input: &[u8],
        options: Self::Options,
        judgements: &[Self::Judgement],
    ) -> Vec<&'static str> {
        let _ = (input, options, judgements);
        Vec::new()
    }
}

/// A game's contest problem, as the drivers that write or keep to it use it (`package`,
/// `audit`'s contest limits): its package, and the original contest's limits.
pub trait Packaged: Game {
    /// What the game's Kattis problem package holds under `options` (statement, examples,
    /// edge cases, solutions); `None` when the game has no package.
    fn package(_options: Self::Options) -> Option<crate::game::problem::Content> {
        None
    }
    /// The most bytes one case can take inside the original contest's limits in the contest's
    /// layout, where those limits bound it (with room to spare): the contest's input validator
    /// stops a case that goes past it, whatever follows. `None` (the default) where the limits
    /// bound no case's length (Pousse's games have no move limit).
    const CONTEST_CASE_BYTES: Option<u64> = None;
    /// Where a judged case lies outside the original contest's limits, which a contest's input
    /// validator enforces while the engine judges more: what the limits allow and what the case
    /// has. `None` inside them (the default: no limits beyond the grammar's).
    fn outside_contest(_judgement: &Self::Judgement) -> Option<(String, String)> {
        None
    }
}

/// A game's pictures, as `show` and the HTML reports use them: the board as text, the
/// report's view and its replay script.
pub trait Pictured: Game {
    /// Draws case `request.case` of `input` as text for `referee show`: the board (at
    /// `request.step` where the game has steps) and what decides the verdict. Invalid input, or
    /// a case that is not there, is an error. By default, the verdicts and their explanations.
    fn draw(
        input: &[u8],
        options: Self::Options,
        request: &DrawRequest,
    ) -> Result<String, JudgeError> {
        let judgements = Self::judge(Engine::Fast, &mut &input[..], options)?;
        let j = case_of::<Self>(&judgements, request.case)?;
        Ok(format!("{}\n{}\n", j.verdict(), j.explain()))
    }
    /// The HTML report's view of case `case` (1-based) of `input`. By default, the text of
    /// [`draw`](crate::game::Pictured::draw).
    fn board_view(
        input: &[u8],
        options: Self::Options,
        case: u64,
    ) -> Result<BoardView, JudgeError> {
        let request = DrawRequest::plain(case);
        Ok(BoardView {
            text: Self::draw(input, options, &request)?,
            ..BoardView::default()
        })
    }
    /// The JavaScript that plays this game's replays in the HTML report
    /// ([`BoardView::replay`]): a function `replay(element, data)` registered as
    /// `referee.replays[NAME]`. Empty for games without replays.
    const REPORT_SCRIPT: &'static str = "";
}

/// Every facet: what the games registered in [`crate::games`] implement, and what a driver that
/// dispatches on a game's name can ask of it.
pub trait AnyGame: Referenced + Forms + Generated + Packaged + Pictured {}

impl<G: Referenced + Forms + Generated + Packaged + Pictured> AnyGame for G {}
