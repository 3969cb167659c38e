//! Splitting a whole input into lines, the plain way.

/// The input's lines, without their `\n` and a `\r` right before it (a last line without `\n`
/// is a line; nothing after a final `\n` is).
pub fn lines(input: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    let none = input.is_empty();
    body.split(|&b| b == b'\n')
        .filter(move |_| !none)
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
}

/// The position (line, column; 1-based) just past the input's end.
pub fn end_of(input: &[u8]) -> (u64, u64) {
    let count = lines(input).count() as u64;
    if input.is_empty() || input.last() == Some(&b'\n') {
        (count + 1, 1)
    } else {
        let last = input.len() - input.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        (count, last as u64 + 1)
    }
}

/// The input's lines (see [`lines`]) in a vector, and the position just past its end.
pub fn all_lines(input: &[u8]) -> (Vec<&[u8]>, (u64, u64)) {
    (lines(input).collect(), end_of(input))
}

/// A piece of input quoted for a message.
pub fn quote(bytes: &[u8]) -> String {
    format!(
        "'{}'",
        String::from_utf8_lossy(&bytes[..bytes.len().min(24)])
    )
}
