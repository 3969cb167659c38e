//! Random and shrinkable Pousse games: the one generator behind `referee gen pousse`, `stress`,
//! `audit`, the fuzz targets and the property tests.

use super::{Board, Colour, Edge, Match, Move, Pousse, Rules, MAX_N};
use crate::game::Case;
use crate::harness::corrupt::{change_byte, edit_line, insert_line};
use crate::knobs::{Knob, Knobs};
use crate::random::{pick, Entropy};
use std::collections::HashSet;

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
}

impl Style {
    /// Every style, with its share of the random games in percent.
    const SHARES: [(Style, u64); 7] = [
        (Style::Palette, 46),
        (Style::Race, 13),
        (Style::OpponentPush, 13),
        (Style::FullLine, 13),
        (Style::Cycle, 9),
        (Style::Long, 3),
        (Style::Huge, 3),
    ];

    fn random(e: &mut dyn Entropy) -> Style {
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
    /// Random styles exclude the long games and huge boards (for auditing programs, whose time
    /// per case matters).
    pub moderate: bool,
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
            moderate: false,
        }
    }
}

fn random_move(e: &mut dyn Entropy, n: usize) -> Move {
    Move::new(*pick(e, &Edge::ALL), e.below(n as u64) as u32 + 1)
}

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
    let mut game = Steered::new(n, rules);
    while game.moves.len() < count && game.undecided(e, &draw, |_| true) {}
    game.moves
}

/// A game built move by move on a copy of the board, so that each move can be chosen by what
/// it does: keeping the game undecided (no straight majority, no repeated configuration under
/// the ICFP rule sets), or ending it in a chosen way.
struct Steered {
    n: usize,
    rules: Rules,
    board: Board,
    scratch: Board,
    seen: HashSet<u64>,
    moves: Vec<Move>,
}

/// What a move does, seen before it is played.
struct Effect<'a> {
    n: usize,
    before: &'a Board,
    mv: Move,
    mover: Colour,
    /// Straights of X and O after it.
    straights: (u32, u32),
    /// Whether it repeats a configuration (under the ICFP rule sets).
    repeats: bool,
}

impl Effect<'_> {
    fn decisive(&self) -> bool {
        self.straights.0 != self.straights.1 || self.repeats
    }

    /// Whether the pushed line was full before the move (a marker falls off).
    fn pushes_a_full_line(&self) -> bool {
        let i = self.mv.index as usize - 1;
        (0..self.n).all(|j| match self.mv.edge {
            Edge::Left | Edge::Right => self.before.get(i, j).is_some(),
            Edge::Top | Edge::Bottom => self.before.get(j, i).is_some(),
        })
    }

    /// Whether the colour that did not move wins by this move.
    fn opponent_wins(&self) -> bool {
        let (x, o) = self.straights;
        match self.mover {
            Colour::X => o > x,
            Colour::O => x > o,
        }
    }
}

impl Steered {
    fn new(n: usize, rules: Rules) -> Steered {
        let board = Board::new(n, true).expect("valid size");
        Steered {
            n,
            rules,
            scratch: board.clone(),
            board,
            seen: HashSet::new(),
            moves: Vec::new(),
        }
    }

    fn key(&self, b: &Board, played: usize) -> u64 {
        let side = if self.rules == Rules::Icfp98 && played % 2 == 1 {
            0x5bd1_e995
        } else {
            0
        };
        b.hash() ^ side
    }

    /// Tries up to `8 max(N, 4)` drawn moves and plays the first for which `accept` holds;
    /// `false` when none does.
    fn choose(
        &mut self,
        e: &mut dyn Entropy,
        draw: &dyn Fn(&mut dyn Entropy) -> Move,
        accept: impl Fn(&Effect) -> bool,
    ) -> bool {
        let mover = Colour::of_move(self.moves.len() as u64 + 1);
        for _ in 0..8 * self.n.max(4) {
            let mv = draw(e);
            self.scratch.clone_from(&self.board);
            self.scratch.play_unchecked(mv, mover);
            let key = self.key(&self.scratch, self.moves.len() + 1);
            let effect = Effect {
                n: self.n,
                before: &self.board,
                mv,
                mover,
                straights: self.scratch.straights(),
                repeats: self.rules.forbids_repetition() && self.seen.contains(&key),
            };
            if accept(&effect) {
                self.seen.insert(key);
                std::mem::swap(&mut self.board, &mut self.scratch);
                self.moves.push(mv);
                return true;
            }
        }
        false
    }

