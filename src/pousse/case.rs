//! Random and shrinkable Pousse games: the one generator behind `referee gen pousse`, `stress`,
//! `audit`, the fuzz targets and the property tests.

use super::{Board, BoardRepr, Edge, Match, Move, Pousse, Rules, SmallBoard, CONTEST_MAX_N, MAX_N};
use crate::corrupt::{change_byte, edit_line, insert_line};
use crate::error::JudgeError;
use crate::game::{Case, Constraints, EXTREME_PERCENT};
use crate::knobs::{Knob, Knobs, MOST_UNITS};
use crate::random::{pick, Entropy};

pub use super::steered::LONG_GAME_MOVES;
use super::steered::{random_move, Steered};

/// A Pousse game: board size, moves and rule set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PousseCase {
    /// Board size.
    pub n: usize,
    /// Moves (indices within 1..=n).
    pub moves: Vec<Move>,
    /// Rule set.
    pub rules: Rules,
}

/// The kinds of random games, each steered towards a corner of the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Most moves from a small palette, so that straights and repetitions come often.
    Palette,
    /// Both colours get straights while their counts stay equal, then one move makes the counts
    /// unequal with neither at zero (2-1, 1-2, ...).
    Race,
    /// The move that ends the game gives the win to the colour that did not move.
    OpponentPush,
    /// A push into a full line (a marker falls off), from an edge chosen at random.
    FullLine,
    /// A short sequence of moves repeated until configurations come back: repetitions after
    /// long cycles under the ICFP rule sets.
    Cycle,
    /// A long game on a board above 8, every move undecided: thousands of moves.
    Long,
    /// A board too large for the reference within its budget (N up to 200): the engine is
    /// checked by sampled windows replayed by the reference instead.
    Huge,
    /// What real judges break at ([`extreme`]): the largest boards the limits allow, games of
    /// 32,767 to 100,000 moves, long tails of moves after a decision, full and empty boards,
    /// and under the ICFP rule sets a repetition long after the configuration it repeats.
    Extreme,
}

impl Style {
    /// Every style but [`Style::Extreme`], with its share of the other random games in percent.
    const SHARES: [(Style, u64); 7] = [
        (Style::Palette, 46),
        (Style::Race, 13),
        (Style::OpponentPush, 13),
        (Style::FullLine, 13),
        (Style::Cycle, 9),
        (Style::Long, 3),
        (Style::Huge, 3),
    ];

    /// A random style: an extreme for [`EXTREME_PERCENT`] of the games (the top of the roll,
    /// so that a fuzzer's exhausted bytes, which read as zeros, give ordinary games).
    fn random(e: &mut dyn Entropy) -> Style {
        if e.below(100) >= 100 - EXTREME_PERCENT {
            return Style::Extreme;
        }
        let mut roll = e.below(100);
        for (style, share) in Style::SHARES {
            if roll < share {
                return style;
            }
            roll -= share;
        }
        Style::Palette
    }
}

/// The settings of the generator; `None` leaves a choice random.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PousseShape {
    /// Board size (random: 1..=8 three times in four, else 9..=100).
    pub n: Option<usize>,
    /// Moves before `QUIT` (random: 0..=200).
    pub moves: Option<usize>,
    /// Draw 80% of the moves from a palette of this many moves, so that straights and
    /// repetitions are frequent; 0 for uniform moves (random: 1..=4).
    pub palette: Option<usize>,
    /// Only moves that leave the game undecided under the rule set, so a judge must play the
    /// whole game (see [`moves`]).
    pub undecided: bool,
    /// The kind of game (random when no other setting is given; [`Style::Palette`] otherwise).
    pub style: Option<Style>,
    /// Random styles exclude the long games and huge boards of the engine's own tests (for
    /// auditing programs, whose time per case matters; the extremes stay, at their share).
    pub programs: bool,
    /// Every board within the contest's limit (N <= [`CONTEST_MAX_N`]).
    pub contest: bool,
    /// The smallest interesting games: N from 1 to 3, a few moves, steered to a decision
    /// (see [`Case::small_shape`]).
    pub small: bool,
}

impl PousseShape {
    /// The shape of a game on an `n` x `n` board with `moves` moves drawn from a palette of
    /// `palette` moves.
    pub fn fixed(n: usize, moves: usize, palette: usize, undecided: bool) -> PousseShape {
        PousseShape {
            n: Some(n),
            moves: Some(moves),
            palette: Some(palette),
            undecided,
            style: Some(Style::Palette),
            programs: false,
            contest: false,
            small: false,
        }
    }

    /// The largest board this shape draws: the contest's limit, or with the engine's own
    /// limits [`ENGINE_EXTREME_N`].
    fn largest(&self) -> usize {
        if self.contest {
            CONTEST_MAX_N
        } else {
            ENGINE_EXTREME_N
        }
    }
}

