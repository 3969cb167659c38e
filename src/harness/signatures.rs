//! Findings kept apart by signature: a long run keeps one example per distinct bug and counts
//! the others, in the order they were first seen. `referee stress`, `referee audit` and the fuzz
//! properties name findings by the same kind of signature.

use std::collections::BTreeMap;

/// A finding's signature: its kind, what was expected and what came instead (for wrong
/// verdicts), and the shape of its (shrunk) case, joined with ` | `.
pub fn signature(kind: &str, parts: &[&str]) -> String {
    let mut s = kind.to_string();
    for part in parts.iter().filter(|p| !p.is_empty()) {
        s.push_str(" | ");
        s.push_str(part);
    }
    s
}

/// The first line of a verdict output, for a signature (`X WINS`, `PLAYER 2`), or `no output`.
pub fn first_line(output: &[u8]) -> String {
    let line = output.split(|&b| b == b'\n').next().unwrap_or(b"");
    match crate::util::answer::escape(line, 40) {
        s if s.trim().is_empty() => "no output".to_string(),
        s => s.trim_end().to_string(),
    }
}

/// Findings, one example per signature (at most `max` of them), with how often each was seen.
#[derive(Debug)]
pub struct Findings<F> {
    kept: Vec<(String, F, u64)>,
    index: BTreeMap<String, usize>,
    max: usize,
    /// Findings seen whose signature was new but beyond `max`.
    pub dropped: u64,
}

impl<F> Findings<F> {
    /// No findings yet; at most `max` are kept.
    pub fn new(max: usize) -> Findings<F> {
        Findings {
            kept: Vec::new(),
            index: BTreeMap::new(),
            max,
            dropped: 0,
        }
    }

    /// Whether a finding of `signature` is already kept (it would only be counted).
    pub fn knows(&self, signature: &str) -> bool {
        self.index.contains_key(signature)
    }

    /// Counts a finding of `signature`; keeps `example()` when the signature is new and there
    /// is room. Returns whether it was kept.
    pub fn add(&mut self, signature: String, example: impl FnOnce() -> F) -> bool {
        if let Some(&i) = self.index.get(&signature) {
            self.kept[i].2 += 1;
            return false;
        }
        if self.kept.len() >= self.max {
            self.dropped += 1;
            return false;
        }
        self.index.insert(signature.clone(), self.kept.len());
        self.kept.push((signature, example(), 1));
        true
    }

    /// The kept findings, first seen first: signature, example, count.
    pub fn iter(&self) -> impl Iterator<Item = &(String, F, u64)> {
        self.kept.iter()
    }

    /// The most kept.
    pub fn max(&self) -> usize {
        self.max
    }

    /// How many are kept.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_example_per_signature_and_counts() {
        let mut f = Findings::new(2);
        assert!(f.add(signature("crash", &["exit 1"]), || 1));
        assert!(!f.add(signature("crash", &["exit 1"]), || 2));
        assert!(f.add(
            signature("wrong-answer", &["X WINS -> O WINS", "N=2"]),
            || 3
        ));
        assert!(!f.add(signature("timeout", &[]), || 4));
        let kept: Vec<_> = f.iter().map(|(s, e, n)| (s.as_str(), *e, *n)).collect();
        assert_eq!(
            kept,
            [
                ("crash | exit 1", 1, 2),
                ("wrong-answer | X WINS -> O WINS | N=2", 3, 1)
            ]
        );
        assert_eq!(f.dropped, 1);
        assert_eq!(first_line(b"X WINS\n\nO WINS\n"), "X WINS");
        assert_eq!(first_line(b""), "no output");
    }
}
