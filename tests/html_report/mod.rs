//! The HTML report in a real browser: headless Chromium driven through chromedriver
//! (WebDriver, with fantoccini). A Pousse replay is stepped forward and back, by its buttons,
//! its slider and the arrow keys, and the board it shows after every move is compared with the
//! engine's board after that move, on a game with pushes off the board, straights of both
//! colours and an ICFP repetition. A report of 10,000 rows with 100 mismatches is measured for
//! size and load time.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (Debian `chromium`,
//! `chromium-driver`); without them each test prints that it was skipped, and fails instead
//! when `REFEREE_REQUIRE_TOOLS` is set (as `.ci/run` does).

mod audits;

use crate::common;
use crate::common::scratch;

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::command::referee_process;
use common::programs::build;
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use referee::pousse::{Board, Colour, Edge, Move, Reason, Rules};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A chromedriver process in a process group of its own, with the browsers it starts: the
/// whole group killed when dropped (a test that fails before closing its WebDriver client
/// leaves no browser running).
struct Driver {
    child: Child,
    port: u16,
    /// The browser's temporary directory (its `TMPDIR`): what a killed browser leaves in it
    /// goes with it.
    _temp: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser at a time: the load-time measurement is not shared with another test's browser.
static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Whether the browser tests can run here; says so when they cannot.
fn tools_present(test: &str) -> bool {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return true;
    }
    assert!(
        !common::tool::required(),
        "{test}: {CHROMIUM} or {CHROMEDRIVER} is missing (apt-get install chromium chromium-driver)"
    );
    eprintln!(
        "SKIPPED {test}: {CHROMIUM} or {CHROMEDRIVER} is missing \
         (apt-get install chromium chromium-driver)"
    );
    false
}

/// The text of the first element `css` finds in the page open in `client`.
async fn text_of(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// Asserts that the page open in `client` is no wider than its window.
async fn assert_no_sideways_scroll(client: &Client) {
    let widths = client
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth]",
            vec![],
        )
        .await
        .unwrap();
    let (page, window) = (widths[0].as_u64().unwrap(), widths[1].as_u64().unwrap());
    assert!(
        page <= window,
        "the page is {page} px wide in a {window} px window"
    );
}

/// Starts chromedriver on a free port and connects a headless Chromium to it.
async fn browser() -> (Client, Driver) {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let temp = tempfile::Builder::new()
        .prefix("referee-browser-")
        .tempdir()
        .unwrap();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .process_group(0)
        .env("TMPDIR", temp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver {
        child,
        port,
        _temp: temp,
    };
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_string(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-extensions", "--no-first-run",
                "--window-size=1200,1600"
            ],
        }),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await
        {
            Ok(client) => return (client, driver),
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("no WebDriver connection: {e}"),
        }
    }
}

fn url(path: &Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

/// A small deterministic generator for the game search.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn move_text(mv: Move) -> String {
    mv.to_string()
}

/// The boards (rows separated by `/`, `.` empty) after each move, the empty board first.
fn boards_after(n: usize, moves: &[Move]) -> Vec<String> {
    let mut board = Board::new(n, false).unwrap();
    let mut out = vec![board.to_text()];
    for (i, &mv) in moves.iter().enumerate() {
        board.play_unchecked(mv, Colour::of_move(i as u64 + 1));
        out.push(board.to_text());
    }
    out
}

/// Whether `text`'s board has a straight of `colour` (a row or column all of it).
fn has_straight(text: &str, colour: char) -> bool {
    let rows: Vec<Vec<char>> = text.split('/').map(|r| r.chars().collect()).collect();
    let n = rows.len();
    (0..n).any(|i| rows[i].iter().all(|&c| c == colour))
        || (0..n).any(|j| rows.iter().all(|r| r[j] == colour))
}

/// Whether `mv` pushes into a full line of `before` (a marker falls off).
fn falls_off(before: &str, mv: Move) -> bool {
    let rows: Vec<Vec<char>> = before.split('/').map(|r| r.chars().collect()).collect();
    let i = mv.index as usize - 1;
    match mv.edge {
        Edge::Left | Edge::Right => rows[i].iter().all(|&c| c != '.'),
        Edge::Top | Edge::Bottom => rows.iter().all(|r| r[i] != '.'),
    }
}

