//! Defects for the harness to put in inputs: the building blocks of each game's
//! [`Case::corrupt`](crate::game::Case::corrupt).

use crate::util::random::{pick, Entropy};

/// `input` with one byte replaced by one of `alphabet`.
pub fn change_byte(input: &[u8], alphabet: &[u8], e: &mut dyn Entropy) -> Vec<u8> {
    let mut out = input.to_vec();
    if !out.is_empty() {
        let at = e.below(out.len() as u64) as usize;
        out[at] = *pick(e, alphabet);
    }
    out
}

/// The lines of `input` (without their `\n`), and whether it ended with one.
pub fn lines(input: &[u8]) -> (Vec<Vec<u8>>, bool) {
    let ends = input.last() == Some(&b'\n');
    let body = if ends {
        &input[..input.len() - 1]
    } else {
        input
    };
    (
        body.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect(),
        ends,
    )
}

/// Lines back into an input.
pub fn join(lines: &[Vec<u8>], newline_at_end: bool) -> Vec<u8> {
    let mut out = lines.join(&b'\n');
    if newline_at_end {
        out.push(b'\n');
    }
    out
}

/// `input` with line `edit`'s result in place of a random line (chosen among those `which`
/// accepts, by index and content; unchanged if there is none). `edit` returning `None` drops
/// the line.
pub fn edit_line(
    input: &[u8],
    e: &mut dyn Entropy,
    which: impl Fn(usize, &[u8]) -> bool,
    edit: impl FnOnce(&[u8], &mut dyn Entropy) -> Option<Vec<u8>>,
) -> Vec<u8> {
    let (mut lines, ends) = lines(input);
    let candidates: Vec<usize> = (0..lines.len()).filter(|&i| which(i, &lines[i])).collect();
    if candidates.is_empty() {
        return input.to_vec();
    }
    let i = *pick(e, &candidates);
    match edit(&lines[i], e) {
        Some(line) => lines[i] = line,
        None => {
            lines.remove(i);
        }
    }
    join(&lines, ends)
}

/// `input` with `line` inserted before a random line.
pub fn insert_line(input: &[u8], line: &[u8], e: &mut dyn Entropy) -> Vec<u8> {
    let (mut lines, ends) = lines(input);
    let at = e.below(lines.len() as u64 + 1) as usize;
    lines.insert(at, line.to_vec());
    join(&lines, ends)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::random::Rng;

    #[test]
    fn lines_round_trip() {
        for input in [&b"a\nb\n"[..], b"a\nb", b"", b"\n\n"] {
            let (l, ends) = lines(input);
            assert_eq!(join(&l, ends), input);
        }
        let mut rng = Rng::new(1);
        let out = edit_line(b"1\n2\n3\n", &mut rng, |i, _| i == 1, |_, _| None);
        assert_eq!(out, b"1\n3\n");
        let out = edit_line(
            b"1\n2\n3\n",
            &mut rng,
            |_, l| l == b"3",
            |_, _| Some(b"x".to_vec()),
        );
        assert_eq!(out, b"1\n2\nx\n");
    }
}
