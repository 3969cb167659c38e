//! Splitting a whole input into lines, the plain way.

/// The input's lines (without `\n`, and without one `\r` right before it), and the position
/// (line, column) of the end of input.
pub fn lines(input: &[u8]) -> (Vec<&[u8]>, (u64, u64)) {
    let mut raw: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    let ends_with_newline = input.is_empty() || input.last() == Some(&b'\n');
    if ends_with_newline {
        raw.pop();
    }
    let end = if ends_with_newline {
        (raw.len() as u64 + 1, 1)
    } else {
        (
            raw.len() as u64,
            raw.last().map_or(0, |l| l.len()) as u64 + 1,
        )
    };
    let lines = raw
        .into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();
    (lines, end)
}

/// A piece of input quoted for a message.
pub fn quote(bytes: &[u8]) -> String {
    format!(
        "'{}'",
        String::from_utf8_lossy(&bytes[..bytes.len().min(24)])
    )
}
