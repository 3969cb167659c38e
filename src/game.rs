//! The one interface every driver (judge, verify, grade, gen, stress, audit, fuzz, bench) is
//! written against: a game ([`Game`]), judged by either implementation ([`Engine`]), with its
//! rule sets ([`RuleSet`]) and its random cases ([`Case`]). A game is one folder under `src/` implementing [`Game`]; nothing outside that folder
//! knows its details, and [`crate::games`] is the one place that lists the games.

use std::fmt::Debug;
use std::hash::Hash;
use std::io::Read;

use crate::error::JudgeError;
use crate::knobs::{Knob, KnobError, Knobs};
use crate::random::Entropy;
use crate::view::{BoardView, DrawRequest};
pub use referee_reference::cases::{Case as ReferenceCase, Stop as ReferenceStop};

/// Which implementation judges (`--engine fast|reference`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum Engine {
    /// The optimized engine.
    #[default]
    Fast,
    /// The deliberately simple reference implementation.
    Reference,
}

/// How the cases of one input are laid out: one case per input, or the problem's multi-case
/// form (`referee audit --form`). A game whose multi-case form of one case is its single-case
/// form still has both: a program may read one case and stop.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// One case per input.
    Single,
    /// The problem's multi-case form (`Game::join`'s).
    Multi,
}

impl Form {
    /// The command-line spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Single => "single",
            Form::Multi => "multi",
        }
    }
}

/// The input of the cases `inputs` (each in the game's single-case form) in `form`. The single
/// form holds exactly one case.
pub fn in_form<G: Game + Forms>(form: Form, inputs: &[Vec<u8>]) -> Vec<u8> {
    match form {
        Form::Single => {
            assert_eq!(inputs.len(), 1, "the single form holds one case");
            inputs[0].clone()
        }
        Form::Multi => G::join(inputs),
    }
}

/// What the reference's case-by-case reading of an input ([`Referenced::reference_cases`], each
/// held case's grammar checked) says of its grammar.
#[derive(Debug)]
pub enum ReferenceReading {
    /// Every case read and well formed.
    Accepts,
    /// The first error it finds, in the framing or in a case.
    Rejects(JudgeError),
    /// No error among what it read, but not all of it was read (a case over the bound, a read
    /// error): it neither accepts nor rejects the input.
    Unread,
}

/// Reads `input` as the reference does, a case at a time, each held up to `bound` bytes, and
/// checks each case's grammar: verify's second opinion on an input the engine rejects, and
/// the fuzz property that the case-by-case reading agrees with the reference's parser.
pub fn reference_reading<G: Game + Referenced>(
    input: Box<dyn Read + Send + '_>,
    bound: u64,
) -> ReferenceReading {
    let mut unread = false;
    for case in G::reference_cases(input, bound) {
        match case {
            Ok(case) if case.text.is_none() => unread = true,
            Ok(case) => {
                if let Err(e) = G::reference_check_case(&case) {
                    return ReferenceReading::Rejects(e);
                }
            }
            Err(ReferenceStop::Malformed(e)) => return ReferenceReading::Rejects(e.into()),
            Err(_) => return ReferenceReading::Unread,
        }
    }
    if unread {
        ReferenceReading::Unread
    } else {
        ReferenceReading::Accepts
    }
}

/// Which limits cases must meet (`validate --constraints`, `audit --constraints`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Constraints {
    /// What the engine judges: the game's grammar.
    Engine,
    /// The original problem's limits (each game's `outside_contest`); for `validate`, also the one
    /// canonical layout (single spaces, no leading zeros, no extra blank lines), as a contest's
    /// input validator must demand.
    Contest,
}

impl Constraints {
    /// The command-line spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Constraints::Engine => "engine",
            Constraints::Contest => "contest",
        }
    }
}

