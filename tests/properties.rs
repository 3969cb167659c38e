//! The differential property: on cases from each game's one generator (shrunk with the game's
//! own shrinker on failure), engine and reference agree on verdict, decisive move and reason, or
//! reject the input at the same position.

use crate::common;

use proptest::prelude::*;
use referee::game::{Case, Game};
use referee::harness::cross_examine;
use referee::littlesquares::GridCase;
use referee::pousse::PousseCase;
use referee::somegame::BoardCase;

/// The cross-examination of `case`, as a property-test outcome.
fn agrees<C: Case>(case: &C) -> Result<(), TestCaseError>
where
    C::Game: referee::game::Referenced,
{
    cross_examine::<C::Game>(&case.input(), case.options()).map_err(|d| {
        TestCaseError::fail(format!(
            "{} disagree\n{d}\n{}",
            C::Game::NAME,
            case.describe()
        ))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn pousse_engine_matches_reference(case in common::cases::<PousseCase>(None, Default::default())) {
        agrees(&case)?;
    }

    #[test]
    fn littlesquares_engine_matches_reference(case in common::cases::<GridCase>(None, Default::default())) {
        agrees(&case)?;
    }

    #[test]
    fn somegame_engine_matches_reference(case in common::cases::<BoardCase>(None, Default::default())) {
        agrees(&case)?;
    }
}
