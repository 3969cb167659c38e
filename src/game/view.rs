//! Seeing a case: what `referee show` draws on a terminal and what the HTML report embeds.
//! Each game draws its own boards ([`Pictured::draw`](crate::game::Pictured::draw), [`Pictured::board_view`](crate::game::Pictured::board_view));
//! this module holds the shared request and result types and the terminal colours.

use serde::Serialize;

/// The most rows or columns drawn as text; larger boards are drawn as a window around the
/// squares that matter, with a note saying which part is shown.
pub const WINDOW: usize = 40;

/// What `referee show` is asked to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawRequest {
    /// The 1-based case of a multi-case input.
    pub case: u64,
    /// The step to show (a move number for Pousse), when the game has steps; default: the
    /// decisive one, or the last.
    pub step: Option<u64>,
    /// Whether to use ANSI colours.
    pub color: bool,
}

impl DrawRequest {
    /// Case `case` at its default step, without colour (as the HTML report draws it).
    pub fn plain(case: u64) -> DrawRequest {
        DrawRequest {
            case,
            step: None,
            color: false,
        }
    }
}

/// The HTML report's view of one case.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BoardView {
    /// A one-line title: the case's size and verdict.
    pub title: String,
    /// A static drawing (an SVG element), when the game draws one.
    pub svg: String,
    /// The text drawing, as `referee show` prints it without colour.
    pub text: String,
    /// Data for the game's replay script ([`Pictured::REPORT_SCRIPT`](crate::game::Pictured::REPORT_SCRIPT)), as JSON.
    pub replay: Option<String>,
}

/// ANSI styles, or nothing when colour is off.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    on: bool,
}

impl Paint {
    /// Colours when `on`.
    pub fn new(on: bool) -> Paint {
        Paint { on }
    }

    fn wrap(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// The first player's colour (red).
    pub fn first(&self, text: &str) -> String {
        self.wrap("1;31", text)
    }

    /// The second player's colour (blue).
    pub fn second(&self, text: &str) -> String {
        self.wrap("1;34", text)
    }

    /// Highlighted: a line that decides, a winning line (reverse video).
    pub fn highlight(&self, text: &str) -> String {
        self.wrap("7", text)
    }

    /// Dimmed: notes and labels.
    pub fn dim(&self, text: &str) -> String {
        self.wrap("2", text)
    }
}

/// The first and last index (inclusive) of a window of at most [`WINDOW`] of `len` positions
/// around `focus`.
pub fn window(len: usize, focus: usize) -> (usize, usize) {
    if len <= WINDOW {
        return (0, len.saturating_sub(1));
    }
    let start = focus.saturating_sub(WINDOW / 2).min(len - WINDOW);
    (start, start + WINDOW - 1)
}

/// Whether colour should be used: `always`, `never`, or on a terminal unless `NO_COLOR` is set
/// (any value but the empty string, as no-color.org says).
pub fn use_color(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_stay_inside_and_hold_the_focus() {
        assert_eq!(window(8, 7), (0, 7));
        assert_eq!(window(100, 0), (0, WINDOW - 1));
        assert_eq!(window(100, 99), (100 - WINDOW, 99));
        let (a, b) = window(100, 50);
        assert!(a <= 50 && 50 <= b && b - a + 1 == WINDOW);
    }

    #[test]
    fn colour_follows_the_choice_and_the_terminal() {
        assert!(use_color(ColorChoice::Always, false));
        assert!(!use_color(ColorChoice::Never, true));
        assert!(!use_color(ColorChoice::Auto, false));
        assert_eq!(Paint::new(false).first("X"), "X");
        assert_eq!(Paint::new(true).first("X"), "\x1b[1;31mX\x1b[0m");
    }
}
