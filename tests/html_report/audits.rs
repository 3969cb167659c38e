//! The audit's pages in a real browser: a contest's scores, which case rejects whom and each
//! finding; the limits' picture of every run against the limit and the margin.

use super::*;
#[tokio::test(flavor = "current_thread")]
#[ignore = "runs Chromium and chromedriver (apt-get install chromium chromium-driver): cargo test -- --include-ignored (.ci/run does)"]
async fn a_contest_audits_page_shows_scores_which_case_rejects_whom_and_each_finding() {
    if !tools_present("a_contest_audits_page_shows_scores_which_case_rejects_whom_and_each_finding")
    {
        return;
    }
    let _browser = ONE_BROWSER.lock().await;
    // The audit's programs where their user (nobody, as root) can reach them.
    let scratch = scratch::reachable();
    let dir = scratch.path().to_path_buf();
    let good = build(&dir, "pousse.c", &[], "good");
    let mover = build(&dir, "pousse.c", &["-DPLANT_MOVER_ONLY"], "mover");
    let html = dir.join("contest.html");
    let run = referee_process()
        .args(["audit", "pousse", "--cases", "300", "--seed", "1"])
        .args([
            "--cmd",
            &format!("good={good}"),
            "--cmd",
            &format!("mover={mover}"),
        ])
        .arg("--out")
        .arg(dir.join("audit"))
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let (client, _driver) = browser().await;
    client.set_window_size(1400, 1600).await.unwrap();
    client.goto(&url(&html)).await.unwrap();
    // The page reads as a report at 1400 px: no sideways scrolling, its header in sentences
    // (no `key: value` lines), no escape sequence shown as text.
    assert_no_sideways_scroll(&client).await;
    let body = text_of(&client, "body").await;
    let header = text_of(&client, "header").await;
    assert!(
        header.contains("2 programs audited as judges of pousse")
            && !header.contains("tpr-existing:"),
        "{header}"
    );
    assert!(
        !body.contains("\\n"),
        "an escaped newline shown as text:\n{body}"
    );
    let texts = |css: &'static str| {
        let client = client.clone();
        async move {
            let mut out = Vec::new();
            for e in client.find_all(Locator::Css(css)).await.unwrap() {
                out.push(e.text().await.unwrap());
            }
            out
        }
    };
    // The scores, before and after strengthening.
    let scores = texts("#scores tbody tr").await;
    assert!(
        scores[0].contains("TPR") && scores[0].contains("0/1") && scores[0].contains("1/1"),
        "{scores:?}"
    );
    assert!(
        scores[1].contains("TNR") && scores[1].contains("1/1"),
        "{scores:?}"
    );
    // Which case rejects whom: the wrong program fails the strengthening case, the good one
    // passes it; each program's expected and actual class.
    let header = texts("#matrix thead th").await;
    assert_eq!(
        header[..4],
        ["program", "expected", "does", "existing data"]
    );
    assert_eq!(header[4], "tests/001.in", "{header:?}");
    let cells = |row: usize| {
        let client = client.clone();
        async move {
            let mut out = Vec::new();
            let css = format!("#matrix tbody tr:nth-child({row}) td");
            for e in client.find_all(Locator::Css(&css)).await.unwrap() {
                out.push((
                    e.text().await.unwrap(),
                    e.attr("class").await.unwrap().unwrap_or_default(),
                ));
            }
            out
        }
    };
    let good_row = cells(1).await;
    assert_eq!(good_row[0].0, "good");
    assert_eq!(good_row[2].0, "accepted");
    assert_eq!(good_row[4], ("passes".to_string(), "passes".to_string()));
    let mover_row = cells(2).await;
    assert_eq!(mover_row[2].0, "wrong_answer");
    assert_eq!(mover_row[4], ("rejects".to_string(), "rejects".to_string()));
    // The wrong program's name links to its finding, drawn with a replay of its board.
    let link = client
        .find(Locator::Css("#matrix tbody tr:nth-child(2) td a"))
        .await
        .unwrap();
    let anchor = link.attr("href").await.unwrap().unwrap();
    let finding = client.find(Locator::Css(&anchor)).await.unwrap();
    assert!(finding
        .text()
        .await
        .unwrap()
        .starts_with("mover: finding 1"));
    let replay = client
        .find(Locator::Css(&format!("{anchor} .replay svg")))
        .await
        .unwrap();
    assert!(replay.is_displayed().await.unwrap());
    // Every program's line, with the package's verdict.
    let rows = texts("table.rows tbody tr").await;
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows[1].contains("proved wrong"), "{rows:?}");
    client.close().await.unwrap();
}

