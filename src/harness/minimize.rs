//! Shrinking a failing case to a minimal one that still fails.

use std::time::Instant;

use crate::game::Case;

/// Shrinks a failing case: repeatedly takes the first smaller variant ([`Case::shrink`]) that
/// still fails, until none does or `until` passes (then the smallest failing case so far).
pub fn shrink<C: Case>(case: C, fails: impl Fn(&C) -> bool, until: Option<Instant>) -> C {
    let mut best = case;
    let over = || until.is_some_and(|u| Instant::now() >= u);
    loop {
        if over() {
            return best;
        }
        let smaller = best
            .shrink()
            .take_while(|_| !over())
            .find(|candidate| fails(candidate));
        match smaller {
            Some(candidate) => best = candidate,
            None => return best,
        }
    }
}
