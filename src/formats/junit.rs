//! `--junit FILE`: a run's results ([`super::ci`]) as JUnit XML in the Jenkins/Surefire form CI
//! systems read (GitHub and GitLab test reports, Jenkins, Azure Pipelines), valid against
//! Jenkins's `junit-10.xsd`: one `testsuite` per suite with its properties, one `testcase` per
//! case, `failure` with the status and its message, `error` for judge errors, `skipped` for
//! cases not run; the detail is the element's text. Only the attributes that schema allows are
//! written (the JUnit writer crates add others), and characters XML cannot hold become U+FFFD.
//! The file holds no time stamp or host name, so the same run writes the same bytes; it is
//! replaced atomically.

use std::io;
use std::path::Path;

use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;

use super::ci::{Case, Ended, Suite};
use super::write::replace_file;

/// `text` with the characters XML 1.0 cannot hold replaced by U+FFFD.
fn xml_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
            _ => c,
        })
        .collect()
}

/// Seconds, as the schema's time attributes take them (at most three decimals).
fn seconds(time: std::time::Duration) -> String {
    format!("{:.3}", time.as_secs_f64())
}

fn count(suite: &Suite, outcome: Ended) -> usize {
    suite.cases.iter().filter(|c| c.outcome == outcome).count()
}

fn write_case(w: &mut Writer<Vec<u8>>, case: &Case, classname: &str) -> io::Result<()> {
    let name = xml_text(&case.name);
    let time = case.time.map(seconds);
    let mut element = w
        .create_element("testcase")
        .with_attribute(("name", name.as_str()))
        .with_attribute(("classname", classname));
    if let Some(time) = &time {
        element = element.with_attribute(("time", time.as_str()));
    }
    let tag = match case.outcome {
        Ended::Passed => return element.write_empty().map(|_| ()),
        Ended::Failed => "failure",
        Ended::Error => "error",
        Ended::Skipped => "skipped",
    };
    let message = xml_text(&if case.message.is_empty() {
        case.status.clone()
    } else {
        format!("{}: {}", case.status, case.message)
    });
    let status = xml_text(&case.status);
    let detail = xml_text(&case.detail);
    element.write_inner_content(|w| {
        let inner = w
            .create_element(tag)
            .with_attribute(("message", message.as_str()))
            .with_attribute(("type", status.as_str()));
        if detail.is_empty() {
            inner.write_empty()?;
        } else {
            inner.write_text_content(BytesText::new(&detail))?;
        }
        Ok(())
    })?;
    Ok(())
}

/// The JUnit XML of the run `title` with `suites`.
pub fn to_xml(title: &str, suites: &[Suite]) -> io::Result<Vec<u8>> {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let all = |outcome| suites.iter().map(|s| count(s, outcome)).sum::<usize>();
    let tests: usize = suites.iter().map(|s| s.cases.len()).sum();
    let total_time: Option<std::time::Duration> =
        suites.iter().flat_map(|s| &s.cases).map(|c| c.time).sum();
    let title = xml_text(title);
    let mut root = w.create_element("testsuites").with_attributes([
        ("name", title.as_str()),
        ("tests", tests.to_string().as_str()),
        ("failures", all(Ended::Failed).to_string().as_str()),
        ("errors", all(Ended::Error).to_string().as_str()),
    ]);
    if let Some(time) = total_time {
        root = root.with_attribute(("time", seconds(time).as_str()));
    }
    root.write_inner_content(|w| {
        for suite in suites {
            let name = xml_text(&suite.name);
            let classname = format!("referee.{name}");
            let time: Option<std::time::Duration> = suite.cases.iter().map(|c| c.time).sum();
            let mut element = w.create_element("testsuite").with_attributes([
                ("name", name.as_str()),
                ("tests", suite.cases.len().to_string().as_str()),
                ("failures", count(suite, Ended::Failed).to_string().as_str()),
                ("errors", count(suite, Ended::Error).to_string().as_str()),
                ("skipped", count(suite, Ended::Skipped).to_string().as_str()),
            ]);
            if let Some(time) = time {
                element = element.with_attribute(("time", seconds(time).as_str()));
            }
            element.write_inner_content(|w| {
                if !suite.properties.is_empty() {
                    w.create_element("properties").write_inner_content(|w| {
                        for (key, value) in &suite.properties {
                            w.create_element("property")
                                .with_attribute(("name", xml_text(key).as_str()))
                                .with_attribute(("value", xml_text(value).as_str()))
                                .write_empty()?;
                        }
                        Ok(())
                    })?;
                }
                for case in &suite.cases {
                    write_case(w, case, &classname)?;
                }
                Ok(())
            })?;
        }
        Ok(())
    })?;
    let mut bytes = w.into_inner();
    bytes.push(b'\n');
    Ok(bytes)
}

/// Writes the JUnit report of `title` with `suites` to `path`, replacing it atomically.
pub fn write(path: &Path, title: &str, suites: &[Suite]) -> io::Result<()> {
    replace_file(path, &to_xml(title, suites)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_become_failure_error_and_skipped_with_messages() {
        let case = |name: &str, outcome, status: &str, message: &str| Case {
            name: name.into(),
            status: status.into(),
            outcome,
            message: message.into(),
            detail: "details <&>\u{1}".into(),
            location: None,
            time: None,
        };
        let suites = [Suite {
            name: "pousse (icfp98)".into(),
            properties: vec![("game".into(), "pousse".into())],
            cases: vec![
                case("a.in", Ended::Passed, "ok", ""),
                case(
                    "b.in",
                    Ended::Failed,
                    "expected-mismatch",
                    "X WINS, .ans O WINS",
                ),
                case("c.in", Ended::Error, "JE", "unjudgeable"),
                case("d.in", Ended::Skipped, "reference-skipped", "over budget"),
            ],
        }];
        let xml = String::from_utf8(to_xml("referee verify", &suites).unwrap()).unwrap();
        let expected = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="referee verify" tests="4" failures="1" errors="1">
  <testsuite name="pousse (icfp98)" tests="4" failures="1" errors="1" skipped="1">
    <properties>
      <property name="game" value="pousse"/>
    </properties>
    <testcase name="a.in" classname="referee.pousse (icfp98)"/>
    <testcase name="b.in" classname="referee.pousse (icfp98)">
      <failure message="expected-mismatch: X WINS, .ans O WINS" type="expected-mismatch">details &lt;&amp;&gt;�</failure>
    </testcase>
    <testcase name="c.in" classname="referee.pousse (icfp98)">
      <error message="JE: unjudgeable" type="JE">details &lt;&amp;&gt;�</error>
    </testcase>
    <testcase name="d.in" classname="referee.pousse (icfp98)">
      <skipped message="reference-skipped: over budget" type="reference-skipped">details &lt;&amp;&gt;�</skipped>
    </testcase>
  </testsuite>
</testsuites>
"#;
        assert_eq!(xml, expected);
    }
}
