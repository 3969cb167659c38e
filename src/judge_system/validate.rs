//! The input validator: the engine's parser, and for a contest problem the original problem's
//! limits and the strict layout of [`super::layout`].

use std::io::Read;

use super::layout::LayoutCheck;
use crate::error::{InputError, JudgeError};
use crate::game::{Engine, Game};

pub use crate::game::Constraints;

/// Why an input is not valid: a message of the form `LINE:COL: expected ..., found ...`
/// (1-based line and byte column), or `case K: expected ..., found ...` for a case outside the
/// contest's limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub String);

/// Checks `input` under `constraints`; the number of cases when valid.
pub fn validate<G: Game>(
    input: impl Read,
    options: G::Options,
    constraints: Constraints,
) -> Result<usize, Invalid> {
    let (judged, layout) = match constraints {
        Constraints::Engine => {
            let mut input = input;
            (G::judge(Engine::Fast, &mut input, options), None)
        }
        Constraints::Contest => {
            let mut checked = LayoutCheck::new(input);
            let judged = G::judge(Engine::Fast, &mut checked, options);
            // The layout of what the parser did not read (after an error) is not checked.
            let _ = std::io::copy(&mut checked, &mut std::io::sink());
            (judged, checked.finish())
        }
    };
    match (judged, layout) {
        // The earlier of a grammar error and a layout fault is reported.
        (Err(JudgeError::Input(e)), Some(l)) => Err(Invalid(earlier(e, l).to_string())),
        (Err(e), _) => Err(Invalid(e.to_string())),
        (Ok(_), Some(l)) => Err(Invalid(l.to_string())),
        (Ok(judgements), None) => {
            if constraints == Constraints::Contest {
                for (i, j) in judgements.iter().enumerate() {
                    if let Some((expected, found)) = G::outside_contest(j) {
                        return Err(Invalid(format!(
                            "case {}: expected {expected}, found {found}",
                            i + 1
                        )));
                    }
                }
            }
            Ok(judgements.len())
        }
    }
}

fn earlier(a: InputError, b: InputError) -> InputError {
    let key = |e: &InputError| (e.position.line, e.position.column);
    if key(&b) < key(&a) {
        InputError { case: a.case, ..b }
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::littlesquares::LittleSquares;
    use crate::pousse::{Pousse, Rules};
    use crate::somegame::SomeGame;

    fn pousse(text: &str, c: Constraints) -> Result<usize, Invalid> {
        validate::<Pousse>(text.as_bytes(), Rules::Waterloo, c)
    }

    #[test]
    fn the_engine_accepts_what_the_contest_refuses() {
        let big = "101\nL1\nQUIT\n";
        assert_eq!(pousse(big, Constraints::Engine), Ok(1));
        assert_eq!(
            pousse(big, Constraints::Contest),
            Err(Invalid(
                "case 1: expected a board size N <= 100 (the contest's limit), found N = 101"
                    .into()
            ))
        );
        let spaced = "2 3 3 4\n1 2 0 \n2 1 0\n0 0 1\n";
        assert_eq!(
            validate::<SomeGame>(spaced.as_bytes(), (), Constraints::Engine),
            Ok(1)
        );
        assert_eq!(
            validate::<SomeGame>(spaced.as_bytes(), (), Constraints::Contest),
            Err(Invalid(
                "2:6: expected the end of the line, found a space".into()
            ))
        );
        let odd = "...\n...\n...\n";
        assert!(validate::<LittleSquares>(odd.as_bytes(), (), Constraints::Engine).is_ok());
        let refused = validate::<LittleSquares>(odd.as_bytes(), (), Constraints::Contest);
        assert_eq!(
            refused,
            Err(Invalid("case 1: expected an even number of rows from 2 to 10, all of the same even length from 2 to 10 (the contest's limits), found a 3 x 3 grid".into()))
        );
    }

    #[test]
    fn grammar_errors_keep_their_place() {
        assert_eq!(
            pousse("3\nZ1\nQUIT\n", Constraints::Contest).unwrap_err().0,
            "2:1: expected a move (L, R, T or B and an index) or QUIT, found 'Z1'"
        );
        let leading_zero = "2 3 3 04\n1 2 0\n2 1 0\n0 0 1\n";
        assert!(validate::<SomeGame>(leading_zero.as_bytes(), (), Constraints::Engine).is_ok());
        assert_eq!(
            validate::<SomeGame>(leading_zero.as_bytes(), (), Constraints::Contest)
                .unwrap_err()
                .0,
            "1:7: expected a number without leading zeros, found a leading zero"
        );
    }
}
