//! Comparing a program's output with the expected output, as a contest judge does: `AC`, `PE`,
//! `WA`. Used by `grade` and by every driver that runs someone else's program.

/// A verdict for one submission on one case, worst last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Accepted.
    AC,
    /// Presentation error.
    PE,
    /// Wrong answer.
    WA,
    /// No output.
    NO,
    /// Judge error: the case itself is wrong.
    JE,
}

impl Verdict {
    /// Every verdict, best first.
    pub const ALL: [Verdict; 5] = [
        Verdict::AC,
        Verdict::PE,
        Verdict::WA,
        Verdict::NO,
        Verdict::JE,
    ];

    /// The two-letter code.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::AC => "AC",
            Verdict::PE => "PE",
            Verdict::WA => "WA",
            Verdict::NO => "NO",
            Verdict::JE => "JE",
        }
    }
}

/// Lines with trailing blanks removed, after dropping one final newline.
fn lines(text: &str) -> Vec<&str> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.split('\n')
        .map(|l| l.trim_end_matches([' ', '\t', '\r']))
        .collect()
}

/// Compares a submission's output with the expected output.
pub fn compare(expected: &str, got: &[u8]) -> Verdict {
    let Ok(got) = std::str::from_utf8(got) else {
        return Verdict::WA;
    };
    if lines(expected) == lines(got) {
        Verdict::AC
    } else if expected.split_whitespace().eq(got.split_whitespace()) {
        Verdict::PE
    } else {
        Verdict::WA
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_verdicts() {
        assert_eq!(compare("X WINS\n", b"X WINS\n"), Verdict::AC);
        assert_eq!(compare("X WINS\n", b"X WINS  "), Verdict::AC);
        assert_eq!(compare("A\n\nB\n", b"A\r\n\r\nB\r\n"), Verdict::AC);
        assert_eq!(compare("A\n\nB\n", b"A\nB\n"), Verdict::PE);
        assert_eq!(compare("X WINS\n", b"X  WINS\n"), Verdict::PE);
        assert_eq!(compare("X WINS\n", b"O WINS\n"), Verdict::WA);
        assert_eq!(compare("X WINS\n", b"\xff"), Verdict::WA);
        assert_eq!(compare("X WINS\n", b"X WINS\n\n"), Verdict::PE);
    }
}
