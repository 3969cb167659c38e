//! Comparing a program's output with the expected output, as a contest judge does: `AC`, `PE`,
//! `WA`. Used by `grade` and by every driver that runs someone else's program.
//!
//! - `AC`: the same lines as expected, ignoring blanks (space, tab, `\r`) at the end of each line
//!   and one final newline;
//! - `PE`: the same tokens, where tokens are separated by ASCII white space (space, tab, `\n`,
//!   `\r`, vertical tab, form feed), but different line breaks, blank lines or spacing;
//! - `WA`: anything else. Any byte outside ASCII belongs to a token, so output that is not
//!   UTF-8, or not ASCII, never matches the (ASCII) verdicts.
//!
//! The output is streamed: [`compare_reader`] reads it once, holds at most the longest expected
//! line and token, and stops as soon as no verdict but `WA` is possible, or when the output is
//! far longer than the expected output ([`longest_output`]): a wrong answer of gigabytes costs
//! a buffer and the bytes read before it went wrong.

use std::io::{self, Read};

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

    /// The verdict whose code is `text`.
    pub fn from_name(text: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.as_str() == text)
    }
}

/// The most bytes of output that can still be compared with `expected`: twice its length
/// plus 64 KiB (room for any amount of reasonable extra white space). Longer output is `WA`.
pub fn longest_output(expected: &str) -> u64 {
    2 * expected.len() as u64 + (64 << 10)
}

/// How many of the output's first bytes a comparison keeps, for reports.
pub const HEAD: usize = 256;

/// The result of comparing one output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// The verdict.
    pub verdict: Verdict,
    /// The first [`HEAD`] bytes of the output.
    pub head: Vec<u8>,
    /// Why, when it is not evident from the output (an output cut short of reading).
    pub detail: String,
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// The expected output's lines (trailing blanks removed, one final newline dropped) and tokens.
struct Expected<'a> {
    lines: Vec<&'a [u8]>,
    tokens: Vec<&'a [u8]>,
    longest_line: usize,
    longest_token: usize,
}

impl<'a> Expected<'a> {
    fn new(text: &'a str) -> Expected<'a> {
        let text = text.as_bytes();
        let body = text.strip_suffix(b"\n").unwrap_or(text);
        let lines: Vec<&[u8]> = body
            .split(|&b| b == b'\n')
            .map(|l| &l[..l.iter().rposition(|&b| !is_blank(b)).map_or(0, |i| i + 1)])
            .collect();
        let tokens: Vec<&[u8]> = text
            .split(|&b| is_space(b))
            .filter(|t| !t.is_empty())
            .collect();
        Expected {
            longest_line: lines.iter().map(|l| l.len()).max().unwrap_or(0),
            longest_token: tokens.iter().map(|t| t.len()).max().unwrap_or(0),
            lines,
            tokens,
        }
    }
}

/// The comparison's state over the output read so far.
struct Matcher<'a> {
    expected: Expected<'a>,
    /// Whether the lines so far match (`AC` is still possible), the next line's index, and the
    /// current line (held up to the longest expected line; `overlong` when it went past).
    lines_match: bool,
    line_index: usize,
    line: Vec<u8>,
    overlong: bool,
    /// Whether the tokens so far match (`PE` is still possible), the next token's index, and
    /// the current token.
    tokens_match: bool,
    token_index: usize,
    token: Vec<u8>,
    last: Option<u8>,
}

impl<'a> Matcher<'a> {
    fn new(expected: &'a str) -> Matcher<'a> {
        Matcher {
            expected: Expected::new(expected),
            lines_match: true,
            line_index: 0,
            line: Vec::new(),
            overlong: false,
            tokens_match: true,
            token_index: 0,
            token: Vec::new(),
            last: None,
        }
    }

    /// Whether anything but `WA` is still possible.
    fn hopeful(&self) -> bool {
        self.lines_match || self.tokens_match
    }

    fn end_line(&mut self) {
        if self.lines_match {
            let end = self
                .line
                .iter()
                .rposition(|&b| !is_blank(b))
                .map_or(0, |i| i + 1);
            self.lines_match = !self.overlong
                && self.expected.lines.get(self.line_index) == Some(&&self.line[..end]);
        }
        self.line_index += 1;
        self.line.clear();
        self.overlong = false;
    }

    fn end_token(&mut self) {
        if !self.token.is_empty() {
            self.tokens_match &=
                self.expected.tokens.get(self.token_index) == Some(&&self.token[..]);
            self.token_index += 1;
            self.token.clear();
        }
    }

    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                self.end_line();
            } else if self.lines_match {
                if self.line.len() < self.expected.longest_line + 1 {
                    self.line.push(b);
                } else if !is_blank(b) {
                    self.overlong = true;
                    self.lines_match = false;
                }
            }
            if is_space(b) {
                self.end_token();
            } else if self.tokens_match {
                if self.token.len() <= self.expected.longest_token {
                    self.token.push(b);
                } else {
                    self.tokens_match = false;
                }
            }
        }
        self.last = bytes.last().copied().or(self.last);
    }

    fn finish(mut self) -> Verdict {
        // One final newline is dropped; anything after the last newline is a line of its own.
        if self.last != Some(b'\n') {
            self.end_line();
        }
        self.end_token();
        if self.lines_match && self.line_index == self.expected.lines.len() {
            Verdict::AC
        } else if self.tokens_match && self.token_index == self.expected.tokens.len() {
            Verdict::PE
        } else {
            Verdict::WA
        }
    }
}

