//! The self-contained HTML report of a `verify`, `stress`, `audit` or `show` run: a summary of
//! counts, every problem with its board view (the game's drawing, or for input that does not
//! parse an excerpt at the line and column), and the rows, filterable by status and game.
//!
//! One file, CSS, JavaScript and SVG inline, no network access; every table and text drawing is
//! readable without JavaScript. The page is rendered by askama from `templates/report.html`;
//! the games' replay scripts ([`Pictured::REPORT_SCRIPT`](crate::game::Pictured::REPORT_SCRIPT)) are embedded once each.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use askama::Template;

use super::ci::{status_counts, ShownFinding, Suite, SuiteCounts};
use super::write::replace_file;
use crate::game::view::BoardView;
use crate::games::ALL;

/// The most problems drawn with a board view; the others are listed with their message only.
pub const MAX_VIEWS: usize = 200;

/// The largest input read to draw a view (larger ones are listed without one).
pub const LARGEST_DRAWN: u64 = 64 << 20;

/// The widest excerpt line shown, in bytes, around the column.
const EXCERPT_WIDTH: usize = 120;

/// One problem: a mismatch, an invalid input or a finding.
#[derive(Debug, Clone, Default)]
pub struct Problem {
    /// The HTML id its row links to.
    pub anchor: String,
    /// Its name (file and case, or finding number and signature).
    pub name: String,
    /// Its game (empty when not recognised).
    pub game: String,
    /// Its status word.
    pub status: String,
    /// One line saying what went wrong.
    pub message: String,
    /// Side-by-side accounts, each a heading and a text (engine and reference, program and
    /// reference).
    pub sides: Vec<(String, String)>,
    /// Facts listed under the message, each a label and a text (how to reproduce a finding,
    /// the input form, the limits, the program's standard error).
    pub facts: Vec<(String, String)>,
    /// The lines around an input error, the column marked.
    pub excerpt: Option<String>,
    /// The board view, when drawn.
    pub view: Option<BoardView>,
}

/// What to draw for a problem: the game, its rule set, the input file and the case.
#[derive(Debug, Clone)]
pub struct ViewSource {
    /// The game's command-line name.
    pub game: String,
    /// The rule set's name (empty for the default or a game without rule sets).
    pub rules: String,
    /// The input file.
    pub path: PathBuf,
    /// The 1-based case.
    pub case: u64,
    /// The engine's verdict on the case, as the report gives it (empty when not known): a
    /// case cut out of a multi-case file is drawn alone only when it gets this verdict alone.
    pub verdict: String,
}

/// The input file last drawn from, read once for all its problems (problems come in file
/// order), with the byte ranges of its cases when its game can cut them out.
#[derive(Debug, Clone)]
struct DrawnInput {
    path: PathBuf,
    bytes: Result<Option<Vec<u8>>, std::sync::Arc<std::io::Error>>,
    cases: Option<Vec<std::ops::Range<usize>>>,
}

/// One row of the rows table.
#[derive(Debug, Clone, Default)]
pub struct PageRow {
    /// Its status word (for the filter).
    pub status: String,
    /// Its game (for the filter).
    pub game: String,
    /// Its cells, in column order.
    pub cells: Vec<String>,
    /// The anchor of its problem, when it has one.
    pub problem: Option<String>,
}

/// A table of a page besides its rows (scores, a matrix): a title, a note, column names and
/// cells.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// Its HTML id.
    pub id: String,
    /// Its heading.
    pub title: String,
    /// A sentence under the heading.
    pub note: String,
    /// Its column names.
    pub columns: Vec<String>,
    /// Its rows of cells.
    pub rows: Vec<Vec<Cell>>,
    /// A picture shown above it (SVG, written as it is: its maker escapes its text).
    pub figure: Option<String>,
}

/// A cell of a [`Table`].
#[derive(Debug, Clone, Default)]
pub struct Cell {
    /// Its text.
    pub text: String,
    /// Its CSS class (`rejects`, `passes`, `unknown`, `warning`, or empty).
    pub class: String,
    /// The anchor it links to, if any.
    pub link: Option<String>,
}

impl Cell {
    /// A cell of plain text.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            ..Cell::default()
        }
    }
}

