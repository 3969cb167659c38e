//! Seeing a LittleSquares grid (`referee show littlesquares`, the HTML report): the grid, and
//! its decomposition into the independent games the engine adds up. Each band of two rows
//! splits into runs of fully empty columns (a run of L columns is worth g(L), the engine's
//! table) and lone empty squares (worth 1); a last odd row is lone squares; the grid's value is
//! the XOR of them all, and the player to move wins when it is not 0.

use std::fmt::Write as _;

use super::grundy::run_value;
use super::{Judgement, Winner};
use crate::game::view::{window, BoardView, DrawRequest, Paint, WINDOW};
use crate::game::{case_of, Judged};
use crate::util::error::JudgeError;

/// One part of the decomposition.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    /// Columns `first..=last` of the band starting at row `top` (0-based), all empty.
    Run {
        top: usize,
        first: usize,
        last: usize,
    },
    /// The empty square (`row`, `col`) whose partner in its band is filled, or a square of an
    /// odd last row.
    Lone { row: usize, col: usize },
}

impl Part {
    fn value(&self) -> u32 {
        match self {
            Part::Run { first, last, .. } => u32::from(run_value(last + 1 - first)),
            Part::Lone { .. } => 1,
        }
    }
}

/// The decomposition of `grid` (rows of `.` and `#`), band by band.
fn parts(grid: &[Vec<u8>]) -> Vec<Part> {
    let empty = |r: usize, c: usize| grid[r][c] == b'.';
    let width = grid.first().map_or(0, Vec::len);
    let mut out = Vec::new();
    for top in (0..grid.len() / 2).map(|b| 2 * b) {
        let mut start = None;
        for c in 0..=width {
            let both = c < width && empty(top, c) && empty(top + 1, c);
            match (both, start) {
                (true, None) => start = Some(c),
                (false, Some(first)) => {
                    out.push(Part::Run {
                        top,
                        first,
                        last: c - 1,
                    });
                    start = None;
                }
                _ => {}
            }
            if c < width && empty(top, c) != empty(top + 1, c) {
                let row = if empty(top, c) { top } else { top + 1 };
                out.push(Part::Lone { row, col: c });
            }
        }
    }
    if grid.len() % 2 == 1 {
        let row = grid.len() - 1;
        out.extend(
            (0..width)
                .filter(|&c| empty(row, c))
                .map(|col| Part::Lone { row, col }),
        );
    }
    out
}

/// The grid of case `case` and the engine's judgement of it.
fn grid_of(input: &[u8], case: u64) -> Result<(Vec<Vec<u8>>, Judgement), JudgeError> {
    let judgements = super::parse::judge(input)?;
    let j = *case_of::<super::LittleSquares>(&judgements, case)?;
    let grids = referee_reference::littlesquares::grids(input)?;
    let grid = grids
        .into_iter()
        .nth(case as usize - 1)
        .expect("both parsers found the case");
    Ok((grid, j))
}

fn verdict_line(j: &Judgement, value: u32) -> String {
    format!(
        "LittleSquares, {} x {} grid, {} empty: {} (Grundy value {value}: the player to move {})",
        j.rows,
        j.cols,
        j.empty,
        j.verdict(),
        if j.outcome == Winner::First {
            "wins"
        } else {
            "loses"
        }
    )
}

/// `referee show littlesquares`: the grid (runs and lone squares marked with colour) and its
/// decomposition.
pub fn draw(input: &[u8], request: &DrawRequest) -> Result<String, JudgeError> {
    let (grid, j) = grid_of(input, request.case)?;
    let parts = parts(&grid);
    let value = parts.iter().fold(0, |v, p| v ^ p.value());
    let mut out = verdict_line(&j, value);
    out.push('\n');
    draw_grid(&mut out, &grid, &parts, &Paint::new(request.color));
    let lines = band_lines(&parts, grid.len());
    // A wide grid has many bands' worth of parts: the lines are cut, the XOR is not.
    let shown = lines.len().min(WINDOW);
    for line in &lines[..shown] {
        out.push_str(line);
        out.push('\n');
    }
    if shown < lines.len() {
        let _ = writeln!(out, "({} more bands)", lines.len() - shown);
    }
    let _ = writeln!(
        out,
        "XOR of all: {value}, so {} wins",
        if value != 0 {
            "the player to move (first)"
        } else {
            "the other player (second)"
        }
    );
    Ok(out)
}