/// The largest board of the extremes beyond the contest's limit (the engine judges up to
/// [`MAX_N`]; larger extremes would only cost time).
pub const ENGINE_EXTREME_N: usize = 1000;

/// Above this board size, undecided games are made of plain random moves cut before any
/// decisive one, instead of trying every move on a copy of the board.
pub const UNDECIDED_BY_TRIAL: usize = 64;

/// The moves of a random game of `count` moves on an `n` x `n` board. With `palette` > 0, 80%
/// of the moves come from `palette` moves drawn first. With `undecided`, each move is drawn
/// until one leaves the straight counts equal and (ICFP rule sets) repeats no configuration
/// seen so far; when no such move turns up in `8 N` draws the game stops early, so it may be
/// shorter than asked. Above [`UNDECIDED_BY_TRIAL`], see there.
pub fn moves(
    e: &mut dyn Entropy,
    n: usize,
    count: usize,
    palette: usize,
    undecided: bool,
    rules: Rules,
) -> Vec<Move> {
    let palette: Vec<Move> = (0..palette).map(|_| random_move(e, n)).collect();
    let draw = |e: &mut dyn Entropy| {
        if !palette.is_empty() && e.chance(0.8) {
            *pick(e, &palette)
        } else {
            random_move(e, n)
        }
    };
    if !undecided {
        return (0..count).map(|_| draw(e)).collect();
    }
    if n > UNDECIDED_BY_TRIAL {
        // Trying each move on a copy of the board costs O(N^2) per move here; random moves
        // essentially never make a straight of N or repeat a position at this size. Play
        // them, and cut the game before a decisive move should one happen.
        let mut moves: Vec<Move> = (0..count).map(|_| draw(e)).collect();
        let mut game = Match::new(n, rules).expect("valid size");
        if let Some(k) = moves.iter().position(|&m| game.play(m).is_some()) {
            moves.truncate(k);
        }
        return moves;
    }
    on_board!(n, undecided_moves(e, n, count, rules, &draw))
}

/// Calls `$f` (a generic function call, its board representation left to inference) with the
/// bitboards of [`SmallBoard`] for `$n <= 8` and the general [`Board`] above.
macro_rules! on_board {
    ($n:expr, $f:ident($($arg:expr),*)) => {
        match $n {
            1 => $f::<SmallBoard<1>>($($arg),*),
            2 => $f::<SmallBoard<2>>($($arg),*),
            3 => $f::<SmallBoard<3>>($($arg),*),
            4 => $f::<SmallBoard<4>>($($arg),*),
            5 => $f::<SmallBoard<5>>($($arg),*),
            6 => $f::<SmallBoard<6>>($($arg),*),
            7 => $f::<SmallBoard<7>>($($arg),*),
            8 => $f::<SmallBoard<8>>($($arg),*),
            _ => $f::<Board>($($arg),*),
        }
    };
}
use on_board;

/// [`moves`]' undecided games, on boards of representation `B`.
fn undecided_moves<B: BoardRepr>(
    e: &mut dyn Entropy,
    n: usize,
    count: usize,
    rules: Rules,
    draw: &dyn Fn(&mut dyn Entropy) -> Move,
) -> Vec<Move> {
    let mut game = Steered::<B>::new(n, rules);
    while game.moves.len() < count && game.undecided(e, draw, |_| true) {}
    game.moves
}

/// A game steered by `style` (one of the steered styles): undecided moves until the target
/// move is possible, the target move, and sometimes a few moves after it (read, not played).
fn steered(e: &mut dyn Entropy, n: usize, rules: Rules, style: Style) -> Vec<Move> {
    on_board!(n, steered_on(e, n, rules, style))
}

/// [`steered`], on boards of representation `B`.
fn steered_on<B: BoardRepr>(
    e: &mut dyn Entropy,
    n: usize,
    rules: Rules,
    style: Style,
) -> Vec<Move> {
    let palette: Vec<Move> = (0..3).map(|_| random_move(e, n)).collect();
    let draw = |e: &mut dyn Entropy| {
        if e.chance(0.6) {
            *pick(e, &palette)
        } else {
            random_move(e, n)
        }
    };
    let mut game = Steered::<B>::new(n, rules);
    let edge = *pick(e, &Edge::ALL);
    let prefix = e.below(2 * (n * n) as u64 + 1) as usize;
    for step in 0..8 * n * n + 40 {
        let (x, o) = game.board.straights();
        let ready = step >= prefix;
        let hit = match style {
            Style::Race if ready && x == o && x >= 1 => game.choose(e, &draw, |ef| {
                let (x, o) = ef.straights;
                x != o && x.min(o) >= 1 && !ef.repeats
            }),
            Style::OpponentPush if ready => {
                game.choose(e, &draw, |ef| ef.opponent_wins() && !ef.repeats)
            }
            Style::FullLine if ready => {
                game.choose(e, &draw, |ef| ef.mv.edge == edge && ef.full_line)
            }
            _ => false,
        };
        if hit {
            break;
        }
        // Towards the target: a race wants straights on both sides.
        let advanced = match style {
            Style::Race => game.undecided(e, &draw, |ef| ef.straights.0 >= 1),
            _ => false,
        };
        if !advanced && !game.undecided(e, &draw, |_| true) {
            break;
        }
    }
    let mut moves = game.moves;
    if e.chance(0.3) {
        moves.extend((0..1 + e.below(3)).map(|_| random_move(e, n)));
    }
    moves
}