    /// Plays a move that leaves the game undecided and satisfies `prefer`; `false` when none
    /// turns up.
    fn undecided(
        &mut self,
        e: &mut dyn Entropy,
        draw: &dyn Fn(&mut dyn Entropy) -> Move,
        prefer: impl Fn(&Effect) -> bool,
    ) -> bool {
        self.choose(e, draw, |effect| !effect.decisive() && prefer(effect))
    }
}

/// A game steered by `style` (one of the steered styles): undecided moves until the target
/// move is possible, the target move, and sometimes a few moves after it (read, not played).
fn steered(e: &mut dyn Entropy, n: usize, rules: Rules, style: Style) -> Vec<Move> {
    let palette: Vec<Move> = (0..3).map(|_| random_move(e, n)).collect();
    let draw = |e: &mut dyn Entropy| {
        if e.chance(0.6) {
            *pick(e, &palette)
        } else {
            random_move(e, n)
        }
    };
    let mut game = Steered::new(n, rules);
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
                game.choose(e, &draw, |ef| ef.mv.edge == edge && ef.pushes_a_full_line())
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

/// A Pousse transcript in the single-game format.
pub fn transcript(n: usize, moves: &[Move]) -> String {
    let mut s = String::with_capacity(moves.len() * 4 + 16);
    s.push_str(&n.to_string());
    s.push('\n');
    for m in moves {
        s.push_str(&m.to_string());
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
        Knob::switch("undecided", "only moves that do not end the game under --rules (long games a judge must play to the end)"),
    ];

    fn moderate() -> PousseShape {
        PousseShape {
            moderate: true,
            ..PousseShape::default()
        }
    }

    fn shape(knobs: &Knobs) -> Result<PousseShape, String> {
        let n = knobs.count::<usize>("n")?;
        if let Some(n) = n.filter(|n| !(1..=MAX_N).contains(n)) {
            return Err(format!("--n must be from 1 to {MAX_N}, not {n}"));
        }
        Ok(PousseShape {
            n,
            moves: knobs.count("moves")?,
            palette: knobs.count("palette")?,
            undecided: knobs.switch("undecided"),
            style: None,
            moderate: false,
        })
    }

    fn generate(e: &mut dyn Entropy, rules: Option<Rules>, shape: &PousseShape) -> PousseCase {
        let rules = rules.unwrap_or_else(|| *pick(e, &Rules::ALL));
        let set = shape.n.is_some() || shape.moves.is_some() || shape.palette.is_some();
        let style = match shape.style {
            Some(style) => style,
            None if set || shape.undecided => Style::Palette,
            None => match Style::random(e) {
                Style::Long | Style::Huge if shape.moderate => Style::Palette,
                style => style,
            },
        };
        let (n, moves) = match style {
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

    fn shrink(&self) -> Vec<PousseCase> {
        let mut out = Vec::new();
        let with = |moves: Vec<Move>| PousseCase {
            moves,
            ..self.clone()
        };
        // Drop chunks of moves, large chunks first.
        let len = self.moves.len();
        let mut chunk = len / 2;
        while chunk >= 1 {
            for start in (0..len).step_by(chunk) {
                let mut m = self.moves.clone();
                m.drain(start..(start + chunk).min(len));
                out.push(with(m));
            }
            chunk /= 2;
        }
        // A smaller board (moves beyond it dropped).
        if self.n > 1 {
            let n = self.n - 1;
            let moves = self
                .moves
                .iter()
                .copied()
                .filter(|m| m.index as usize <= n)
                .collect();
            out.push(PousseCase {
                n,
                moves,
                rules: self.rules,
            });
        }
        // Simpler moves: lower indices, then edge L.
        for (i, m) in self.moves.iter().enumerate() {
            if m.index > 1 {
                let mut moves = self.moves.clone();
                moves[i] = Move::new(m.edge, m.index - 1);
                out.push(with(moves));
            }
            if m.edge != Edge::Left {
                let mut moves = self.moves.clone();
                moves[i] = Move::new(Edge::Left, m.index);
                out.push(with(moves));
            }
        }
        out
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