/// The audit page of a package of submissions of known cost (tests/limits.rs): the limits'
/// section draws every run, the limit and the margin lines, and each warning, at 1400 px without
/// sideways scrolling.
#[tokio::test(flavor = "current_thread")]
#[ignore = "runs Chromium and chromedriver (apt-get install chromium chromium-driver): cargo test -- --include-ignored (.ci/run does)"]
async fn the_limits_picture_shows_every_run_against_the_limit_and_the_margin() {
    if !tools_present("the_limits_picture_shows_every_run_against_the_limit_and_the_margin") {
        return;
    }
    let _browser = ONE_BROWSER.lock().await;
    let scratch = scratch::reachable();
    let package = crate::limits::package(scratch.path(), "2025-09", "  time_resolution: 0.1\n");
    let html = scratch.path().join("limits.html");
    let out = scratch.path().join("out");
    let (_, text, advice) =
        crate::limits::audit(&package, &out, &["--html", html.to_str().unwrap()]);
    let runs: Vec<(usize, bool)> = advice["measured"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["files"].as_array().unwrap().iter())
        .map(|f| (f["cpu"].as_array().unwrap().len(), f["failed"] == "timeout"))
        .collect();
    let capped = runs.iter().filter(|(_, t)| *t).count();
    let all: usize = runs.iter().map(|(n, _)| n).sum();
    let (client, _driver) = browser().await;
    client.set_window_size(1400, 1600).await.unwrap();
    client.goto(&url(&html)).await.unwrap();
    assert_no_sideways_scroll(&client).await;
    let count = |css: &'static str| {
        let client = client.clone();
        async move { client.find_all(Locator::Css(css)).await.unwrap().len() }
    };
    assert_eq!(count("#limits svg .run").await, all, "{text}");
    assert_eq!(count("#limits svg .run.capped").await, capped, "{text}");
    assert!(
        capped >= 2,
        "slow.c is stopped at the cap on both files\n{text}"
    );
    assert_eq!(count("#limits svg line.limit").await, 2);
    assert_eq!(count("#limits svg .program").await, 6);
    assert_eq!(count("#limits td.warning").await, 3, "{text}");
    let figure = client
        .find(Locator::Css("#limits figure svg"))
        .await
        .unwrap();
    assert!(figure.is_displayed().await.unwrap());
    let labels = client
        .find_all(Locator::Css("#limits svg text"))
        .await
        .unwrap();
    let mut shown = Vec::new();
    for label in labels {
        shown.push(label.text().await.unwrap());
    }
    assert!(shown.contains(&"limit 0.3 s".to_string()), "{shown:?}");
    assert!(shown.contains(&"1.5 x = 0.45 s".to_string()), "{shown:?}");
    assert!(
        shown.contains(&"time_limit_exceeded/margin.c".to_string()),
        "{shown:?}"
    );
    // A run's dot says what it is.
    let title = client
        .find(Locator::Css(
            "#limits svg .program[data-program='accepted/steady.c'] .run title",
        ))
        .await
        .unwrap()
        .html(true)
        .await
        .unwrap();
    assert!(
        title.starts_with("accepted/steady.c, ") && title.contains("run 1: 0.1"),
        "{title}"
    );
    client.close().await.unwrap();
}
