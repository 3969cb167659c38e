use super::tiles::{occupied_key, tile_key};
use super::*;

fn mv(s: &str) -> Move {
    let edge = match &s[..1] {
        "L" => Edge::Left,
        "R" => Edge::Right,
        "T" => Edge::Top,
        _ => Edge::Bottom,
    };
    Move::new(edge, s[1..].parse().unwrap())
}

#[test]
fn a_board_copied_into_another_plays_on_alike() {
    // Copies between boards of different sizes too, into storage of another shape.
    let moves: Vec<Move> = ["L1", "T2", "R3", "B1", "L2", "T3", "R1", "B2", "L3", "T1"]
        .iter()
        .map(|m| mv(m))
        .collect();
    for (from, into) in [(3, 3), (3, 9), (9, 3), (70, 3)] {
        let mut source = Board::new(from, true).unwrap();
        for (i, &m) in moves.iter().enumerate() {
            source.play_unchecked(m, Colour::of_move(i as u64 + 1));
        }
        let mut copy = Board::new(into, false).unwrap();
        copy.clone_from(&source);
        let extra = mv("T1");
        source.play_unchecked(extra, Colour::O);
        copy.play_unchecked(extra, Colour::O);
        assert!(copy.same_contents(&source));
        assert_eq!(copy.straights(), source.straights());
        assert_eq!(copy.hash(), source.hash());
        assert_eq!(copy.to_text(), source.to_text());
    }
}

/// Recomputes the occupancy, statuses, watch planes, straights and hash from the squares,
/// and checks that squares outside the board are empty.
fn check_invariants(b: &Board) {
    let n = b.n;
    let mut hash = 0;
    for (i, &x) in b.x.iter().enumerate() {
        hash ^= tile_key(i, x) ^ tile_key(i, 0);
        let (tr, tc) = (i / b.t, i % b.t);
        for bit in 0..64 {
            let (r, c) = (8 * tr + bit / 8, 8 * tc + bit % 8);
            if r >= n || c >= n {
                assert_eq!(x >> bit & 1, 0, "square {r},{c} is outside the board");
            }
        }
    }
    let mut watch = [vec![0u64; b.t * b.t], vec![0u64; b.t * b.t]];
    let mut straights = [0, 0];
    for r in 0..n {
        for c in 0..n {
            let row_bit = b.occupied_rows[r * b.words + c / 64] >> (c % 64) & 1;
            let col_bit = b.occupied_cols[c * b.words + r / 64] >> (r % 64) & 1;
            assert_eq!(row_bit, col_bit, "occupancy of {r},{c}");
            if row_bit == 0 {
                assert!(!b.is_x::<true>(r, c), "X on the empty square {r},{c}");
            } else {
                hash ^= occupied_key(r * n + c);
            }
        }
    }
    for (o, rows) in [(0, true), (1, false)] {
        for line in 0..n {
            let cells: Vec<Option<Colour>> = (0..n)
                .map(|p| if rows { b.get(line, p) } else { b.get(p, line) })
                .collect();
            let status = b.lines(rows)[line];
            let lanes = Lanes::of(rows, b.t, line);
            let mut mark = |p: usize| watch[o][lanes.tile(p / 8)] |= 1 << lanes.bit(p % 8);
            let full = cells.iter().all(Option::is_some);
            match status {
                Line::Open { empty } => {
                    assert_eq!(cells[empty as usize], None, "{status:?} rows? {rows}")
                }
                Line::Mixed { x_at, o_at } => {
                    assert!(full, "{status:?} rows? {rows} line {line}");
                    assert_eq!(cells[x_at as usize], Some(Colour::X));
                    assert_eq!(cells[o_at as usize], Some(Colour::O));
                    mark(x_at as usize);
                    mark(o_at as usize);
                }
                Line::Straight(colour) => {
                    assert!(cells.iter().all(|&v| v == Some(colour)), "{status:?}");
                    straights[(colour == Colour::O) as usize] += 1;
                    (0..n).for_each(&mut mark);
                }
            }
        }
    }
    assert_eq!(b.watch_rows, watch[0], "watched squares of the rows");
    assert_eq!(b.watch_cols, watch[1], "watched squares of the columns");
    assert_eq!(b.straights(), (straights[0], straights[1]));
    if b.hashing {
        assert_eq!(b.hash, hash);
    }
    let mut copy = Board::new(n, false).unwrap();
    copy.x = b.x.clone();
    copy.occupied_rows = b.occupied_rows.clone();
    assert!(copy.same_contents(b));
}

fn run(n: usize, moves: &[&str]) -> Vec<String> {
    let mut b = Board::new(n, true).unwrap();
    let mut out = vec![];
    for (i, m) in moves.iter().enumerate() {
        b.play(mv(m), Colour::of_move(i as u64 + 1)).unwrap();
        check_invariants(&b);
        out.push(b.to_text());
    }
    out
}

#[test]
fn spec_push_mechanics_column() {
    let boards = run(5, &["T3", "T3", "T3", "T3", "T3", "T3"]);
    assert_eq!(boards[0], "..X../...../...../...../.....");
    assert_eq!(boards[4], "..X../..O../..X../..O../..X..");
    assert_eq!(boards[5], "..O../..X../..O../..X../..O..");
}