/// A report page's content.
#[derive(Debug, Clone, Default)]
pub struct Page {
    /// The tool and version, for the generator tag.
    pub tool: String,
    /// The page title.
    pub title: String,
    /// Lines under the title (the command's settings, the totals).
    pub about: Vec<String>,
    /// Every problem, in report order.
    pub problems: Vec<Problem>,
    /// How many problems have no board view because [`MAX_VIEWS`] were drawn.
    pub views_left_out: usize,
    /// What the page calls its problems: `problem` (`finding` on an audit's page, whose
    /// findings are not all problems of the package's verdict).
    pub problem_word: &'static str,
    /// The games of the rows, for the filter.
    pub games: Vec<String>,
    /// The rows table's column names.
    pub columns: Vec<String>,
    /// The rows.
    pub rows: Vec<PageRow>,
    /// Tables shown after the summary.
    pub tables: Vec<Table>,
    /// The input last drawn from.
    drawn: Option<DrawnInput>,
}

#[derive(Template)]
#[template(path = "report.html", escape = "html")]
struct ReportHtml<'a> {
    page: &'a Page,
    statuses: Vec<String>,
    counts: Vec<SuiteCounts>,
    css: &'static str,
    script: String,
}

impl Page {
    /// An empty page titled `title`.
    pub fn new(title: &str) -> Page {
        Page {
            tool: format!("referee {}", env!("CARGO_PKG_VERSION")),
            title: title.to_string(),
            problem_word: "problem",
            ..Page::default()
        }
    }

    /// Adds a problem, drawing `source` while fewer than [`MAX_VIEWS`] views are drawn; a view
    /// that cannot be drawn says why in its text. Returns the problem's anchor.
    pub fn add_problem(&mut self, mut problem: Problem, source: Option<&ViewSource>) -> String {
        let anchor = format!("problem-{}", self.problems.len() + 1);
        problem.anchor = anchor.clone();
        if let Some(source) = source {
            if self.problems.len() - self.views_left_out < MAX_VIEWS {
                problem.view = Some(self.view_of(source));
            } else {
                self.views_left_out += 1;
            }
        }
        self.problems.push(problem);
        anchor
    }

    /// Adds a row; its game joins the filter's list.
    pub fn add_row(&mut self, row: PageRow) {
        if !row.game.is_empty() && !self.games.contains(&row.game) {
            self.games.push(row.game.clone());
        }
        self.rows.push(row);
    }

    /// The page as HTML, with the summary table of `suites`.
    pub fn render(&self, suites: &[Suite]) -> String {
        let (statuses, counts) = status_counts(suites);
        let mut script = String::new();
        for game in ALL {
            script.push_str(game.report_script());
            script.push('\n');
        }
        script.push_str(include_str!("../../templates/report.js"));
        ReportHtml {
            page: self,
            statuses,
            counts,
            css: include_str!("../../templates/report.css"),
            script: script.replace("</script", "<\\/script"),
        }
        .render()
        .expect("the template renders any page")
    }

    /// Writes the page to `path`, replacing it atomically.
    pub fn write(&self, path: &Path, suites: &[Suite]) -> io::Result<()> {
        replace_file(path, self.render(suites).as_bytes())
    }
}

impl Page {
    /// The board view of `source`, or a view whose text says why there is none. The file is
    /// read once for all its problems; a case of a multi-case file is cut out and drawn alone
    /// (when its game can cut it and it gets the report's verdict alone), so drawing a problem
    /// costs its own case, not the whole file.
    fn view_of(&mut self, source: &ViewSource) -> BoardView {
        let failed = |why: String| BoardView {
            text: why,
            ..BoardView::default()
        };
        let Some(game) = ALL.into_iter().find(|g| g.as_str() == source.game) else {
            return failed(format!("no view: unknown game {:?}", source.game));
        };
        if self.drawn.as_ref().is_none_or(|d| d.path != source.path) {
            let bytes = read_bounded(&source.path, LARGEST_DRAWN).map_err(std::sync::Arc::new);
            let cases = match &bytes {
                Ok(Some(input)) => game.case_ranges(input),
                _ => None,
            };
            self.drawn = Some(DrawnInput {
                path: source.path.clone(),
                bytes,
                cases,
            });
        }
        let drawn = self.drawn.as_ref().expect("set above");
        let input = match &drawn.bytes {
            Ok(Some(input)) => input,
            Ok(None) => {
                return failed(format!(
                    "no view: the input is larger than {} MiB",
                    LARGEST_DRAWN >> 20
                ))
            }
            Err(e) => return failed(format!("no view: {}: {e}", source.path.display())),
        };
        let alone = drawn
            .cases
            .as_ref()
            .filter(|_| !source.verdict.is_empty())
            .and_then(|cases| cases.get(source.case.checked_sub(1)? as usize))
            .map(|range| &input[range.clone()])
            .filter(|case| {
                game.verdicts(&source.rules, case).as_deref()
                    == Some(std::slice::from_ref(&source.verdict))
            })
            .and_then(|case| game.board_view(&source.rules, case, 1).ok());
        if let Some(view) = alone {
            return view;
        }
        match game.board_view(&source.rules, input, source.case) {
            Ok(view) => view,
            Err(e) => failed(format!("no view: {e}")),
        }
    }
}

