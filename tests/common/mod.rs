//! Helpers shared by the integration tests: vector files and judging with both
//! implementations.
#![allow(dead_code)]

use std::path::PathBuf;

use referee::error::JudgeError;
use referee::game::{Game, Implementation};

/// The path of a shared vector file.
pub fn vector_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(name)
}

/// The `|`-separated, trimmed fields of every non-comment line of a vector file.
pub fn vectors(name: &str) -> Vec<Vec<String>> {
    std::fs::read_to_string(vector_path(name))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("# ") && !l.trim().is_empty())
        .map(|l| l.split('|').map(|f| f.trim().to_string()).collect())
        .collect()
}

/// Decodes `\n`, `\r`, `\t`, `\\` and `\xHH` escapes.
pub fn decode_escapes(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'\\' => out.push(b'\\'),
                b'x' => {
                    out.push(u8::from_str_radix(&s[i + 2..i + 4], 16).unwrap());
                    i += 2;
                }
                other => panic!("unknown escape \\{}", other as char),
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// Judges `input` with one implementation.
pub fn judge<G: Game>(
    imp: Implementation,
    input: &[u8],
    options: G::Options,
) -> Result<Vec<G::Judgement>, JudgeError> {
    G::judge(imp, &mut &input[..], options)
}

/// Judges `input` with both implementations.
pub type Both<G> = (
    Result<Vec<<G as Game>::Judgement>, JudgeError>,
    Result<Vec<<G as Game>::Judgement>, JudgeError>,
);

/// Judges `input` with the engine and with the reference.
///
/// Where the engine has a general path besides its specialised ones, that path must give the
/// same result.
pub fn judge_both<G: Game>(input: &[u8], options: G::Options) -> Both<G> {
    let fast = judge::<G>(Implementation::Fast, input, options);
    if let Some(general) = G::judge_general_path(input, options) {
        assert_eq!(
            format!("{fast:?}"),
            format!("{general:?}"),
            "the engine's general path disagrees"
        );
    }
    (fast, judge::<G>(Implementation::Reference, input, options))
}

/// Checks every vector of an invalid-input file (`input with escapes | line:column | case`):
/// both implementations reject it, at the same position and case. Returns the vector count.
pub fn assert_invalid_vectors<G: Game>(file: &str, options: G::Options) -> usize {
    let cases = vectors(file);
    for fields in &cases {
        let [input, position, case] = &fields[..] else {
            panic!("bad vector {fields:?}");
        };
        let input = decode_escapes(input);
        for imp in [Implementation::Fast, Implementation::Reference] {
            let err = judge::<G>(imp, &input, options)
                .expect_err(&format!("{imp:?} accepted {fields:?}"));
            let JudgeError::Input(e) = err else {
                panic!("not an input error");
            };
            assert_eq!(&e.position.to_string(), position, "{imp:?} {fields:?}: {e}");
            assert_eq!(e.case, case.parse().ok(), "{imp:?} {fields:?}: {e}");
        }
    }
    cases.len()
}