/// A 4 x 4 game that ends by repetition under the ICFP rules, after pushes off the board and a
/// board with straights of both colours, found by a seeded search.
fn showcase_game() -> (usize, Vec<Move>, u64) {
    let n = 4;
    let mut rng = Lcg(2026);
    for _ in 0..200_000 {
        let moves: Vec<Move> = (0..40)
            .map(|_| {
                Move::new(
                    Edge::ALL[rng.below(4) as usize],
                    rng.below(n as u64) as u32 + 1,
                )
            })
            .collect();
        let text: String = std::iter::once(format!("{n}\n"))
            .chain(moves.iter().map(|m| format!("{}\n", move_text(*m))))
            .chain(["QUIT\n".to_string()])
            .collect();
        let j = referee::pousse::judge::judge(text.as_bytes(), Rules::Icfp98).unwrap()[0];
        let (Reason::Repetition { earlier }, Some(end)) = (j.reason, j.decisive_move) else {
            continue;
        };
        let played = &moves[..end as usize];
        let boards = boards_after(n, played);
        let fall_off = played
            .iter()
            .enumerate()
            .any(|(i, &mv)| falls_off(&boards[i], mv));
        let both = boards[1..]
            .iter()
            .any(|b| has_straight(b, 'X') && has_straight(b, 'O'));
        if fall_off && both && end >= 8 {
            return (n, played.to_vec(), earlier);
        }
    }
    panic!("no showcase game found");
}

async fn attribute(client: &Client, css: &str, name: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .attr(name)
        .await
        .unwrap()
        .unwrap_or_default()
}

