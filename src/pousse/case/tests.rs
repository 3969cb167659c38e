use super::*;
use crate::pousse::Match;
use crate::util::random::Rng;

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