/// The share, in percent, of the random cases of `stress`, `audit` and the fuzz targets drawn
/// from each game's extremes: the largest sizes the limits allow, the longest games and lines,
/// full and empty boards, the rule sets' far corners. Each game weighs its extremes so that
/// the costliest (Pousse's games of 10^5 moves) come about once in a thousand cases.
pub const EXTREME_PERCENT: u64 = 1;

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
    fn package(_options: Self::Options) -> Option<crate::problem::Content> {
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

/// Judgement `case` (1-based) of `judgements`, or an error naming how many cases there are.
pub fn case_of<G: Game>(
    judgements: &[G::Judgement],
    case: u64,
) -> Result<&G::Judgement, JudgeError> {
    let count = judgements.len() as u64;
    case.checked_sub(1)
        .and_then(|i| judgements.get(i as usize))
        .ok_or_else(|| JudgeError::Refused {
            case,
            reason: format!(
                "no case {case}: the input holds {count} case{}",
                if count == 1 { "" } else { "s" }
            ),
        })
}

/// A random, shrinkable case of one game: generated from an [`Entropy`], written as contest
/// input, and shrunk. Each game has exactly one generator; `referee gen`, `stress`, `audit`, the
/// fuzz targets and the property tests all draw from it, steered by its knobs.
pub trait Case: Clone + Debug + Send + Sync + 'static {
    /// The game.
    type Game: Generated<Case = Self>;
    /// The generator's settings, read from the knobs; the default leaves every choice random.
    type Shape: Clone + Debug + Default + Send + Sync;
    /// The knobs of [`Self::Shape`].
    const KNOBS: &'static [Knob];

    /// The shape of the random cases `audit` runs a program on: every style whose cases a
    /// judge answers at once, and the game's extremes for their share
    /// ([`EXTREME_PERCENT`]); with [`Constraints::Contest`] every case is inside the contest's
    /// limits ([`Packaged::outside_contest`]), extremes included.
    fn for_programs(constraints: Constraints) -> Self::Shape;

    /// The cases of `input` (in either form), as cases of this game under `options`: how
    /// `audit` reads its input files, to write them in a program's form and shrink them.
    fn from_input(
        input: &[u8],
        options: <Self::Game as Game>::Options,
    ) -> Result<Vec<Self>, JudgeError>;

    /// The shape asked for by `knobs` (only this game's knobs are present).
    fn shape(knobs: &Knobs) -> Result<Self::Shape, KnobError>;

    /// A random case of `shape`, under `options` (a random rule set when `None`).
    fn generate(
        entropy: &mut dyn Entropy,
        options: Option<<Self::Game as Game>::Options>,
        shape: &Self::Shape,
    ) -> Self;

    /// The rule set the case is judged under.
    fn options(&self) -> <Self::Game as Game>::Options;

    /// The case as input, in the game's contest format.
    fn input(&self) -> Vec<u8>;

    /// Smaller variants of the case, most promising first: fewer moves, a smaller board, fewer
    /// rows and columns, simpler values. Lazy, so that a case of 10^5 moves, with about 10^6
    /// candidates, costs one candidate at a time; never a candidate larger than the case, so
    /// shrinking a case inside the contest's limits can stay inside them.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self> + '_>;

    /// The case's input with one realistic defect (a changed byte, a number out of range, a
    /// missing, extra or blank line, a wrong letter case...): both parsers must reject it at
    /// the same place, or both accept it alike.
    fn corrupt(&self, entropy: &mut dyn Entropy) -> Vec<u8>;

    /// The case's shape in a few words (`N=3`, `2x4`, `P=2 3x3 K=2`): what tells findings
    /// apart beside their verdicts.
    fn shape_label(&self) -> String;

    /// Corner `k` of the game's limits (`None` past the last, and for shapes other than
    /// [`Case::for_programs`]'): a case drawn from `entropy` inside one of the extremes that a
    /// judge breaks on and that random cases seldom reach (for Pousse, a straight made by the
    /// pushes of one side into the last row of the largest board). [`case_for_programs`] puts
    /// every corner in each [`CORNER_PERIOD`] of `audit`'s random cases. None by default.
    fn corner(
        entropy: &mut dyn Entropy,
        options: Option<<Self::Game as Game>::Options>,
        shape: &Self::Shape,
        k: usize,
    ) -> Option<Self> {
        let _ = (entropy, options, shape, k);
        None
    }

    /// How many steps the case is made of, when its first steps alone are a case too (a
    /// game's moves; [`Case::prefix`]): what `audit` bisects for the shortest prefix that
    /// still fails. `None` by default.
    fn steps(&self) -> Option<usize> {
        None
    }

    /// The case of the first `steps` of this case's steps ([`Case::steps`]); the case itself
    /// by default.
    fn prefix(&self, steps: usize) -> Self {
        let _ = steps;
        self.clone()
    }

    /// Every case of the game's smallest sizes under `options`, smallest first, each that
    /// matters once (for Pousse, the games of up to six moves on boards of up to 4 x 4 whose
    /// moves but the last leave the game undecided): where shrinking a wrong answer gets
    /// stuck, `audit` runs them in order for the smallest that fails the same way. None by
    /// default.
    fn smallest(options: <Self::Game as Game>::Options) -> Box<dyn Iterator<Item = Self>> {
        let _ = options;
        Box::new(std::iter::empty())
    }

    /// The shape of the smallest interesting cases of the game, when this case is larger than
    /// they are: where shrinking gets stuck on a failure, `audit` searches such cases for a
    /// smaller one that fails the same way. `None` by default.
    fn small_shape(&self) -> Option<Self::Shape> {
        None
    }

    /// An oracle of the game's own, independent of both implementations, for the cases of a
    /// shape: its name (the fuzz target `GAME_matches_NAME`) and the shape of the cases it
    /// decides; `None` (the default) for a game without one.
    fn oracle() -> Option<(&'static str, Self::Shape)> {
        None
    }

    /// Whether the engine's verdict on this case (of the oracle's shape) is the oracle's: `Err`
    /// says how it is not.
    fn oracle_agrees(&self) -> Result<(), Disagreement> {
        Ok(())
    }

    /// The case as text for messages: its rule set (when not the default) and its input.
    fn describe(&self) -> String {
        let rules = self.options();
        let mut text = if rules == Default::default() {
            String::new()
        } else {
            format!("(--rules {})\n", rules.name())
        };
        text.push_str(&String::from_utf8_lossy(&self.input()));
        text
    }
}

