//! A game's statement, written once in Markdown ([`crate::game::problem::Content::statement`]), as the
//! LaTeX body problemtools and BAPCtools build: `\problemname{...}`, the text, and the
//! `Input` and `Output` environments both tools' classes define.
//!
//! The Markdown the games use, and all this converts: paragraphs; `## Heading` (`Input` and
//! `Output` become environments, any other a `\section*`); lines starting `- ` (an
//! `itemize`); `` `code` `` (`\texttt`, its special characters escaped); `*emphasis*`
//! (`\emph`); `$math$` (kept as it is). Outside math and code, LaTeX's special characters are
//! escaped.

/// The LaTeX statement of the problem `title` whose statement is `markdown`.
pub fn latex(title: &str, markdown: &str) -> String {
    let mut out = format!("\\problemname{{{}}}\n\n", text(title));
    let mut environment: Option<&str> = None;
    let mut in_list = false;
    for line in markdown.lines() {
        let item = line.strip_prefix("- ");
        if in_list && item.is_none() {
            out.push_str("\\end{itemize}\n");
            in_list = false;
        }
        if let Some(heading) = line.strip_prefix("## ") {
            if let Some(open) = environment.take() {
                out.push_str(&format!("\\end{{{open}}}\n\n"));
            }
            match heading.trim() {
                name @ ("Input" | "Output") => {
                    out.push_str(&format!("\\begin{{{name}}}\n"));
                    environment = Some(name);
                }
                other => out.push_str(&format!("\\section*{{{}}}\n", inline(other))),
            }
        } else if let Some(item) = item {
            if !in_list {
                out.push_str("\\begin{itemize}\n");
                in_list = true;
            }
            out.push_str(&format!("  \\item {}\n", inline(item)));
        } else {
            out.push_str(&inline(line));
            out.push('\n');
        }
    }
    if in_list {
        out.push_str("\\end{itemize}\n");
    }
    if let Some(open) = environment {
        out.push_str(&format!("\\end{{{open}}}\n"));
    }
    out
}

/// One line of Markdown text as LaTeX.
fn inline(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        let closing = |mark: char| rest[1..].find(mark).map(|at| at + 1);
        match c {
            '$' | '`' | '*' if closing(c).is_some() => {
                let end = closing(c).unwrap_or_default();
                let inner = &rest[1..end];
                match c {
                    '$' => out.push_str(&rest[..=end]),
                    '`' => out.push_str(&format!("\\texttt{{{}}}", text(inner))),
                    _ => out.push_str(&format!("\\emph{{{}}}", inline(inner))),
                }
                rest = &rest[end + 1..];
            }
            _ => {
                out.push_str(&text(&rest[..c.len_utf8()]));
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// Plain text with LaTeX's special characters escaped.
fn text(plain: &str) -> String {
    let mut out = String::new();
    for c in plain.chars() {
        match c {
            '#' | '$' | '%' | '&' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '\\' => out.push_str("\\textbackslash{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_becomes_the_latex_both_tools_build() {
        let md = "A *straight* of $N \\times N$ markers: `L1`, `#` or `a_b`.\n\n\
                  ## Input\n\nThe size $N$ ($1 \\le N$), 100% sure & more.\n\n\
                  - one\n- `two`\n\n## Output\n\n`X WINS` or `TIE GAME`.\n";
        assert_eq!(
            latex("Pousse & co", md),
            "\\problemname{Pousse \\& co}\n\n\
             A \\emph{straight} of $N \\times N$ markers: \\texttt{L1}, \\texttt{\\#} or \
             \\texttt{a\\_b}.\n\n\
             \\begin{Input}\n\nThe size $N$ ($1 \\le N$), 100\\% sure \\& more.\n\n\
             \\begin{itemize}\n  \\item one\n  \\item \\texttt{two}\n\\end{itemize}\n\n\
             \\end{Input}\n\n\\begin{Output}\n\n\\texttt{X WINS} or \\texttt{TIE GAME}.\n\
             \\end{Output}\n"
        );
    }

    #[test]
    fn unpaired_marks_are_text() {
        assert_eq!(inline("5 * 3 costs $4"), "5 * 3 costs \\$4");
        assert_eq!(
            inline("a ~ b ^ c \\"),
            "a \\textasciitilde{} b \\textasciicircum{} c \\textbackslash{}"
        );
    }
}