/// The window of the grid drawn into `out`: the column numbers (a line per digit), each row
/// with its number, the squares of runs in the first colour and lone squares in the second,
/// and which rows and columns are shown when the grid is larger than the window.
fn draw_grid(out: &mut String, grid: &[Vec<u8>], parts: &[Part], paint: &Paint) {
    let (rows, cols) = (grid.len(), grid.first().map_or(0, Vec::len));
    let (r0, r1) = window(rows, 0);
    let (c0, c1) = window(cols, 0);
    let label = rows.to_string().len();
    for place in (0..cols.to_string().len() as u32).rev() {
        let unit = 10usize.pow(place);
        let digits: String = (c0..=c1)
            .map(|c| {
                if c + 1 >= unit || place == 0 {
                    char::from_digit(((c + 1) / unit % 10) as u32, 10).expect("a digit")
                } else {
                    ' '
                }
            })
            .collect();
        let _ = writeln!(out, "{:label$} {digits}", "");
    }
    let in_run = |r: usize, c: usize| {
        parts.iter().any(|p| {
            matches!(p, Part::Run { top, first, last } if (r == *top || r == top + 1) && (*first..=*last).contains(&c))
        })
    };
    for (r, line) in grid.iter().enumerate().take(r1 + 1).skip(r0) {
        let cells: String = (c0..=c1)
            .map(|c| {
                if line[c] == b'#' {
                    "#".to_string()
                } else if in_run(r, c) {
                    paint.first(".")
                } else {
                    paint.second(".")
                }
            })
            .collect();
        let _ = writeln!(out, "{:>label$} {cells}", r + 1);
    }
    if rows > WINDOW || cols > WINDOW {
        let _ = writeln!(
            out,
            "{}",
            paint.dim(&format!(
                "(rows {} to {} and columns {} to {} of {rows} x {cols})",
                r0 + 1,
                r1 + 1,
                c0 + 1,
                c1 + 1
            ))
        );
    }
}

/// A line per band of two rows of a grid of `rows` rows: its runs and lone squares with their
/// values, and the band's value; then the unpaired last row, if any.
fn band_lines(parts: &[Part], rows: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for top in (0..rows / 2).map(|b| 2 * b) {
        let mut band = Vec::new();
        let mut band_value = 0;
        for p in parts {
            match *p {
                Part::Run {
                    top: t,
                    first,
                    last,
                } if t == top => {
                    band_value ^= p.value();
                    band.push(format!(
                        "run of {} (columns {}-{}) g={}",
                        last + 1 - first,
                        first + 1,
                        last + 1,
                        p.value()
                    ));
                }
                Part::Lone { row, col } if row / 2 * 2 == top && row < rows / 2 * 2 => {
                    band_value ^= 1;
                    band.push(format!("lone square ({}, {}) g=1", row + 1, col + 1));
                }
                _ => {}
            }
        }
        if band.is_empty() {
            band.push("no empty square".into());
        }
        lines.push(format!(
            "Rows {}-{}: {}; value {band_value}",
            top + 1,
            top + 2,
            band.join(", ")
        ));
    }
    if rows % 2 == 1 {
        let lone = parts
            .iter()
            .filter(|p| matches!(p, Part::Lone { row, .. } if *row == rows - 1))
            .count();
        lines.push(format!(
            "Row {rows} (unpaired): {lone} lone square{} g=1 each; value {}",
            if lone == 1 { "" } else { "s" },
            lone % 2
        ));
    }
    lines
}