async fn shown(client: &Client) -> (u64, String) {
    let step = attribute(client, ".replay", "data-step").await;
    let board = attribute(client, ".replay", "data-board").await;
    (step.parse().expect("data-step is a number"), board)
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "runs Chromium and chromedriver (apt-get install chromium chromium-driver): cargo test -- --include-ignored (.ci/run does)"]
async fn a_pousse_replay_shows_the_engines_board_after_every_move() {
    if !tools_present("a_pousse_replay_shows_the_engines_board_after_every_move") {
        return;
    }
    let _browser = ONE_BROWSER.lock().await;
    let (n, moves, earlier) = showcase_game();
    let boards = boards_after(n, &moves);
    let end = moves.len() as u64;
    // The game as a verify case with a wrong answer file, so the report draws it.
    let (_scratch, dir) = scratch::scratch("replay");
    let cases = dir.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    let mut input = format!("{n}\n");
    for mv in &moves {
        input.push_str(&format!("{}\n", move_text(*mv)));
    }
    input.push_str("QUIT\n");
    std::fs::write(cases.join("game.icfp98.in"), &input).unwrap();
    std::fs::write(cases.join("game.icfp98.ans"), "TIE GAME\n").unwrap();
    let html = dir.join("report.html");
    let status = referee_process()
        .args(["verify", "--out"])
        .arg(dir.join("reports"))
        .arg("--html")
        .arg(&html)
        .arg(&cases)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1), "an expected-mismatch exits 1");

    let (client, _driver) = browser().await;
    client.goto(&url(&html)).await.unwrap();
    // The replay opens at the decisive move, with the earlier configuration beside it.
    let (step, board) = shown(&client).await;
    assert_eq!(step, end);
    assert_eq!(board, boards[end as usize]);
    let figures = client
        .find_all(Locator::Css(".replay figure"))
        .await
        .unwrap();
    assert_eq!(figures.len(), 2, "the board and the earlier identical one");
    let caption = figures[1].text().await.unwrap();
    assert!(
        caption.contains(&format!("after move {earlier}")),
        "{caption}"
    );
    assert_eq!(boards[earlier as usize], boards[end as usize]);

    // Back to the empty board with the first button, then forward move by move.
    let buttons = client
        .find_all(Locator::Css(".replay button"))
        .await
        .unwrap();
    assert_eq!(buttons.len(), 4);
    buttons[0].click().await.unwrap();
    assert_eq!(shown(&client).await, (0, boards[0].clone()));
    let mut straights_seen = 0;
    for k in 1..=end {
        buttons[2].click().await.unwrap();
        let (step, board) = shown(&client).await;
        assert_eq!(step, k);
        assert_eq!(board, boards[k as usize], "after move {k}");
        if has_straight(&board, 'X') || has_straight(&board, 'O') {
            let marked = client
                .find_all(Locator::Css(".replay figure:first-child .sq.straight"))
                .await
                .unwrap();
            assert!(!marked.is_empty(), "straights highlighted after move {k}");
            straights_seen += 1;
        }
    }
    assert!(straights_seen > 0);
    // Forward stops at the decisive move.
    buttons[2].click().await.unwrap();
    assert_eq!(shown(&client).await.0, end);
    // Back, by the arrow key on the focused replay.
    let replay = client.find(Locator::Css(".replay")).await.unwrap();
    replay.click().await.unwrap();
    for k in (0..end).rev() {
        replay.send_keys(&Key::Left.to_string()).await.unwrap();
        let (step, board) = shown(&client).await;
        assert_eq!(step, k);
        assert_eq!(board, boards[k as usize], "back to move {k}");
    }
    replay.send_keys(&Key::End.to_string()).await.unwrap();
    assert_eq!(shown(&client).await.0, end);
    replay.send_keys(&Key::Home.to_string()).await.unwrap();
    assert_eq!(shown(&client).await.0, 0);
    // The slider jumps to any move.
    let middle = end / 2;
    client
        .execute(
            "const s = document.querySelector('.replay input[type=range]'); \
             s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
            vec![serde_json::json!(middle)],
        )
        .await
        .unwrap();
    assert_eq!(
        shown(&client).await,
        (middle, boards[middle as usize].clone())
    );
    // The mismatch shows both sides and the answer file.
    let sides = text_of(&client, ".sides").await;
    assert!(
        sides.contains("engine") && sides.contains("reference"),
        "{sides}"
    );
    assert!(sides.contains("TIE GAME"), "{sides}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "runs Chromium and chromedriver (apt-get install chromium chromium-driver): cargo test -- --include-ignored (.ci/run does)"]
async fn tables_filter_and_read_without_javascript() {
    if !tools_present("tables_filter_and_read_without_javascript") {
        return;
    }
    let _browser = ONE_BROWSER.lock().await;
    let (_scratch, dir) = scratch::scratch("filter");
    let html = dir.join("report.html");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let status = referee_process()
        .args(["verify", "--out"])
        .arg(dir.join("reports"))
        .arg("--html")
        .arg(&html)
        .arg(&corpus)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let text = std::fs::read_to_string(&html).unwrap();
    // Without JavaScript every row is in the page.
    let rows = text.matches("<tr data-status=").count();
    assert!(rows > 50, "{rows}");
    let (client, _driver) = browser().await;
    client.goto(&url(&html)).await.unwrap();
    let visible = || async {
        client
            .execute(
                "return Array.from(document.querySelectorAll('table.rows tbody tr')).filter(r => !r.hidden).length",
                vec![],
            )
            .await
            .unwrap()
            .as_u64()
            .unwrap() as usize
    };
    assert_eq!(visible().await, rows);
    client
        .execute(
            "const g = document.getElementById('filter-game'); g.value = 'somegame'; \
             g.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();
    let somegame = text.matches("data-game=\"somegame\"><td>").count();
    assert!(somegame > 0);
    assert_eq!(visible().await, somegame);
    client.close().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
#[ignore = "runs Chromium and chromedriver (apt-get install chromium chromium-driver): cargo test -- --include-ignored (.ci/run does)"]
async fn a_report_of_ten_thousand_rows_is_small_and_opens_fast() {
    if !tools_present("a_report_of_ten_thousand_rows_is_small_and_opens_fast") {
        return;
    }
    let _browser = ONE_BROWSER.lock().await;
    let (_scratch, dir) = scratch::scratch("size");
    let cases = dir.join("cases");
    // 10,000 generated Pousse games, 100 of them with a wrong answer file.
    let status = referee_process()
        .args([
            "gen",
            "pousse",
            "--answers",
            "--count",
            "10000",
            "--seed",
            "5",
            "--out",
        ])
        .arg(&cases)
        .status()
        .unwrap();
    assert!(status.success());
    let mut answers: Vec<PathBuf> = std::fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ans"))
        .collect();
    answers.sort();
    assert_eq!(answers.len(), 10_000);
    for path in answers.iter().step_by(100) {
        let right = std::fs::read_to_string(path).unwrap();
        let wrong = if right.trim() == "TIE GAME" {
            "X WINS\n"
        } else {
            "TIE GAME\n"
        };
        std::fs::write(path, wrong).unwrap();
    }
    let html = dir.join("report.html");
    let status = referee_process()
        .args(["verify", "--no-reference", "--out"])
        .arg(dir.join("reports"))
        .arg("--html")
        .arg(&html)
        .arg(&cases)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let size = std::fs::metadata(&html).unwrap().len();
    let text = std::fs::read_to_string(&html).unwrap();
    assert_eq!(text.matches("<tr data-status=").count(), 10_000);
    assert_eq!(text.matches("class=\"problem\"").count(), 100);
    assert!(size < 5_000_000, "{size} bytes");
    let (client, _driver) = browser().await;
    let started = Instant::now();
    client.goto(&url(&html)).await.unwrap();
    // The navigation's load event has ended once loadEventEnd is set.
    let timing = "const t = performance.getEntriesByType('navigation')[0]; \
                  return t.loadEventEnd > 0 ? t.loadEventEnd - t.startTime : null;";
    let loaded = loop {
        if let Some(ms) = client.execute(timing, vec![]).await.unwrap().as_f64() {
            break ms;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "hang guard: the report never loaded"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let wall = started.elapsed();
    // Replays start as they come into view: the first at once, the last when scrolled to.
    let started = "return document.querySelectorAll('.replay[data-started]').length";
    let at_load = client
        .execute(started, vec![])
        .await
        .unwrap()
        .as_u64()
        .unwrap();
    assert!(at_load >= 1, "the first replay is drawn");
    client
        .execute(
            "const all = document.querySelectorAll('.replay'); all[all.length - 1].scrollIntoView();",
            vec![],
        )
        .await
        .unwrap();
    let last_started = "const all = document.querySelectorAll('.replay'); \
                        return all[all.length - 1].querySelectorAll('figure').length";
    let deadline = Instant::now() + Duration::from_secs(5);
    while client.execute(last_started, vec![]).await.unwrap().as_u64() == Some(0) {
        assert!(Instant::now() < deadline, "the last replay never started");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "report of 10,000 rows, 100 mismatches: {size} bytes, loaded in {loaded:.0} ms (navigation {:.0} ms)",
        wall.as_secs_f64() * 1e3
    );
    // Hang guard: ten times the 2 s it should take (the figure is measured, and recorded in
    // docs/performance.md, not asserted).
    assert!(loaded < 20_000.0, "hang guard: {loaded} ms");
    // The rows are one click away: opening them and filtering by game lays out 10,000 rows.
    let opened = client
        .execute(
            "const t0 = performance.now(); document.querySelector('.many-rows').open = true; \
             document.body.getBoundingClientRect(); \
             const g = document.getElementById('filter-status'); g.value = 'expected-mismatch'; \
             g.dispatchEvent(new Event('change')); document.body.getBoundingClientRect(); \
             return [performance.now() - t0, document.getElementById('shown').textContent];",
            vec![],
        )
        .await
        .unwrap();
    eprintln!("opening the rows and filtering them: {opened}");
    assert_eq!(opened[1], "100 of 10000 rows");
    client.close().await.unwrap();
}
