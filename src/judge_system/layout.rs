//! The strict layout a contest's input validator demands on top of the game's grammar: the one
//! way to write each input, so that an input with extra spaces, blank lines or leading zeros is
//! refused (as Kattis problemtools checks by feeding such variants of the test data).
//!
//! Rules, checked as the bytes stream through [`LayoutCheck`] (memory: a few counters):
//! - no carriage return, tab or other control byte but the line feed; the input is not empty
//!   and ends with a line feed;
//! - no space at the start or the end of a line, never two spaces in a row;
//! - no blank line at the start, two blank lines in a row, or a blank line at the end;
//! - no leading zero in a number: a run of digits at the start of a token or after a letter
//!   (`007`, `L01`) longer than one digit does not start with `0`.
//!
//! Positions are 1-based lines and byte columns, as in every error referee prints.

use std::io::{self, Read};

use crate::util::error::{InputError, Position};

/// A reader that passes its bytes through unchanged and remembers the first place where they
/// break the strict layout.
pub struct LayoutCheck<R> {
    inner: R,
    line: u64,
    column: u64,
    /// The previous byte (`\n` at the start).
    previous: u8,
    /// The byte before the previous one.
    before: u8,
    /// The current token's previous byte, and whether a digit run starts at the byte now read.
    token_previous: Option<u8>,
    /// A digit run that began with `0` at this column, not yet known to be longer.
    zero_at: Option<u64>,
    /// Whether any byte came through.
    any: bool,
    fault: Option<InputError>,
}

impl<R: Read> LayoutCheck<R> {
    /// Checks the bytes read from `inner`.
    pub fn new(inner: R) -> LayoutCheck<R> {
        LayoutCheck {
            inner,
            line: 1,
            column: 0,
            previous: b'\n',
            before: b'\n',
            token_previous: None,
            zero_at: None,
            any: false,
            fault: None,
        }
    }

    fn fail(&mut self, column: u64, expected: &str, found: &str) {
        if self.fault.is_none() {
            self.fault = Some(InputError::new(
                Position::new(self.line, column),
                None,
                expected,
                found,
            ));
        }
    }

    fn byte(&mut self, b: u8) {
        self.any = true;
        self.column += 1;
        let column = self.column;
        match b {
            b'\n' => {
                if self.previous == b' ' {
                    self.fail(column - 1, "the end of the line", "a space");
                }
                if self.previous == b'\n' && (self.line == 1 || self.before == b'\n') {
                    let what = if self.line == 1 {
                        "a first line that is not blank"
                    } else {
                        "at most one blank line in a row"
                    };
                    self.fail(1, what, "a blank line");
                }
            }
            b' ' => {
                if self.previous == b'\n' {
                    self.fail(column, "a value at the start of the line", "a space");
                } else if self.previous == b' ' {
                    self.fail(column, "a single space between values", "a second space");
                }
            }
            b'\r' => self.fail(
                column,
                "a line feed alone at the end of a line",
                "a carriage return",
            ),
            b'\t' => self.fail(column, "a single space between values", "a tab"),
            0..=31 | 127 => self.fail(column, "printable text", &format!("the byte 0x{b:02x}")),
            _ => {}
        }
        // Leading zeros: a digit run starting a token, or following a letter.
        let starts_run = b.is_ascii_digit()
            && self
                .token_previous
                .is_none_or(|p| p.is_ascii_alphabetic() || p == b'-');
        if let Some(at) = self.zero_at.take() {
            if b.is_ascii_digit() {
                self.fail(at, "a number without leading zeros", "a leading zero");
            }
        }
        if starts_run && b == b'0' {
            self.zero_at = Some(column);
        }
        self.token_previous = if b == b' ' || b == b'\n' {
            None
        } else {
            Some(b)
        };
        self.before = self.previous;
        self.previous = b;
        if b == b'\n' {
            self.line += 1;
            self.column = 0;
        }
    }

    /// Where the next byte would be: `LINE:COLUMN`.
    pub fn position(&self) -> Position {
        Position::new(self.line, self.column + 1)
    }