/// The grid as SVG: filled squares dark, runs outlined in the first colour with their value,
/// lone squares in the second.
fn svg(grid: &[Vec<u8>]) -> String {
    let parts = parts(grid);
    let (rows, cols) = (grid.len(), grid.first().map_or(0, Vec::len));
    let (r1, c1) = (rows.min(WINDOW), cols.min(WINDOW));
    let cell = (360 / r1.max(c1).max(1)).clamp(8, 32);
    let mut s = format!(
        r#"<svg class="ls-grid" role="img" aria-label="grid" width="{}" height="{}">"#,
        c1 * cell + 2,
        r1 * cell + 2
    );
    for (r, row) in grid.iter().enumerate().take(r1) {
        for (c, &v) in row.iter().enumerate().take(c1) {
            let class = if v == b'#' { "filled" } else { "empty" };
            let _ = write!(
                s,
                r#"<rect class="{class}" x="{}" y="{}" width="{cell}" height="{cell}"/>"#,
                1 + c * cell,
                1 + r * cell
            );
        }
    }
    for p in &parts {
        match *p {
            Part::Run { top, first, last } if top < r1 && first < c1 => {
                let last = last.min(c1 - 1);
                let _ = write!(
                    s,
                    r#"<rect class="run" x="{}" y="{}" width="{}" height="{}"/><text class="value" x="{}" y="{}">{}</text>"#,
                    2 + first * cell,
                    2 + top * cell,
                    (last + 1 - first) * cell - 2,
                    (2 * cell).min((r1 - top) * cell) - 2,
                    1 + first * cell + (last + 1 - first) * cell / 2,
                    1 + top * cell + cell + 4,
                    p.value()
                );
            }
            Part::Lone { row, col } if row < r1 && col < c1 => {
                let _ = write!(
                    s,
                    r#"<circle class="lone" cx="{}" cy="{}" r="{}"/>"#,
                    1 + col * cell + cell / 2,
                    1 + row * cell + cell / 2,
                    cell / 4
                );
            }
            _ => {}
        }
    }
    s.push_str("</svg>");
    s
}

/// The HTML report's view of case `case`: the grid as SVG and the text decomposition.
pub fn board_view(input: &[u8], case: u64) -> Result<BoardView, JudgeError> {
    let (grid, j) = grid_of(input, case)?;
    let request = DrawRequest::plain(case);
    Ok(BoardView {
        title: format!("LittleSquares {} x {}: {}", j.rows, j.cols, j.verdict()),
        svg: svg(&grid),
        text: draw(input, &request)?,
        replay: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(input: &str) -> String {
        let request = DrawRequest::plain(1);
        draw(input.as_bytes(), &request).unwrap()
    }

    #[test]
    fn the_decomposition_names_runs_lone_squares_and_the_xor() {
        let text = show("..#...\n..#..#\n.#....\n");
        assert!(
            text.starts_with("LittleSquares, 3 x 6 grid, 14 empty: "),
            "{text}"
        );
        assert!(
            text.contains("Rows 1-2: run of 2 (columns 1-2) g=2, run of 2 (columns 4-5) g=2, lone square (1, 6) g=1; value 1"),
            "{text}"
        );
        assert!(
            text.contains("Row 3 (unpaired): 5 lone squares g=1 each; value 1"),
            "{text}"
        );
        assert!(
            text.contains("XOR of all: 0, so the other player (second) wins"),
            "{text}"
        );
        assert!(text.contains("second (Grundy value 0"), "{text}");
    }

    #[test]
    fn the_value_is_the_engines_verdict_on_wide_grids_too() {
        let wide = format!("{}\n{}\n", ".".repeat(300), ".".repeat(300));
        let text = show(&wide);
        assert!(text.contains("run of 300 (columns 1-300)"), "{text}");
        assert!(text.lines().count() < 12, "{text}");
        let value = u32::from(run_value(300));
        let verdict = if value != 0 { "first" } else { "second" };
        assert!(
            text.contains(&format!("{verdict} (Grundy value {value}")),
            "{text}"
        );
        let view = board_view(wide.as_bytes(), 1).unwrap();
        assert!(view.svg.starts_with("<svg") && view.svg.len() < 20_000);
    }
}
