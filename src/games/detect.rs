//! Recognising what a file is: its game from its content (for `verify` and `grade` without
//! `--game`), and its rule set from its name (`case.icfp98.in`).
//!
//! The games' first lines have different shapes, so the first line that is not blank decides
//! ([`crate::games::recognise`]). Any number of blank lines may come first: they are skipped
//! as they stream past, and only the first [`FIRST_LINE_BYTES`] bytes of the deciding line are
//! kept, so recognition reads a bounded amount of memory whatever the file.

use std::io::{self, Read};
use std::path::Path;

use crate::game::RuleSet;
use crate::games::{recognise, GameName, RecogniseError};

/// How much of the first non-blank line recognition looks at.
pub const FIRST_LINE_BYTES: usize = 4096;

/// The first line of `input` that is not blank (without its line end, cut at
/// [`FIRST_LINE_BYTES`]), or `None` when every line is blank.
pub fn first_line(mut input: impl Read) -> io::Result<Option<Vec<u8>>> {
    let mut chunk = [0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    loop {
        let got = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        crate::util::text::add_work(got as u64);
        let mut bytes = &chunk[..got];
        if line.is_empty() {
            match bytes.iter().position(|b| !b" \t\r\n".contains(b)) {
                Some(start) => bytes = &bytes[start..],
                None => continue,
            }
        }
        let end = memchr::memchr(b'\n', bytes);
        let take = end.unwrap_or(bytes.len());
        let room = FIRST_LINE_BYTES - line.len();
        line.extend_from_slice(&bytes[..take.min(room)]);
        if end.is_some() || line.len() == FIRST_LINE_BYTES {
            break;
        }
    }
    if line.is_empty() {
        return Ok(None);
    }
    if line.ends_with(b"\r") {
        line.pop();
    }
    Ok(Some(line))
}

/// The game of the input `input`, recognised from its first non-blank line, or why not.
pub fn recognise_input(input: impl Read) -> Result<GameName, RecogniseError> {
    match first_line(input)? {
        Some(line) => recognise(&line),
        None => Err(RecogniseError::Empty),
    }
}

/// The game of the file at `path`, recognised from its content.
pub fn recognise_file(path: &Path) -> Result<GameName, RecogniseError> {
    recognise_input(crate::util::guard::open_regular(path)?)
}

/// The rule set a file's name asks for, as its last suffix before `.in` (or `.ans`, `.out`):
/// `case.icfp98.in` asks for `icfp98`; `None` when the name names no rule set of the game.
pub fn rules_from_file_name<O: RuleSet>(path: &Path) -> Option<O> {
    let stem = path.file_stem()?.to_str()?;
    let (_, suffix) = stem.rsplit_once('.')?;
    O::from_name(suffix)
}

/// The suffix of an input file's name that selects rule set `rules` (`.icfp98` in
/// `case.icfp98.in`): empty for the default rule set, which needs none.
pub fn file_suffix<O: RuleSet>(rules: O) -> String {
    if rules == O::default() {
        String::new()
    } else {
        format!(".{}", rules.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pousse::Rules;

    fn recognised(input: &[u8]) -> Option<&'static str> {
        recognise_input(input).ok().map(|g| g.as_str())
    }

    /// Why `input` is not recognised, in words.
    fn refused(input: &[u8]) -> String {
        recognise_input(input)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn each_game_is_recognised() {
        assert_eq!(recognised(b"4\nL2\nQUIT\n"), Some("pousse"));
        assert_eq!(recognised(b"3\n\n4\nL2\n"), Some("pousse"));
        assert_eq!(recognised(b"\n..\n..\n"), Some("littlesquares"));
        assert_eq!(recognised(b"  {\"..\"}"), Some("littlesquares"));
        assert_eq!(recognised(b"1 3 3 4\r\n1 0 0\n"), Some("somegame"));
    }

    #[test]
    fn junk_fits_no_game() {
        assert!(recognised(b"").is_none());
        assert!(refused(b"\n \r\n\t").contains("empty input"));
        assert!(refused(b"\x00\x01\xff").contains("not recognised"));
        assert!(recognised(b"5 5\n").is_none());
        assert!(recognised(b"hello\n").is_none());
    }

    #[test]
    fn rule_sets_come_from_the_last_suffix_and_go_back_into_it() {
        let name = |s: &str| rules_from_file_name::<Rules>(Path::new(s));
        assert_eq!(name("dir/case.icfp98.in"), Some(Rules::Icfp98));
        assert_eq!(name("case.icfp98-board.in"), Some(Rules::Icfp98Board));
        assert_eq!(name("case.waterloo.in"), Some(Rules::Waterloo));
        assert_eq!(name("case.in"), None);
        assert_eq!(name("case.other.in"), None);
        assert_eq!(
            rules_from_file_name::<()>(Path::new("case.icfp98.in")),
            None
        );
        assert_eq!(file_suffix(Rules::Icfp98), ".icfp98");
        assert_eq!(file_suffix(Rules::Waterloo), "");
        assert_eq!(file_suffix(()), "");
    }
}
