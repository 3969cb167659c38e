//! The limits' advice on the audit's HTML page: a table of the advice and its warnings, and a
//! picture of every run's CPU time, a row per program and a line per data file in it, against
//! the limit and the margin (`time_limit_to_tle` times it), so that the noise of each file's
//! runs and the distance to each line are seen.

use crate::audit::limits::{seconds, Advice, Measured, TimeRules};
use crate::audit::terms::Class;
use crate::formats::html::{Cell, Table};

/// The picture's width in SVG units (it is drawn at the page's width).
const WIDTH: f64 = 1000.0;
/// The left part, where the programs' names are.
const LABELS: f64 = 250.0;
/// The right margin.
const RIGHT: f64 = 20.0;
/// The height given to one data file's runs in a program's row.
const PER_FILE: f64 = 4.0;
/// A row's least height.
const LEAST_ROW: f64 = 22.0;

/// The table of the advice: each fact and warning a row, the picture above it.
pub fn limits_table(advice: &Advice) -> Table {
    Table {
        id: "limits".into(),
        title: "Time and memory limits".into(),
        note: format!(
            "{}. Each dot is one run's CPU time (hover for the file and run); a triangle is a run \
             stopped at its cap, slower still.",
            capitalised(&advice.rule_text())
        ),
        columns: vec!["".into(), "advice".into()],
        rows: advice
            .facts()
            .into_iter()
            .map(|(what, text)| {
                let class = match what {
                    "warning" => "warning",
                    _ => "",
                };
                vec![
                    Cell::text(what),
                    Cell {
                        text,
                        class: class.into(),
                        link: None,
                    },
                ]
            })
            .collect(),
        figure: Some(runs_figure(advice)),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// The picture of every run (SVG): a row per program, its files one above the other in it, each
/// run a dot at its CPU time; the limit a solid line, the margin a dashed one, a limit
/// `problem.yaml` sets a dotted one.
pub fn runs_figure(advice: &Advice) -> String {
    let rules = &advice.rules;
    let limit = rules.time_limit.or(advice.time_limit);
    let most = advice
        .measured
        .iter()
        .flat_map(|m| m.files.iter().flat_map(|f| f.cpu.iter().copied()))
        .fold(0.0, f64::max)
        .max(limit.map_or(0.0, |l| l * rules.time_limit_to_tle * 1.1))
        .max(1e-3);
    let x = |secs: f64| LABELS + secs / most * (WIDTH - LABELS - RIGHT);
    let heights: Vec<f64> = advice
        .measured
        .iter()
        .map(|m| (m.files.len() as f64 * PER_FILE + 8.0).max(LEAST_ROW))
        .collect();
    let top = 24.0;
    let height = top + heights.iter().sum::<f64>() + 4.0;
    let mut svg = format!(
        "<svg class=\"runs\" role=\"img\" aria-label=\"CPU time of every run\" \
         viewBox=\"0 0 {WIDTH} {height}\" width=\"100%\" preserveAspectRatio=\"xMinYMin meet\" \
         xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let step = tick_step(most);
    let mut t = 0.0;
    while t <= most + 1e-9 {
        svg.push_str(&format!(
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{top}\" y2=\"{1:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{0:.1}\" y=\"12\" text-anchor=\"middle\" fill=\"#666\">{2}</text>",
            x(t),
            height - 4.0,
            seconds(t, rules)
        ));
        t += step;
    }
    let mut y = top;
    for (m, row) in advice.measured.iter().zip(&heights) {
        program_runs(&mut svg, m, y, *row, &x, rules);
        y += row;
    }
    let lines = limit_lines(advice, limit);
    for (at, dash, label) in lines {
        svg.push_str(&format!(
            "<line class=\"limit\" x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{top}\" y2=\"{1:.1}\" \
             stroke=\"#b00\" stroke-dasharray=\"{dash}\"/><text x=\"{2:.1}\" y=\"{3}\" \
             fill=\"#b00\" style=\"text-anchor:start\">{4}</text>",
            x(at),
            height - 4.0,
            x(at) + 3.0,
            top - 2.0,
            xml(&label)
        ));
    }
    svg.push_str("</svg>");
    svg
}

/// One program's row of [`runs_figure`] at height `y` (`row` high) into `svg`: its name, and
/// each run of each of its files a dot at `x(cpu time)` (a triangle for a run stopped at the
/// cap).
fn program_runs(
    svg: &mut String,
    m: &Measured,
    y: f64,
    row: f64,
    x: &dyn Fn(f64) -> f64,
    rules: &TimeRules,
) {
    let colour = match m.class {
        Class::Accepted => "#1b7f3b",
        Class::TimeLimitExceeded => "#c05600",
        _ => "#6a3d9a",
    };
    svg.push_str(&format!(
        "<g class=\"program\" data-program=\"{0}\"><line x1=\"0\" x2=\"{WIDTH}\" y1=\"{1:.1}\" \
         y2=\"{1:.1}\" stroke=\"#eee\"/><text x=\"4\" y=\"{2:.1}\" fill=\"{colour}\" \
         style=\"text-anchor:start\">{0}</text>",
        xml(&m.program),
        y,
        y + row / 2.0 + 4.0
    ));
    for (k, f) in m.files.iter().enumerate() {
        let fy = y + 6.0 + k as f64 * PER_FILE;
        for (run, (&cpu, &memory)) in f.cpu.iter().zip(&f.memory).enumerate() {
            let capped = f.timed_out() && run + 1 == f.cpu.len();
            let title = format!(
                "<title>{}, {}, run {}: {}{}, {} MiB</title>",
                xml(&m.program),
                xml(&f.file),
                run + 1,
                if capped { "over " } else { "" },
                seconds(cpu, rules),
                memory.div_ceil(1 << 20)
            );
            if capped {
                let cx = x(cpu);
                svg.push_str(&format!(
                    "<polygon class=\"run capped\" points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" \
                     fill=\"{colour}\">{title}</polygon>",
                    cx - 3.0,
                    fy - 3.0,
                    cx + 3.0,
                    fy,
                    cx - 3.0,
                    fy + 3.0
                ));
            } else {
                svg.push_str(&format!(
                    "<circle class=\"run\" cx=\"{:.1}\" cy=\"{fy:.1}\" r=\"2.2\" \
                     fill=\"{colour}\" fill-opacity=\"0.7\">{title}</circle>",
                    x(cpu)
                ));
            }
        }
    }
    svg.push_str("</g>");
}

/// The vertical lines of [`runs_figure`]: the limit (solid), the margin (dashed), and the
/// advised limit when `problem.yaml` sets one (dotted); each as (seconds, dash, label).
fn limit_lines(advice: &Advice, limit: Option<f64>) -> Vec<(f64, &'static str, String)> {
    let rules = &advice.rules;
    let mut lines = Vec::new();
    if let Some(l) = limit {
        lines.push((l, "", format!("limit {}", seconds(l, rules))));
        let tle = l * rules.time_limit_to_tle;
        lines.push((
            tle,
            "6 4",
            format!("{} x = {}", rules.time_limit_to_tle, seconds(tle, rules)),
        ));
    }
    if let (Some(_), Some(advised)) = (rules.time_limit, advice.time_limit) {
        lines.push((
            advised,
            "2 3",
            format!("advised {}", seconds(advised, rules)),
        ));
    }
    lines
}

/// A round step for about five ticks up to `most` seconds.
fn tick_step(most: f64) -> f64 {
    let rough = most / 5.0;
    let power = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= rough)
        .unwrap_or(power * 10.0)
}

/// `text` escaped for SVG text and attributes.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::limits::{advise, FileRuns, Measured, TimeRules};

    #[test]
    fn every_run_is_drawn_with_the_limit_and_the_margin_and_names_are_escaped() {
        let runs = |cpu: &[f64]| FileRuns {
            file: "1.in".into(),
            cpu: cpu.to_vec(),
            memory: vec![1 << 20; cpu.len()],
            failed: None,
        };
        let mut slow = runs(&[0.6]);
        slow.failed = Some(crate::audit::terms::Kind::Timeout);
        let advice = advise(
            vec![
                Measured {
                    program: "accepted/<a>.c".into(),
                    class: Class::Accepted,
                    language: None,
                    files: vec![runs(&[0.1, 0.12, 0.11])],
                },
                Measured {
                    program: "time_limit_exceeded/s.c".into(),
                    class: Class::TimeLimitExceeded,
                    language: None,
                    files: vec![slow],
                },
            ],
            TimeRules {
                time_resolution: 0.1,
                ..TimeRules::defaults("2025-09")
            },
            None,
            3,
        );
        let svg = runs_figure(&advice);
        assert_eq!(svg.matches("<circle class=\"run\"").count(), 3);
        assert_eq!(svg.matches("class=\"run capped\"").count(), 1);
        assert!(svg.contains(">limit 0.3 s<"), "{svg}");
        assert!(svg.contains(">1.5 x = 0.45 s<"), "{svg}");
        assert!(
            svg.contains("accepted/&lt;a&gt;.c") && !svg.contains("<a>"),
            "{svg}"
        );
        let table = limits_table(&advice);
        assert_eq!(table.rows[0][0].text, "time limit");
        assert!(
            table.note.starts_with("3 runs of each program"),
            "{}",
            table.note
        );
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(0.5), 0.1);
        assert_eq!(tick_step(2.3), 0.5);
        assert_eq!(tick_step(9.0), 2.0);
    }
}