/// Compares the output read from `got` with `expected` (see the module documentation), reading
/// no more than [`longest_output`] bytes.
pub fn compare_reader(expected: &str, mut got: impl Read) -> io::Result<Comparison> {
    let mut matcher = Matcher::new(expected);
    let mut head = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    let limit = longest_output(expected);
    let mut read = 0u64;
    loop {
        let n = match got.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if head.len() < HEAD {
            head.extend_from_slice(&chunk[..n.min(HEAD - head.len())]);
        }
        read += n as u64;
        if read > limit {
            return Ok(Comparison {
                verdict: Verdict::WA,
                head,
                detail: format!("the output is longer than {limit} bytes, far longer than expected (not read further)"),
            });
        }
        matcher.feed(&chunk[..n]);
        if !matcher.hopeful() {
            return Ok(Comparison {
                verdict: Verdict::WA,
                head,
                detail: String::new(),
            });
        }
    }
    Ok(Comparison {
        verdict: matcher.finish(),
        head,
        detail: String::new(),
    })
}

/// Compares an output held in memory with `expected`.
pub fn compare(expected: &str, got: &[u8]) -> Verdict {
    compare_reader(expected, got).map_or(Verdict::WA, |c| c.verdict)
}

/// Where two texts first differ byte for byte: the 1-based line and column in `got`, and the
/// byte each has there (escaped and quoted, or "the end").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteDifference {
    /// 1-based line of `got`.
    pub line: usize,
    /// 1-based byte column in that line.
    pub column: usize,
    /// The expected byte there.
    pub expected: String,
    /// The byte found there.
    pub found: String,
}

/// The first byte where `got` differs from `expected` (ASCII case ignored unless
/// `case_sensitive`), or `None` when they are equal so.
pub fn first_byte_difference(
    expected: &[u8],
    got: &[u8],
    case_sensitive: bool,
) -> Option<ByteDifference> {
    let same = |e: &u8, g: &u8| {
        if case_sensitive {
            e == g
        } else {
            e.eq_ignore_ascii_case(g)
        }
    };
    let at = match expected.iter().zip(got).position(|(e, g)| !same(e, g)) {
        Some(at) => at,
        None if expected.len() == got.len() => return None,
        None => expected.len().min(got.len()),
    };
    let shown = |bytes: &[u8]| match bytes.get(at) {
        Some(b) => format!("\"{}\"", escape(&[*b], 8)),
        None => "the end".to_string(),
    };
    Some(ByteDifference {
        line: got[..at].iter().filter(|&&b| b == b'\n').count() + 1,
        column: at
            - got[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1)
            + 1,
        expected: shown(expected),
        found: shown(got),
    })
}