    /// The first layout fault, once the input was read to its end.
    pub fn finish(mut self) -> Option<InputError> {
        if !self.any {
            self.fail(1, "an input", "an empty file");
        } else if self.previous != b'\n' {
            let column = self.column + 1;
            self.fail(
                column,
                "a line feed at the end of the input",
                "end of input",
            );
        } else if self.before == b'\n' {
            self.line -= 1;
            self.fail(1, "no blank line at the end of the input", "a blank line");
        }
        self.fault
    }
}

/// Past its first fault the input ends for its reader (the fault decides, and an endless
/// input of blank lines or spaces is not read to its end).
impl<R: Read> Read for LayoutCheck<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.fault.is_some() {
            return Ok(0);
        }
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            self.byte(b);
        }
        Ok(n)
    }
}

/// The first layout fault of `bytes`.
pub fn check(bytes: &[u8]) -> Option<InputError> {
    let mut reader = LayoutCheck::new(bytes);
    io::copy(&mut reader, &mut io::sink()).expect("reading memory");
    reader.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(text: &str) -> Option<String> {
        check(text.as_bytes()).map(|e| e.to_string())
    }

    #[test]
    fn canonical_inputs_pass() {
        assert_eq!(fault("4\nL1\nT2\nQUIT\n"), None);
        assert_eq!(fault("2 3 3 4\n1 2 0\n2 1 0\n0 0 1\n"), None);
        assert_eq!(fault("2\n\n3\nL1\nQUIT\n\n1\nQUIT\n"), None);
        assert_eq!(fault("10 0 7\n"), None);
    }

    #[test]
    fn every_kind_of_junk_is_placed() {
        assert_eq!(
            fault("4\nL1 \n").unwrap(),
            "2:3: expected the end of the line, found a space"
        );
        assert_eq!(
            fault("4\n L1\n").unwrap(),
            "2:1: expected a value at the start of the line, found a space"
        );
        assert_eq!(
            fault("1  2\n").unwrap(),
            "1:3: expected a single space between values, found a second space"
        );
        assert_eq!(
            fault("1\t2\n").unwrap(),
            "1:2: expected a single space between values, found a tab"
        );
        assert_eq!(
            fault("4\r\n").unwrap(),
            "1:2: expected a line feed alone at the end of a line, found a carriage return"
        );
        assert_eq!(
            fault("4\n\n\nL1\n").unwrap(),
            "3:1: expected at most one blank line in a row, found a blank line"
        );
        assert_eq!(
            fault("\n4\n").unwrap(),
            "1:1: expected a first line that is not blank, found a blank line"
        );
        assert_eq!(
            fault("4\nQUIT\n\n").unwrap(),
            "3:1: expected no blank line at the end of the input, found a blank line"
        );
        assert_eq!(
            fault("4\nQUIT").unwrap(),
            "2:5: expected a line feed at the end of the input, found end of input"
        );
        assert_eq!(
            fault("").unwrap(),
            "1:1: expected an input, found an empty file"
        );
        assert_eq!(
            fault("2 03 3\n").unwrap(),
            "1:3: expected a number without leading zeros, found a leading zero"
        );
        assert_eq!(
            fault("4\nL01\n").unwrap(),
            "2:2: expected a number without leading zeros, found a leading zero"
        );
        assert_eq!(
            fault("4\nL1\n\0\n").unwrap(),
            "3:1: expected printable text, found the byte 0x00"
        );
    }

    #[test]
    fn the_junk_problemtools_adds_is_refused() {
        // problemtools' modifications of valid input: spaces after whitespace, at line ends,
        // doubled newlines, leading zeros.
        let valid = "2 3 3 4\n1 2 0\n2 1 0\n0 0 1\n";
        for junk in [
            valid.replace(' ', "  ").replace('\n', "\n "),
            valid.replace('\n', "\n "),
            valid.replace('\n', "\n\n"),
            "0000000002 0000000003 3 4\n1 2 0\n2 1 0\n0 0 1\n".to_string(),
        ] {
            assert!(check(junk.as_bytes()).is_some(), "{junk:?}");
        }
    }
}