/// The kinds of extreme games, with their shares in permille of the extremes. The costly ones
/// come rarely: a long game costs a judge as much as a thousand ordinary ones (at the largest
/// size, as much as tens of thousands), so they come about once in a thousand cases of a run,
/// and the largest boards are filled rarely.
const EXTREMES: [(Extreme, u64); 8] = [
    (Extreme::Empty, 360),
    (Extreme::Largest, 360),
    (Extreme::FullBoard, 130),
    (Extreme::FullLargest, 10),
    (Extreme::Repetition, 40),
    (Extreme::LongGame, 46),
    (Extreme::LongTail, 46),
    (Extreme::LongLargest, 8),
];

/// What an extreme game is (see [`Style::Extreme`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Extreme {
    /// An empty board at either end of the sizes, or a single move on the largest.
    Empty,
    /// A short random game on the largest board.
    Largest,
    /// A board of 2 to 20 filled, then pushes into full lines.
    FullBoard,
    /// The largest board filled, then pushes into full lines.
    FullLargest,
    /// Under an ICFP rule set the repetition of a configuration seen long before; under
    /// waterloo a long game.
    Repetition,
    /// A long game, every move undecided, on a board of 5 to 8.
    LongGame,
    /// A game decided early, then a long tail of moves before QUIT.
    LongTail,
    /// A long game of random moves on the largest board.
    LongLargest,
}

/// An extreme game with boards of at most `largest` (see [`Style::Extreme`]).
fn extreme(e: &mut dyn Entropy, rules: Rules, largest: usize) -> (usize, Vec<Move>) {
    let long = |e: &mut dyn Entropy| {
        let (fewest, most) = LONG_GAME_MOVES;
        fewest + e.below((most - fewest + 1) as u64) as usize
    };
    let mut roll = e.below(1000);
    let kind = EXTREMES
        .iter()
        .find(|(_, share)| {
            let hit = roll < *share;
            roll = roll.saturating_sub(*share);
            hit
        })
        .map_or(Extreme::Empty, |(kind, _)| *kind);
    let long_game = |e: &mut dyn Entropy| {
        let n = 5 + e.below(4) as usize;
        let count = long(e);
        (n, moves(e, n, count, 0, true, rules))
    };
    match kind {
        Extreme::Empty => {
            let n = if e.chance(0.5) { largest } else { 1 };
            let moves = if e.chance(0.5) {
                Vec::new()
            } else {
                vec![random_move(e, n)]
            };
            (n, moves)
        }
        Extreme::Largest => {
            let count = e.below(201) as usize;
            let palette = e.below(4) as usize;
            (largest, moves(e, largest, count, palette, false, rules))
        }
        Extreme::FullBoard => {
            let n = 2 + e.below(19) as usize;
            (n, full_board(e, n, rules))
        }
        Extreme::FullLargest => {
            let n = largest.min(FULL_BOARD_N);
            (n, full_board(e, n, rules))
        }
        Extreme::Repetition if rules.forbids_repetition() => longest_repetition(e, rules),
        Extreme::Repetition | Extreme::LongGame => long_game(e),
        Extreme::LongTail => {
            let n = 2 + e.below(5) as usize;
            let style = *pick(e, &[Style::Race, Style::OpponentPush, Style::FullLine]);
            let mut moves = steered(e, n, rules, style);
            let count = long(e);
            moves.extend((0..count).map(|_| random_move(e, n)));
            (n, moves)
        }
        Extreme::LongLargest => {
            let count = long(e);
            (
                largest,
                (0..count).map(|_| random_move(e, largest)).collect(),
            )
        }
    }
}

/// The largest board the full-board extreme fills (filling takes N^2 moves of O(N) each).
const FULL_BOARD_N: usize = 200;

