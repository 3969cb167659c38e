//! Telling a file's game from its content, for `verify` without `--game`.
//!
//! The three input grammars start differently, so the first line that is not blank decides:
//! a single decimal number is a Pousse board size or case count; a line of `.` and `#`, or a
//! `{`, is a LittleSquares grid; four integers are a Some Game header. Anything else fits no
//! game and is reported as invalid input, naming why.

use crate::game::GameName;

/// Recognises the game of an input from its first bytes (a few kilobytes suffice).
pub fn recognise(head: &[u8]) -> Result<GameName, String> {
    let start = head
        .iter()
        .position(|b| !b" \t\r\n".contains(b))
        .ok_or_else(|| "empty input: no game to recognise".to_string())?;
    let line_end = head[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(head.len(), |e| start + e);
    let line = head[start..line_end]
        .strip_suffix(b"\r")
        .unwrap_or(&head[start..line_end]);
    if line.starts_with(b"{") || line.iter().all(|b| *b == b'.' || *b == b'#') {
        return Ok(GameName::Littlesquares);
    }
    let fields: Vec<&[u8]> = line
        .split(|b| *b == b' ' || *b == b'\t')
        .filter(|f| !f.is_empty())
        .collect();
    let numeric = fields.iter().all(|f| f.iter().all(u8::is_ascii_digit));
    match (numeric, fields.len()) {
        (true, 1) => Ok(GameName::Pousse),
        (true, 4) => Ok(GameName::Somegame),
        _ => Err(format!(
            "not recognised: the first line {} is neither a board size (pousse), a grid row \
             (littlesquares) nor a header 'P R C K' (somegame); pass --game",
            crate::error::describe_bytes(line)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_is_recognised() {
        assert_eq!(recognise(b"4\nL2\nQUIT\n"), Ok(GameName::Pousse));
        assert_eq!(recognise(b"3\n\n4\nL2\n"), Ok(GameName::Pousse));
        assert_eq!(recognise(b"\n..\n..\n"), Ok(GameName::Littlesquares));
        assert_eq!(recognise(b"  {\"..\"}"), Ok(GameName::Littlesquares));
        assert_eq!(recognise(b"1 3 3 4\r\n1 0 0\n"), Ok(GameName::Somegame));
    }

    #[test]
    fn junk_fits_no_game() {
        assert!(recognise(b"").is_err());
        assert!(recognise(b"\x00\x01\xff")
            .unwrap_err()
            .contains("not recognised"));
        assert!(recognise(b"5 5\n").is_err());
        assert!(recognise(b"hello\n").is_err());
    }
}
