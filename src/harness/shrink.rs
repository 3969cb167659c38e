//! Shrinking a failing case to a minimal one that still fails.

use crate::game::Case;

/// Shrinks a failing case: repeatedly takes the first smaller variant ([`Case::shrink`]) that
/// still fails, until none does.
pub fn shrink<C: Case>(case: C, fails: impl Fn(&C) -> bool) -> C {
    let mut best = case;
    'outer: loop {
        for candidate in best.shrink() {
            if fails(&candidate) {
                best = candidate;
                continue 'outer;
            }
        }
        return best;
    }
}