#[test]
fn spec_push_mechanics_rows() {
    let boards = run(5, &["R3", "L3", "R3", "L3", "B1", "T1"]);
    assert_eq!(boards[2], "...../...../O..XX/...../.....");
    assert_eq!(boards[3], "...../...../OO.XX/...../.....");
    assert_eq!(boards[5], "O..../...../OO.XX/...../X....");
}

#[test]
fn spec_push_mechanics_mixed() {
    let boards = run(5, &["T3", "L3", "T3", "L3", "T3", "L3", "T3"]);
    assert_eq!(boards[5], "..X../..X../OOOX./...../.....");
    assert_eq!(boards[6], "..X../..X../OOXX./..O../.....");
}

#[test]
fn multi_word_lines_push_and_fall_off() {
    for n in [7, 8, 9, 63, 64, 65, 127, 128, 130] {
        let mut b = Board::new(n, true).unwrap();
        let mut number = 0u64;
        for edge in Edge::ALL {
            for k in 0..(n + 3) {
                number += 1;
                let index = if k % 3 == 0 { 1 } else { (k % n) as u32 + 1 };
                b.play(Move::new(edge, index), Colour::of_move(number))
                    .unwrap();
            }
            check_invariants(&b);
        }
    }
}

/// Straights in lines of every tile and line-mask word (lines 64 and beyond live in word
/// 1 and up): X fills the last row (column), O the first, one marker each per move.
#[test]
fn straights_in_every_counter_word() {
    for n in [3, 64, 65, 100, 130] {
        for (x_line, o_line) in [
            (Move::new(Edge::Left, n as u32), Move::new(Edge::Right, 1)),
            (Move::new(Edge::Bottom, n as u32), Move::new(Edge::Top, 1)),
        ] {
            let mut b = Board::new(n, true).unwrap();
            for i in 0..n {
                b.play(x_line, Colour::X).unwrap();
                b.play(o_line, Colour::O).unwrap();
                check_invariants(&b);
                let full = (i + 1 == n) as u32;
                assert_eq!(b.straights(), (full, full), "n={n} after {} pairs", i + 1);
            }
        }
    }
}

/// Every status change on random games of every size class, with the invariants checked
/// after each move: lines fill, mix, become straights and stop being straights (the
/// palette of three lines per edge makes straights common), in both orientations.
#[test]
fn statuses_follow_random_games() {
    use crate::util::random::Entropy;
    let mut rng = crate::util::random::Rng::new(7);
    let mut seen = [0u32; 3];
    for n in [1, 2, 3, 5, 8, 9, 16, 17, 70] {
        for game in 0..6 {
            let mut b = Board::new(n, game % 2 == 0).unwrap();
            let palette: Vec<u32> = (0..3).map(|_| 1 + rng.below(n as u64) as u32).collect();
            for number in 1..=(3 * n * n + 20) as u64 {
                let edge = Edge::ALL[rng.below(4) as usize];
                let index = palette[rng.below(3) as usize];
                b.play(Move::new(edge, index), Colour::of_move(number))
                    .unwrap();
                if n <= 17 || number % 97 == 0 {
                    check_invariants(&b);
                }
                for l in b.rows.iter().chain(&b.cols) {
                    seen[match l {
                        Line::Open { .. } => 0,
                        Line::Mixed { .. } => 1,
                        Line::Straight(_) => 2,
                    }] += 1;
                }
            }
            check_invariants(&b);
        }
    }
    assert!(
        seen[0] > 1000 && seen[1] > 1000 && seen[2] > 200,
        "{seen:?}"
    );
}

/// The largest board: two rows of 512 tiles filled to straights from opposite ends, then
/// one of them broken by a push of the other colour; spot checks instead of the full
/// invariants (16 million squares).
#[test]
fn the_largest_board_fills_rows_and_counts_their_straights() {
    let n = MAX_N;
    let last = n as u32;
    let mut b = Board::new(n, true).unwrap();
    for i in 0..n {
        b.play(Move::new(Edge::Left, last), Colour::X).unwrap();
        b.play(Move::new(Edge::Right, 1), Colour::O).unwrap();
        let full = (i + 1 == n) as u32;
        assert_eq!(b.straights(), (full, full), "after {} pairs", i + 1);
    }
    assert_eq!(b.rows[n - 1], Line::Straight(Colour::X));
    assert_eq!(b.rows[0], Line::Straight(Colour::O));
    assert!(matches!(b.cols[n / 2], Line::Open { .. }));
    // X pushes its own straight along: nothing changes; O breaks it.
    b.play(Move::new(Edge::Left, last), Colour::X).unwrap();
    assert_eq!(b.straights(), (1, 1));
    b.play(Move::new(Edge::Left, last), Colour::O).unwrap();
    assert_eq!(b.straights(), (0, 1));
    assert_eq!(b.get(n - 1, 0), Some(Colour::O));
    assert_eq!(b.get(n - 1, n - 1), Some(Colour::X));
    assert_eq!(b.get(n / 2, n / 2), None);
}

#[test]
fn sizes_are_checked() {
    assert_eq!(Board::new(0, false).unwrap_err(), SizeError(0));
    assert!(Board::new(MAX_N, false).is_ok());
    assert!(Board::new(MAX_N + 1, false).is_err());
    let mut b = Board::new(3, false).unwrap();
    assert!(b.play(Move::new(Edge::Left, 4), Colour::X).is_err());
    assert!(b.play(Move::new(Edge::Left, 0), Colour::X).is_err());
}