/// How many consecutive random cases of `audit` (and of `gen --like-audit`) hold each of the
/// game's corners ([`Case::corner`]) once.
pub const CORNER_PERIOD: u64 = 1000;

/// The corner at `offset` (below [`CORNER_PERIOD`]) of every period: corner `k` sits at
/// offset `(61 k + 7) mod 1000`, so that the corners spread over the period (61 is prime to
/// 1000: the offsets of 1000 corners differ).
pub fn corner_at(offset: u64) -> u64 {
    // 541 is the inverse of 61 modulo 1000.
    ((offset % CORNER_PERIOD + CORNER_PERIOD - 7) * 541) % CORNER_PERIOD
}

/// Random case `index` of a run, as `audit` draws it for programs with `shape`: the game's
/// corner at its place in the period, else a case from the generator, both drawn from
/// `entropy` (the case's own random stream).
pub fn case_for_programs<C: Case>(
    entropy: &mut dyn Entropy,
    index: u64,
    options: Option<<C::Game as Game>::Options>,
    shape: &C::Shape,
) -> C {
    let k = corner_at(index % CORNER_PERIOD) as usize;
    C::corner(entropy, options, shape, k).unwrap_or_else(|| C::generate(entropy, options, shape))
}

/// The contest output for a list of judgements, exactly as the problem expects it.
pub fn render<G: Game>(judgements: &[G::Judgement]) -> String {
    join_verdicts::<G>(judgements.iter().map(|j| j.verdict()))
}