/// Moves that fill an `n` x `n` board (from random entropy: at most `8 N^2` moves are drawn),
/// then push into full lines for a while: undecided moves where the board is small enough for
/// a judge to decide easily (N <= 12), random ones above (where they decide nothing).
fn full_board(e: &mut dyn Entropy, n: usize, rules: Rules) -> Vec<Move> {
    let squares = n * n;
    if n <= 12 {
        return moves(e, n, 3 * squares + 8 * n, 0, true, rules);
    }
    // Occupancy only: each push fills the first empty square from its edge, if any.
    let mut filled = vec![false; squares];
    let mut left = squares;
    let mut moves = Vec::with_capacity(2 * squares);
    // Bounded: a fuzzer's exhausted bytes draw the same move for ever.
    while left > 0 && moves.len() < 8 * squares {
        let mv = random_move(e, n);
        let i = mv.index as usize - 1;
        let line: Box<dyn Iterator<Item = usize>> = match mv.edge {
            Edge::Left => Box::new((0..n).map(|c| i * n + c)),
            Edge::Right => Box::new((0..n).rev().map(|c| i * n + c)),
            Edge::Top => Box::new((0..n).map(|r| r * n + i)),
            Edge::Bottom => Box::new((0..n).rev().map(|r| r * n + i)),
        };
        if let Some(square) = line.into_iter().find(|&sq| !filled[sq]) {
            filled[square] = true;
            left -= 1;
        }
        moves.push(mv);
    }
    moves.extend((0..2 * n).map(|_| random_move(e, n)));
    moves
}

/// Under an ICFP rule set, the game among a few random ones whose decisive repetition repeats
/// the configuration of longest ago: an undecided opening, then a random sequence of moves
/// repeated until a configuration comes back.
fn longest_repetition(e: &mut dyn Entropy, rules: Rules) -> (usize, Vec<Move>) {
    let mut best: Option<(u64, usize, Vec<Move>)> = None;
    for _ in 0..6 {
        let n = 3 + e.below(4) as usize;
        let opening = e.below(2 * (n * n) as u64 + 1) as usize;
        let mut game = moves(e, n, opening, 0, true, rules);
        let cycle: Vec<Move> = (0..2 + e.below(4 * n as u64))
            .map(|_| random_move(e, n))
            .collect();
        let mut play = Match::new(n, rules).expect("valid size");
        let mut decision = game.iter().find_map(|&m| play.play(m));
        while decision.is_none() && game.len() < 20_000 {
            for &m in &cycle {
                game.push(m);
                decision = play.play(m);
                if decision.is_some() {
                    break;
                }
            }
        }
        let Some(decision) = decision else { continue };
        game.truncate(decision.at as usize);
        let gap = match decision.reason {
            super::Reason::Repetition { earlier } => decision.at - earlier,
            _ => 0,
        };
        if best.as_ref().is_none_or(|b| gap > b.0) {
            best = Some((gap, n, game));
        }
    }
    best.map_or_else(|| (3, Vec::new()), |(_, n, moves)| (n, moves))
}

/// The number of moves up to and including the engine's decisive move, when moves follow it.
fn decided_after(case: &PousseCase) -> Option<usize> {
    let mut game = Match::new(case.n, case.rules).ok()?;
    let at = case.moves.iter().find_map(|&m| game.play(m))?.at as usize;
    (at < case.moves.len()).then_some(at)
}

/// The longest game whose shrinking drops every two moves an odd distance apart (a quadratic
/// number of candidates).
const FAR_PAIRS_UP_TO: usize = 64;

/// Chunk sizes for dropping moves from a game of `len`: halves, quarters, ... down to two.
fn chunk_sizes(len: usize) -> impl Iterator<Item = usize> {
    std::iter::successors((len >= 4).then_some(len / 2), |&c| (c > 3).then_some(c / 2))
}

/// The most moves of [`Case::smallest`]'s games.
pub const SMALLEST_MOVES: usize = 6;

/// The most games of one board size and length [`Case::smallest`] goes through (4 x 4 boards up
/// to four moves, 3 x 3 up to five, 2 x 2 up to six).
pub const SMALLEST_PER_SIZE: u64 = 300_000;

/// The games of `moves` moves on an `n` x `n` board whose moves but the last leave the game
/// undecided, in the order of their moves (`L1 < L2 < ... < B{n}`): a counter over the moves,
/// where a prefix that decides skips every game that starts with it.
struct SmallGames {
    n: usize,
    rules: Rules,
    /// Each move's number among the `4 n` moves; `None` once every game was given.
    digits: Option<Vec<usize>>,
}

impl SmallGames {
    fn new(n: usize, moves: usize, rules: Rules) -> SmallGames {
        SmallGames {
            n,
            rules,
            digits: Some(vec![0; moves]),
        }
    }

