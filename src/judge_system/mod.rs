//! referee inside the judge systems organisers run: an input validator ([`validate`]) and an
//! output validator ([`check`]) speaking the protocols of Kattis and DOMjudge, testlib
//! (Codeforces Polygon) and CMS, and the Kattis problem package writer ([`crate::package`]).
//!
//! The protocols (see `docs/judge-systems.md`):
//! - Kattis/DOMjudge input validator: the input on standard input; exit 42 valid, 43 invalid.
//! - Kattis/DOMjudge output validator: `INPUT ANSWER FEEDBACK_DIR [ARGS] < OUTPUT`; exit 42
//!   accepted, 43 wrong answer, anything else a judge error; `judgemessage.txt` (and
//!   `judgeerror.txt`) in FEEDBACK_DIR.
//! - testlib checker: `INPUT OUTPUT ANSWER`; exit 0 OK, 1 WA, 2 PE, 3 FAIL.
//! - CMS checker: `INPUT ANSWER OUTPUT`; the score (0.0 or 1.0) on standard output, a message
//!   on standard error.

pub mod check;
pub mod layout;
pub mod problem_yaml;
pub mod validate;

/// The rule set named by a validator argument: `R`, `rules=R`, or `--rules R`.
pub fn rules_in(arguments: &[String]) -> Option<String> {
    let mut it = arguments.iter();
    while let Some(a) = it.next() {
        if a == "--rules" {
            return it.next().cloned();
        }
        if let Some(r) = a.strip_prefix("rules=").or(a.strip_prefix("--rules=")) {
            return Some(r.to_string());
        }
    }
    arguments
        .iter()
        .find(|a| crate::games::check_rule_set_name(a).is_ok())
        .cloned()
}