/// The contest's output of the cases whose verdicts are `verdicts`: each on its line,
/// [`Game::BETWEEN`] between two.
pub fn join_verdicts<G: Game>(verdicts: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let mut out = String::new();
    for (i, verdict) in verdicts.into_iter().enumerate() {
        if i > 0 {
            out.push_str(G::BETWEEN);
        }
        out.push_str(verdict.as_ref());
        out.push('\n');
    }
    out
}

/// How the engine and an independent check of the same input (a game's second opinion or
/// oracle) disagree, or why the check could not read the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Disagreement {
    /// The check cannot read the input: which check, and its error.
    #[error("{check}: {error}")]
    Unread {
        /// The check (`the reference's parser`).
        check: &'static str,
        /// Its error.
        error: String,
    },
    /// Case `case` (1-based, `what` names it: `grid 2`): the check says `check_says`, the engine
    /// `engine_says`.
    #[error("{what} {case}: {check} says {check_says}, the engine {engine_says}")]
    Case {
        /// What a case is (`grid`).
        what: &'static str,
        /// The case, 1-based.
        case: usize,
        /// The check.
        check: &'static str,
        /// Its verdict.
        check_says: String,
        /// The engine's.
        engine_says: String,
    },
    /// After move `at` (1-based, `mv`), the engine and the check count different straights.
    #[error(
        "after move {at} ({mv}) the engine counts straights X {}, O {}, the reference X {}, O {}",
        engine.0, engine.1, reference.0, reference.1
    )]
    Straights {
        /// The move, 1-based.
        at: usize,
        /// The move, as written.
        mv: String,
        /// The engine's counts of X and O.
        engine: (u32, u32),
        /// The reference's.
        reference: (usize, usize),
    },
    /// A disagreement within moves `from..=to` (1-based) of game `game` (1-based).
    #[error("game {game}, moves {from}..{to}: {why}")]
    InWindow {
        /// The game, 1-based.
        game: usize,
        /// The window's first move, 1-based.
        from: usize,
        /// Its last.
        to: usize,
        /// The disagreement.
        why: Box<Disagreement>,
    },
    /// The boards differ after move `at` (1-based).
    #[error("the boards differ after move {at}")]
    Boards {
        /// The move, 1-based.
        at: usize,
    },
    /// The engine's verdict and the oracle's.
    #[error("engine {engine}, oracle {oracle}")]
    Verdict {
        /// The engine's verdict.
        engine: String,
        /// The oracle's.
        oracle: String,
    },
    /// The engine rejects a case the oracle decides.
    #[error("{0}")]
    Rejected(String),
}

/// The rule set asked for on the command line (`--rules`), or the default when absent; an
/// error naming the game's rule sets when it has no such rule set (or none at all).
pub fn rules_from_flag<G: Game>(flag: Option<&str>) -> Result<G::Options, RulesError> {
    let Some(name) = flag else {
        return Ok(G::Options::default());
    };
    G::Options::from_name(name).ok_or_else(|| match G::Options::NAMES {
        [] => RulesError::NoRuleSets {
            game: G::NAME,
            name: name.into(),
        },
        names => RulesError::Unknown {
            game: G::NAME,
            name: name.into(),
            known: names,
        },
    })
}

/// A `--rules` value no game (or not the game named) has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// A rule set asked of a game that has none.
    #[error("{game} has no rule sets (--rules {name})")]
    NoRuleSets {
        /// The game.
        game: &'static str,
        /// The rule set asked for.
        name: String,
    },
    /// A rule set the game does not have.
    #[error("unknown rule set '{name}' for {game} (one of {}; default {})", known.join(", "), known[0])]
    Unknown {
        /// The game.
        game: &'static str,
        /// The rule set asked for.
        name: String,
        /// The game's rule sets, the default first.
        known: &'static [&'static str],
    },
}

impl crate::error::RunRefusal for RulesError {}
