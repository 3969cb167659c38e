//! The structural features of Pousse cases that the harness must reach (`referee stress
//! --stats`): how games end, pushes off full lines, sizes and lengths.

use super::windows::games;
use super::{Board, Colour, Edge, Judgement, Reason};

/// Every feature, in report order.
pub const FEATURES: &[&str] = &[
    "decided by straights of one colour (1-0, 2-0, ...)",
    "decided by unequal straights of both colours (2-1, 1-2, ...)",
    "decided by the opponent's push",
    "decided by a repetition",
    "several straights made by one push",
    "a push off a full line",
    "undecided at QUIT",
    "moves after the decisive one",
    "a 1 x 1 board",
    "a board above 8",
    "a game of 1000 moves or more",
];

/// The features `input`, judged `judgements`, shows.
pub fn features(input: &[u8], judgements: &[Judgement]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for j in judgements {
        match (j.reason, j.winner, j.decisive_move) {
            (Reason::Straights { x, o }, Some(winner), Some(at)) => {
                out.push(if x.min(o) == 0 {
                    FEATURES[0]
                } else {
                    FEATURES[1]
                });
                if Colour::of_move(at) != winner {
                    out.push(FEATURES[2]);
                }
                if x.max(o) >= 2 {
                    out.push(FEATURES[4]);
                }
            }
            (Reason::Repetition { .. }, ..) => out.push(FEATURES[3]),
            _ => out.push(FEATURES[6]),
        }
        if j.decisive_move.is_some_and(|at| at < j.moves) {
            out.push(FEATURES[7]);
        }
        if j.n == 1 {
            out.push(FEATURES[8]);
        }
        if j.n > 8 {
            out.push(FEATURES[9]);
        }
        if j.moves >= 1000 {
            out.push(FEATURES[10]);
        }
    }
    if pushes_off_a_full_line(input, judgements) {
        out.push(FEATURES[5]);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether a move played (up to the decisive one) pushes into a full line.
fn pushes_off_a_full_line(input: &[u8], judgements: &[Judgement]) -> bool {
    let Ok(games) = games(input) else {
        return false;
    };
    games.iter().zip(judgements).any(|((n, moves), j)| {
        let played = j.decisive_move.unwrap_or(j.moves).min(moves.len() as u64) as usize;
        if *n > 300 || played > 5000 {
            return false;
        }
        let mut board = Board::new(*n, false).expect("a size the parser took");
        moves[..played].iter().enumerate().any(|(i, &mv)| {
            let line = mv.index as usize - 1;
            let full = (0..*n).all(|p| match mv.edge {
                Edge::Left | Edge::Right => board.get(line, p).is_some(),
                Edge::Top | Edge::Bottom => board.get(p, line).is_some(),
            });
            board.play_unchecked(mv, Colour::of_move(i as u64 + 1));
            full
        })
    })
}

/// What `audit`'s random cases reach within every period of the corners (`referee gen pousse
/// --like-audit --coverage`), inside the contest's limits: each board size band, decided by a
/// straight and undecided; on the largest board a straight pushed from each side along its
/// first and its last line, and each player's; long games decided on their last move and
/// undecided; and the rules' own corners.
pub const COVERAGE: &[&str] = &[
    "N = 1, decided by a straight",
    "N 2-8, decided by a straight",
    "N 2-8, undecided",
    "N 9-99, decided by a straight",
    "N 9-99, undecided",
    "N = 100, decided by a straight",
    "N = 100, undecided",
    "N = 100, a straight pushed from L along row 1",
    "N = 100, a straight pushed from L along row 100",
    "N = 100, a straight pushed from R along row 1",
    "N = 100, a straight pushed from R along row 100",
    "N = 100, a straight pushed from T along column 1",
    "N = 100, a straight pushed from T along column 100",
    "N = 100, a straight pushed from B along column 1",
    "N = 100, a straight pushed from B along column 100",
    "N = 100, X's straight decides",
    "N = 100, O's straight decides",
    "N = 100, 32,768 moves or more",
    "32,768 moves or more, decided on the last move",
    "32,768 moves or more, undecided",
    "several straights made by one push",
    "decided by the opponent's push",
    "decided by unequal straights of both colours",
    "a push off a full line",
    "moves after the decisive one",
];

/// The long games' fewest moves.
const LONG: u64 = 32_768;

/// The features of [`COVERAGE`] that `input`, judged `judgements`, shows.
pub fn coverage(input: &[u8], judgements: &[Judgement]) -> Vec<&'static str> {
    let Ok(games) = games(input) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for ((n, moves), j) in games.iter().zip(judgements) {
        let straight = matches!(j.reason, Reason::Straights { .. }) && j.winner.is_some();
        let band = match n {
            1 => 0,
            2..=8 => 1,
            9..=99 => 3,
            100 => 5,
            _ => continue,
        };
        let undecided = j.decisive_move.is_none();
        if straight {
            out.push(COVERAGE[band]);
        } else if undecided && band > 0 {
            out.push(COVERAGE[band + 1]);
        }
        let decisive = j.decisive_move.map(|at| moves[at as usize - 1]);
        if let (100, true, Some(mv)) = (*n, straight, decisive) {
            let line = match (mv.index, mv.edge) {
                (1, _) => 0,
                (100, _) => 1,
                _ => 2,
            };
            if line < 2 {
                out.push(COVERAGE[7 + 2 * mv.edge as usize + line]);
            }
            out.push(match j.winner {
                Some(Colour::X) => COVERAGE[15],
                _ => COVERAGE[16],
            });
        }
        if j.moves >= LONG {
            if *n == 100 {
                out.push(COVERAGE[17]);
            }
            if straight && j.decisive_move == Some(j.moves) {
                out.push(COVERAGE[18]);
            }
            if undecided {
                out.push(COVERAGE[19]);
            }
        }
    }
    let features = features(input, judgements);
    for (feature, covered) in [
        (FEATURES[4], 20),
        (FEATURES[2], 21),
        (FEATURES[1], 22),
        (FEATURES[5], 23),
        (FEATURES[7], 24),
    ] {
        if features.contains(&feature) {
            out.push(COVERAGE[covered]);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