/// Text [`escape`]d for one line made readable as lines again, for a `<pre>`: each `\n` a
/// newline and `\\` a backslash; the other escapes (`\xHH`) stay, so nothing invisible is
/// shown raw.
pub fn as_lines(escaped: &str) -> String {
    let mut out = String::with_capacity(escaped.len());
    let mut chars = escaped.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Bytes of untrusted text for one CSV cell or one terminal line: printable ASCII and valid
/// UTF-8 as they are, a newline as `\n`, a backslash as `\\`, any other control byte, invisible
/// formatting character ([`crate::util::text::invisible`]: a byte-order mark) or byte that is not
/// UTF-8 as `\xHH`; cut after `max` characters (with `...`).
pub fn escape(bytes: &[u8], max: usize) -> String {
    let mut out = String::new();
    let mut shown = 0;
    let mut push = |out: &mut String, piece: &str| {
        if shown < max {
            out.push_str(piece);
        }
        shown += 1;
    };
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' => push(&mut out, "\\n"),
                '\\' => push(&mut out, "\\\\"),
                c if c.is_control() || crate::util::text::invisible(c) => {
                    let mut buf = [0; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        push(&mut out, &format!("\\x{b:02X}"));
                    }
                }
                c => push(&mut out, c.encode_utf8(&mut [0; 4])),
            }
        }
        for b in chunk.invalid() {
            push(&mut out, &format!("\\x{b:02X}"));
        }
    }
    if shown > max {
        out.push_str("...");
    }
    out
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
        assert_eq!(compare("X WINS\n", b""), Verdict::WA);
        assert_eq!(compare("A\n\nB\n", b"A\n\nB"), Verdict::AC);
        assert_eq!(compare("A\n", b"A\n   \t "), Verdict::PE);
        assert_eq!(compare("A\n", b"A\x00\n"), Verdict::WA);
        assert_eq!(compare("X WINS\n", b"X WINS \xe3\x80\x80\n"), Verdict::WA);
    }

    /// The streaming comparison gives the verdicts of the definition, whatever the chunks.
    #[test]
    fn streaming_agrees_with_the_definition() {
        fn lines(text: &str) -> Vec<&str> {
            let text = text.strip_suffix('\n').unwrap_or(text);
            text.split('\n')
                .map(|l| l.trim_end_matches([' ', '\t', '\r']))
                .collect()
        }
        fn defined(expected: &str, got: &[u8]) -> Verdict {
            let Ok(got) = std::str::from_utf8(got) else {
                return Verdict::WA;
            };
            let ascii_tokens = |s: &str| -> Vec<String> {
                s.split(|c: char| c.is_ascii_whitespace() || c == '\x0b')
                    .filter(|t| !t.is_empty())
                    .map(String::from)
                    .collect()
            };
            if lines(expected) == lines(got) {
                Verdict::AC
            } else if ascii_tokens(expected) == ascii_tokens(got) {
                Verdict::PE
            } else {
                Verdict::WA
            }
        }
        let expected = [
            "X WINS\n",
            "A\n\nB\n",
            "first\nsecond\n",
            "PLAYER 1\n\nERROR\n",
        ];
        let pieces: [&[u8]; 10] = [
            b"X", b" ", b"WINS", b"\n", b"\r\n", b"\t", b"A", b"B", b"first", b"\n\n",
        ];
        let mut state = 7u64;
        for _ in 0..20_000 {
            state = crate::util::hash::mix64(state);
            let e = expected[(state % 4) as usize];
            let got: Vec<u8> = (0..(state >> 8) % 8)
                .flat_map(|i| pieces[((state >> (12 + 4 * i)) % 10) as usize].to_vec())
                .collect();
            for piece in [1usize, 3, 64 << 10] {
                let v = compare_reader(e, Chunks(&got, piece)).unwrap().verdict;
                assert_eq!(
                    v,
                    defined(e, &got),
                    "{e:?} {:?} in pieces of {piece}",
                    String::from_utf8_lossy(&got)
                );
            }
        }
    }

    struct Chunks<'a>(&'a [u8], usize);

    impl Read for Chunks<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn endless_and_enormous_outputs_stop_early() {
        // Zeros: wrong from the first byte.
        let c = compare_reader("X WINS\n", io::repeat(0)).unwrap();
        assert_eq!((c.verdict, c.head.len()), (Verdict::WA, HEAD));
        // Endless white space after a right answer: stopped at the limit.
        let spaces = io::repeat(b' ');
        let c = compare_reader("X WINS\n", b"X WINS\n".chain(spaces)).unwrap();
        assert_eq!(c.verdict, Verdict::WA);
        assert!(c.detail.contains("far longer"), "{}", c.detail);
    }

    #[test]
    fn escaped_text_reads_as_lines_again_with_control_bytes_still_escaped() {
        let raw = b"TIE GAME\nback\\slash \x1b[31m\n";
        let escaped = escape(raw, 100);
        assert_eq!(as_lines(&escaped), "TIE GAME\nback\\slash \\x1B[31m\n");
        assert_eq!(
            as_lines("a\\\\n"),
            "a\\n",
            "an escaped backslash before n is not a newline"
        );
    }

    #[test]
    fn escapes_are_unambiguous_and_cut() {
        assert_eq!(escape(b"X WINS\n", 200), "X WINS\\n");
        assert_eq!(
            escape(b"a\\x00\x00\x1b[31m\xff\xe9t\xc3\xa9", 200),
            "a\\\\x00\\x00\\x1B[31m\\xFF\\xE9t\u{e9}"
        );
        assert_eq!(escape(&[b'a'; 10], 4), "aaaa...");
    }
}