    fn moves_of(&self, digits: &[usize]) -> Vec<Move> {
        digits
            .iter()
            .map(|&d| Move::new(Edge::ALL[d / self.n], (d % self.n) as u32 + 1))
            .collect()
    }

    /// Moves on to the next game after every game whose first `at + 1` moves are these.
    fn skip_from(&mut self, at: usize) {
        let Some(digits) = self.digits.as_mut() else {
            return;
        };
        for d in digits[at + 1..].iter_mut() {
            *d = 0;
        }
        let mut i = at;
        loop {
            digits[i] += 1;
            if digits[i] < 4 * self.n {
                return;
            }
            digits[i] = 0;
            if i == 0 {
                self.digits = None;
                return;
            }
            i -= 1;
        }
    }
}

impl Iterator for SmallGames {
    type Item = PousseCase;

    fn next(&mut self) -> Option<PousseCase> {
        loop {
            let digits = self.digits.clone()?;
            let moves = self.moves_of(&digits);
            let mut game = Match::new(self.n, self.rules).expect("a small board");
            let decided = moves.iter().position(|&m| game.play(m).is_some());
            match decided {
                Some(at) if at + 1 < moves.len() => self.skip_from(at),
                _ => {
                    self.skip_from(moves.len() - 1);
                    return Some(PousseCase {
                        n: self.n,
                        moves,
                        rules: self.rules,
                    });
                }
            }
        }
    }
}