/// The whole of the regular file `path` when it holds at most `limit` bytes, else `None`.
fn read_bounded(path: &Path, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let file = File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    crate::util::text::read_at_most(file, limit)
}

/// The lines of `path` from two before `line` to two after (1-based line and byte column),
/// each cut to [`EXCERPT_WIDTH`] bytes around the column, with a caret under the column.
/// Reads no further than the last line shown, and keeps no more than those lines.
pub fn excerpt(path: &Path, line: u64, column: u64) -> Option<String> {
    let file = File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut reader = BufReader::new(file);
    let first = line.saturating_sub(2).max(1);
    let mut out = String::new();
    let mut number = 1u64;
    let mut kept = Vec::new();
    let start = (column as usize).saturating_sub(EXCERPT_WIDTH / 2 + 1);
    while number <= line + 2 {
        kept.clear();
        let mut ended = false;
        // Reads one line, keeping only the bytes of the excerpt's width.
        let mut at = 0usize;
        loop {
            let buffer = reader.fill_buf().ok()?;
            if buffer.is_empty() {
                ended = true;
                break;
            }
            let (chunk, newline) = match buffer.iter().position(|&b| b == b'\n') {
                Some(i) => (&buffer[..i], true),
                None => (buffer, false),
            };
            if number >= first {
                for (k, &b) in chunk.iter().enumerate() {
                    if (start..start + EXCERPT_WIDTH).contains(&(at + k)) {
                        kept.push(b);
                    }
                }
            }
            at += chunk.len();
            let used = chunk.len() + usize::from(newline);
            reader.consume(used);
            if newline {
                break;
            }
        }
        if ended && at == 0 && kept.is_empty() {
            if number == line {
                out.push_str(&format!("{number:>6} | (end of input)\n"));
            }
            break;
        }
        if number >= first {
            let text = String::from_utf8_lossy(&kept).replace('\r', "\u{240d}");
            let lead = if start > 0 { "..." } else { "" };
            out.push_str(&format!("{number:>6} | {lead}{text}\n"));
            if number == line {
                let caret = (column as usize).saturating_sub(start + 1) + lead.len();
                out.push_str(&format!(
                    "{:>6} | {}^ column {column}\n",
                    "",
                    " ".repeat(caret)
                ));
            }
        }
        if ended {
            break;
        }
        number += 1;
    }
    Some(out)
}

/// A page of the findings of a `stress` or `audit` run, each drawn from its input file, its
/// row (its report row, under `header`) in the rows table.
pub fn findings_page(
    title: &str,
    about: Vec<String>,
    header: &[&str],
    findings: &[ShownFinding],
) -> Page {
    let mut page = Page::new(title);
    page.about = about;
    page.columns = header.iter().map(|h| h.to_string()).collect();
    for finding in findings {
        let anchor = page.add_finding("", finding);
        page.add_row(PageRow {
            status: finding.status.clone(),
            game: finding.game.clone(),
            cells: finding.columns.iter().map(|(_, v)| v.clone()).collect(),
            problem: Some(anchor),
        });
    }
    page
}

