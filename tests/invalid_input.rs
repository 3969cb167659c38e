//! The shared invalid-input vectors (`tests/vectors/*_invalid.txt`: input, line:column, case)
//! on both implementations of every game: each rejects every vector at the same position.

use crate::common;

use referee::littlesquares::LittleSquares;
use referee::pousse::{Pousse, Rules};
use referee::somegame::SomeGame;

#[test]
fn every_game_rejects_its_invalid_vectors_at_the_same_position_with_both_implementations() {
    let counts = [
        common::assert_invalid_vectors::<Pousse>("pousse_invalid.txt", Rules::Waterloo),
        common::assert_invalid_vectors::<LittleSquares>("littlesquares_invalid.txt", ()),
        common::assert_invalid_vectors::<SomeGame>("somegame_invalid.txt", ()),
    ];
    assert!(
        counts[0] >= 30 && counts[1] >= 15 && counts[2] >= 15,
        "{counts:?}"
    );
}