/// A Pousse transcript in the single-game format.
pub fn transcript(n: usize, moves: &[Move]) -> String {
    let mut s = String::with_capacity(moves.len() * 5 + 16);
    s.push_str(&n.to_string());
    s.push('\n');
    let mut digits = [0u8; 10];
    for m in moves {
        s.push(m.edge.letter());
        // The index's digits, written from the last.
        let (mut v, mut at) = (m.index, digits.len());
        loop {
            at -= 1;
            digits[at] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        s.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
        s.push('\n');
    }
    s.push_str("QUIT\n");
    s
}

impl Case for PousseCase {
    type Game = Pousse;
    type Shape = PousseShape;
    const KNOBS: &'static [Knob] = &[
        Knob::count("n", "board size"),
        Knob::count("moves", "moves per game"),
        Knob::count("palette", "draw 80% of the moves from a palette of this many (0: uniform moves)"),
        Knob::switch("undecided", "only moves that do not end the game under --rules (long games a judge must play to the end; the game stops early when no such move turns up)"),
    ];

    fn for_programs(constraints: Constraints) -> PousseShape {
        PousseShape {
            programs: true,
            contest: constraints == Constraints::Contest,
            ..PousseShape::default()
        }
    }

    fn from_input(input: &[u8], rules: Rules) -> Result<Vec<PousseCase>, JudgeError> {
        let mut parser = super::parse::Parser::new(input);
        let mut cases = Vec::new();
        let mut buffer = vec![Move::new(Edge::Left, 1); 256];
        while let Some(n) = parser.next_game()? {
            let mut moves = Vec::new();
            loop {
                let got = parser.next_moves(&mut buffer)?;
                if got == 0 {
                    break;
                }
                moves.extend_from_slice(&buffer[..got]);
            }
            cases.push(PousseCase { n, moves, rules });
        }
        Ok(cases)
    }

    fn shape(knobs: &Knobs) -> Result<PousseShape, String> {
        let n = knobs.count::<usize>("n")?;
        if let Some(n) = n.filter(|n| !(1..=MAX_N).contains(n)) {
            return Err(format!("--n must be from 1 to {MAX_N}, not {n}"));
        }
        Ok(PousseShape {
            n,
            moves: knobs
                .within("moves", MOST_UNITS, "the moves of a case gen can hold")?
                .map(|m| m as usize),
            palette: knobs.count("palette")?,
            undecided: knobs.switch("undecided"),
            style: None,
            programs: false,
            contest: false,
            small: false,
        })
    }

    fn generate(e: &mut dyn Entropy, rules: Option<Rules>, shape: &PousseShape) -> PousseCase {
        let rules = rules.unwrap_or_else(|| *pick(e, &Rules::ALL));
        if shape.small {
            let n = 1 + e.below(3) as usize;
            let moves = match e.below(4) {
                0 => {
                    let count = 1 + e.below(8) as usize;
                    moves(e, n, count, 2, false, rules)
                }
                style => {
                    let style =
                        [Style::Race, Style::OpponentPush, Style::FullLine][style as usize - 1];
                    steered(e, n, rules, style)
                }
            };
            return PousseCase { n, moves, rules };
        }
        let set = shape.n.is_some() || shape.moves.is_some() || shape.palette.is_some();
        let style = match shape.style {
            Some(style) => style,
            None if set || shape.undecided => Style::Palette,
            None => match Style::random(e) {
                Style::Long | Style::Huge if shape.programs => Style::Palette,
                style => style,
            },
        };
        let (n, moves) = match style {
            Style::Extreme => extreme(e, rules, shape.largest()),
            Style::Palette => {
                let n = shape.n.unwrap_or_else(|| {
                    if e.chance(0.75) {
                        1 + e.below(8) as usize
                    } else {
                        9 + e.below(92) as usize
                    }
                });
                let count = shape.moves.unwrap_or_else(|| e.below(201) as usize);
                let palette = shape.palette.unwrap_or_else(|| 1 + e.below(4) as usize);
                (n, moves(e, n, count, palette, shape.undecided, rules))
            }
            Style::Long => {
                let n = shape.n.unwrap_or_else(|| 9 + e.below(32) as usize);
                let count = shape.moves.unwrap_or_else(|| 1000 + e.below(2001) as usize);
                (n, moves(e, n, count, 0, true, rules))
            }
            Style::Huge => {
                let n = shape.n.unwrap_or_else(|| 65 + e.below(136) as usize);
                let n = if shape.contest {
                    n.min(CONTEST_MAX_N)
                } else {
                    n
                };
                let count = shape.moves.unwrap_or_else(|| 100 + e.below(901) as usize);
                let palette = 2 + e.below(6) as usize;
                (n, moves(e, n, count, palette, false, rules))
            }
            Style::Cycle => {
                let n = shape.n.unwrap_or_else(|| 2 + e.below(4) as usize);
                let cycle: Vec<Move> = (0..2 + e.below(11)).map(|_| random_move(e, n)).collect();
                let count = shape.moves.unwrap_or_else(|| 50 + e.below(351) as usize);
                (n, cycle.iter().copied().cycle().take(count).collect())
            }
            Style::Race | Style::OpponentPush | Style::FullLine => {
                let n = shape.n.unwrap_or_else(|| 2 + e.below(5) as usize);
                (n, steered(e, n, rules, style))
            }
        };
        PousseCase { n, moves, rules }
    }

    /// The corners of [`super::corners`], for programs' shapes.
    fn corner(
        e: &mut dyn Entropy,
        rules: Option<Rules>,
        shape: &PousseShape,
        k: usize,
    ) -> Option<PousseCase> {
        if !shape.programs || k >= super::corners::count() {
            return None;
        }
        let rules = rules.unwrap_or_else(|| *pick(e, &Rules::ALL));
        let (n, moves) = super::corners::corner(e, rules, shape.largest(), k)?;
        Some(PousseCase { n, moves, rules })
    }

    fn options(&self) -> Rules {
        self.rules
    }

    fn input(&self) -> Vec<u8> {
        transcript(self.n, &self.moves).into_bytes()
    }

    /// A changed byte, an index past N (or 0), no `QUIT`, a lowercase letter, a blank line
    /// inside the game, a leading zero, or a trailing space.
    fn corrupt(&self, e: &mut dyn Entropy) -> Vec<u8> {
        let input = self.input();
        let is_move =
            |i: usize, l: &[u8]| i > 0 && matches!(l.first(), Some(b'L' | b'R' | b'T' | b'B'));
        let n = self.n;
        match e.below(7) {
            0 => change_byte(&input, b"\n\r 0123456789LRTBQUITlrtbx+-", e),
            1 => edit_line(&input, e, is_move, |l, e| {
                let index = if e.chance(0.8) { n + 1 } else { 0 };
                Some(format!("{}{index}", l[0] as char).into_bytes())
            }),
            2 => edit_line(&input, e, |_, l| l == b"QUIT", |_, _| None),
            3 => edit_line(&input, e, is_move, |l, _| {
                let mut l = l.to_vec();
                l[0] = l[0].to_ascii_lowercase();
                Some(l)
            }),
            4 => insert_line(&input, b"", e),
            5 => edit_line(&input, e, is_move, |l, _| {
                Some([&l[..1], b"0", &l[1..]].concat())
            }),
            _ => edit_line(&input, e, |_, _| true, |l, _| Some([l, b" "].concat())),
        }
    }

    fn shape_label(&self) -> String {
        format!("N={}", self.n)
    }

    fn steps(&self) -> Option<usize> {
        Some(self.moves.len())
    }

    fn prefix(&self, steps: usize) -> PousseCase {
        PousseCase {
            moves: self.moves[..steps.min(self.moves.len())].to_vec(),
            ..self.clone()
        }
    }

    /// Every game of 1 to [`SMALLEST_MOVES`] moves on boards of 1 x 1 to 4 x 4, fewest moves
    /// first, then smallest board, as long as the games of that size are at most
    /// [`SMALLEST_PER_SIZE`]; only those whose moves but the last leave the game undecided.
    fn smallest(rules: Rules) -> Box<dyn Iterator<Item = PousseCase>> {
        let sizes = (1..=SMALLEST_MOVES).flat_map(|moves| {
            (1..=4usize)
                .filter(move |&n| ((4 * n) as u64).pow(moves as u32) <= SMALLEST_PER_SIZE)
                .map(move |n| (n, moves))
        });
        Box::new(sizes.flat_map(move |(n, moves)| SmallGames::new(n, moves, rules)))
    }

    fn small_shape(&self) -> Option<PousseShape> {
        (self.n > 2 || self.moves.len() > 8).then(|| PousseShape {
            small: true,
            ..PousseShape::default()
        })
    }

    /// In order: the moves after the engine's decisive move cut; smaller boards (half the
    /// size with indices clamped, one less with the last line's moves dropped or clamped);
    /// the last half, quarter, ... of the moves cut; chunks of moves dropped, halves first;
    /// every pair of consecutive moves (which keeps every later move's colour); a row and
    /// column taken out; in short games any two moves of different colours; single moves;
    /// a move replaced by a simpler one (on boards up to 8 in games up to 64 moves, any move
    /// before it in the order `L1 < ... < B{N}`; else a lower index, edge `L`).
    /// Lazy: a game of 10^5 moves has about 10^6 candidates, made one at a time.
    fn shrink(&self) -> Box<dyn Iterator<Item = PousseCase> + '_> {
        let len = self.moves.len();
        let with = move |moves: Vec<Move>| PousseCase {
            moves,
            ..self.clone()
        };
        let cut = decided_after(self).map(move |at| with(self.moves[..at].to_vec()));
        let resized = move |n: usize, clamp: bool| PousseCase {
            n,
            moves: self
                .moves
                .iter()
                .filter(|m| clamp || m.index as usize <= n)
                .map(|m| Move::new(m.edge, m.index.min(n as u32)))
                .collect(),
            rules: self.rules,
        };
        let boards = (self.n > 1)
            .then(|| {
                let half = (self.n > 3).then(|| resized(self.n / 2, true));
                half.into_iter()
                    .chain([resized(self.n - 1, false), resized(self.n - 1, true)])
            })
            .into_iter()
            .flatten();
        // Row and column k taken out of the board: their moves dropped, the lines after them
        // renumbered.
        let without_line = move |k: u32| PousseCase {
            n: self.n - 1,
            moves: self
                .moves
                .iter()
                .filter(|m| m.index != k)
                .map(|m| Move::new(m.edge, if m.index > k { m.index - 1 } else { m.index }))
                .collect(),
            rules: self.rules,
        };
        let lines = (1..if self.n > 1 { self.n as u32 } else { 0 }).map(without_line);
        let dropped = move |start: usize, end: usize| {
            let mut m = Vec::with_capacity(len);
            m.extend_from_slice(&self.moves[..start]);
            m.extend_from_slice(&self.moves[end.min(len)..]);
            with(m)
        };
        // The last half, quarter, ... of the moves, down to the last one: a failure that needs
        // a long game (a buffer of fixed size) shrinks in logarithmically many steps.
        let tails = std::iter::successors((len >= 1).then_some(len.div_ceil(2)), |&k| {
            (k > 1).then_some(k / 2)
        })
        .map(move |k| with(self.moves[..len - k].to_vec()));
        let chunks = chunk_sizes(len).flat_map(move |chunk| {
            (0..len)
                .step_by(chunk)
                .map(move |start| dropped(start, start + chunk))
        });
        let pairs = (0..len.saturating_sub(1)).map(move |start| dropped(start, start + 2));
        // In short games, any two moves an odd distance apart (one of each colour, so every
        // later move keeps its colour).
        let far_pairs = (0..if len <= FAR_PAIRS_UP_TO { len } else { 0 }).flat_map(move |i| {
            (i + 3..len).step_by(2).map(move |j| {
                let moves = (0..len)
                    .filter(|&x| x != i && x != j)
                    .map(|x| self.moves[x])
                    .collect();
                with(moves)
            })
        });
        let singles = (0..len).map(move |start| dropped(start, start + 1));
        // A move replaced by a simpler one: on small boards in short games every move before
        // it in the order L1 < L2 < ... < B{N}, elsewhere a lower index or the edge L.
        let every_smaller = self.n <= 8 && len <= FAR_PAIRS_UP_TO;
        let simpler = (0..len).flat_map(move |i| {
            let m = self.moves[i];
            let number = m.edge as usize * self.n + m.index as usize - 1;
            let replacements: Vec<Move> = if every_smaller {
                (0..number)
                    .map(|d| Move::new(Edge::ALL[d / self.n], (d % self.n) as u32 + 1))
                    .collect()
            } else {
                let lower = (m.index > 1).then(|| Move::new(m.edge, m.index - 1));
                let left = (m.edge != Edge::Left).then(|| Move::new(Edge::Left, m.index));
                [lower, left].into_iter().flatten().collect()
            };
            replacements.into_iter().map(move |simple| {
                let mut moves = self.moves.clone();
                moves[i] = simple;
                with(moves)
            })
        });
        Box::new(
            cut.into_iter()
                .chain(boards)
                .chain(tails)
                .chain(chunks)
                .chain(pairs)
                .chain(lines)
                .chain(far_pairs)
                .chain(singles)
                .chain(simpler),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn undecided_games_never_end() {
        for rules in Rules::ALL {
            for n in [2, 3, 4, 8, 65] {
                let moves = moves(&mut Rng::new(n as u64), n, 2000, 0, true, rules);
                let text = transcript(n, &moves);
                let j = crate::pousse::judge::judge(text.as_bytes(), rules).unwrap();
                assert_eq!(j[0].decisive_move, None, "{rules} n={n}");
                // Above UNDECIDED_BY_TRIAL the game is cut before its first decisive move
                // (at N = 65 under icfp98, a real repetition near move 1955).
                if (4..=UNDECIDED_BY_TRIAL).contains(&n) {
                    assert_eq!(moves.len(), 2000, "{rules} n={n}");
                }
            }
        }
    }

    #[test]
    fn the_smallest_games_come_fewest_moves_first_none_decided_before_its_end() {
        let games: Vec<PousseCase> = PousseCase::smallest(Rules::Waterloo)
            .take(200_000)
            .collect();
        // One move: every move of every board; on 1 x 1 it decides at once, so no longer game.
        assert_eq!(
            games.iter().filter(|g| g.moves.len() == 1).count(),
            4 + 8 + 12 + 16
        );
        assert!(games.iter().all(|g| g.n > 1 || g.moves.len() == 1));
        assert!(games
            .windows(2)
            .all(|w| w[0].moves.len() <= w[1].moves.len()));
        // 2 x 2, two moves: no move decides (a line needs two markers): all 64.
        let two = games
            .iter()
            .filter(|g| g.n == 2 && g.moves.len() == 2)
            .count();
        assert_eq!(two, 64);
        for g in games.iter().step_by(97) {
            let mut play = Match::new(g.n, g.rules).unwrap();
            let decided = g.moves.iter().position(|&m| play.play(m).is_some());
            assert!(decided.is_none_or(|at| at + 1 == g.moves.len()), "{g:?}");
        }
    }

    #[test]
    fn a_game_shrinks_by_prefixes_pairs_and_simpler_moves() {
        let game = PousseCase {
            n: 3,
            moves: "L1 T2 R3 B1 L2"
                .split(' ')
                .map(|m| {
                    Move::new(
                        Edge::ALL["LRTB".find(&m[..1]).unwrap()],
                        m[1..].parse().unwrap(),
                    )
                })
                .collect(),
            rules: Rules::Waterloo,
        };
        assert_eq!(game.steps(), Some(5));
        assert_eq!(game.prefix(2).moves, game.moves[..2]);
        let variants: Vec<PousseCase> = game.shrink().collect();
        // Two consecutive moves dropped: every later move keeps its colour.
        assert!(variants
            .iter()
            .any(|v| v.n == 3 && v.moves == [game.moves[0], game.moves[3], game.moves[4]]));
        // A move replaced by any move before it in the order L1 < ... < B3: B1 by T3.
        let mut replaced = game.moves.clone();
        replaced[3] = Move::new(Edge::Top, 3);
        assert!(variants.iter().any(|v| v.moves == replaced));
        // Smaller boards, the moves mapped onto them.
        assert!(variants.iter().any(|v| v.n == 2 && v.moves.len() == 5));
    }

    #[test]
    fn same_seed_same_case_and_knobs_fix_the_shape() {
        let shape = PousseShape::fixed(5, 50, 3, false);
        let a = PousseCase::generate(&mut Rng::new(9), Some(Rules::Icfp98), &shape);
        let b = PousseCase::generate(&mut Rng::new(9), Some(Rules::Icfp98), &shape);
        assert_eq!(a, b);
        assert_eq!((a.n, a.moves.len(), a.rules), (5, 50, Rules::Icfp98));
        let knobs = Knobs::new([("n", "0")]);
        assert!(PousseCase::shape(&knobs).is_err());
        let knobs = Knobs::new([("n", "7"), ("undecided", "true")]);
        let shape = PousseCase::shape(&knobs).unwrap();
        assert_eq!(
            (shape.n, shape.moves, shape.undecided),
            (Some(7), None, true)
        );
    }
}