impl Page {
    /// Adds `finding` as a problem named with `prefix`, drawn from its input; its anchor.
    pub fn add_finding(&mut self, prefix: &str, finding: &ShownFinding) -> String {
        let problem = Problem {
            name: format!("{prefix}{}", finding.name()),
            game: finding.game.clone(),
            status: finding.status.clone(),
            message: finding.message(),
            sides: finding.sides.clone(),
            facts: finding
                .facts
                .iter()
                .filter(|(_, text)| !text.is_empty())
                .cloned()
                .collect(),
            ..Problem::default()
        };
        let source = ViewSource {
            game: finding.game.clone(),
            rules: finding.rules.clone(),
            path: finding.input.clone(),
            case: 1,
            verdict: String::new(),
        };
        self.add_problem(problem, Some(&source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file named `name` holding `bytes`, in a directory removed when the first is dropped.
    fn temp_file(name: &str, bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::Builder::new()
            .prefix("referee-html-")
            .tempdir()
            .unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        (dir, path)
    }

    #[test]
    fn an_excerpt_marks_the_column_and_keeps_its_neighbours() {
        let (_dir, path) = temp_file("excerpt.txt", b"4\nL1\nR9\nT2\nB3\nL4\n");
        let text = excerpt(&path, 3, 2).unwrap();
        assert_eq!(
            text,
            "     1 | 4\n     2 | L1\n     3 | R9\n       |  ^ column 2\n     4 | T2\n     5 | B3\n"
        );
    }

    #[test]
    fn an_excerpt_of_a_long_line_is_a_window_around_the_column() {
        let mut line = vec![b'a'; 100_000];
        line[50_000] = b'!';
        let (_dir, path) = temp_file("long.txt", &line);
        let text = excerpt(&path, 1, 50_001).unwrap();
        let first = text.lines().next().unwrap();
        assert!(first.len() < EXCERPT_WIDTH + 20, "{first}");
        let caret = text.lines().nth(1).unwrap();
        assert_eq!(first.find('!'), caret.find('^'), "{text}");
    }

    #[test]
    fn an_error_past_the_last_line_says_end_of_input() {
        let (_dir, path) = temp_file("short.txt", b"4\nL1\n");
        assert!(excerpt(&path, 3, 1).unwrap().contains("(end of input)"));
    }

    #[test]
    fn a_case_of_a_multi_case_file_is_drawn_as_in_the_whole_file() {
        use crate::games::GameName;
        let inputs: [(GameName, &[u8]); 4] = [
            (
                GameName::Pousse,
                b"3\n\n2\nL1\nQUIT\n\n3\nT1\nT1\nT2\nQUIT\n\n1\nQUIT\n",
            ),
            (
                GameName::Littlesquares,
                b"..\n..\n\n.#\n#.\n\n\n....\n#..#\r\n",
            ),
            (
                GameName::Littlesquares,
                b"{ \"..\",\n  \"..\" }\n{\".#\", \"#.\"}{\"....\",\n\"#..#\"}\n",
            ),
            (
                GameName::Somegame,
                b"2 2 2 2\n1 2\n0 0\n\n1 1 3 2\n1 1 0\n3 1 1 1\n0\n",
            ),
        ];
        for (game, input) in inputs {
            let (_dir, path) = temp_file(&format!("multi-{}.in", game.as_str()), input);
            let verdicts = game.verdicts("", input).unwrap();
            assert_eq!(
                game.case_ranges(input).map(|r| r.len()),
                Some(verdicts.len()),
                "{game:?}"
            );
            let mut page = Page::new("t");
            for case in 1..=verdicts.len() as u64 {
                let whole = game.board_view("", input, case).unwrap();
                let mut source = ViewSource {
                    game: game.as_str().into(),
                    rules: String::new(),
                    path: path.clone(),
                    case,
                    verdict: verdicts[case as usize - 1].clone(),
                };
                let view = page.view_of(&source);
                assert_eq!(view.text, whole.text, "{game:?} case {case}");
                assert_eq!(view.svg, whole.svg, "{game:?} case {case}");
                assert_eq!(view.replay, whole.replay, "{game:?} case {case}");
                // A verdict the case alone does not get: drawn from the whole file.
                source.verdict = "NOT A VERDICT".into();
                assert_eq!(page.view_of(&source).text, whole.text);
            }
        }
    }

    #[test]
    fn views_stop_at_the_limit_and_say_so() {
        let (_dir, path) = temp_file("game.txt", b"3\nL1\nQUIT\n");
        let source = ViewSource {
            game: "pousse".into(),
            rules: String::new(),
            path,
            case: 1,
            verdict: String::new(),
        };
        let mut page = Page::new("t");
        for _ in 0..MAX_VIEWS + 3 {
            page.add_problem(Problem::default(), Some(&source));
        }
        assert_eq!(page.views_left_out, 3);
        assert!(page.problems[0].view.as_ref().unwrap().replay.is_some());
        assert!(page.problems[MAX_VIEWS].view.is_none());
    }

    #[test]
    fn the_page_is_escaped_and_self_contained() {
        let mut page = Page::new("<b>title</b>");
        page.columns = vec!["file".into()];
        page.add_row(PageRow {
            status: "ok".into(),
            game: "pousse".into(),
            cells: vec!["<script>alert(1)</script>".into()],
            problem: None,
        });
        let html = page.render(&[]);
        assert!(
            html.contains("<h1>&#60;b&#62;title&#60;/b&#62;</h1>"),
            "{html}"
        );
        assert!(!html.contains("<script>alert"));
        for external in ["src=\"http", "href=\"http", "<link", "@import", "url("] {
            assert!(!html.contains(external), "{external}");
        }
    }
}
