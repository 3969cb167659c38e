//! The layers of docs/architecture.md, read from the code: every `crate::...` path in a file of
//! `src/` (outside its `#[cfg(test)]` module, and outside comments) is an edge to the file it
//! names, and an edge may only go down the layers, or stay in its own unit; drivers use each
//! other only through the seams listed here, each with why. In the sandbox crate
//! (`sandbox/src/`), no files use one another in a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first: each a name and the files and folders (ending in `/`) of `src/` in
/// it. A unit is a folder or a file: files of one unit may use each other freely.
const LAYERS: &[(&str, &[&str])] = &[
    ("shared helpers", &["util/"]),
    ("the game interface", &["game/"]),
    ("game folders", &["pousse/", "littlesquares/", "somegame/"]),
    ("the list of games", &["games/"]),
    (
        "services of the drivers",
        &["formats/", "harness/", "judge_system/"],
    ),
    (
        "drivers",
        &["verify/", "grade/", "gen/", "stress/", "audit/", "package/"],
    ),
    ("the command line", &["cli/", "main.rs", "lib.rs"]),
];

/// Layers whose units may not use each other (but through a seam).
const APART: &[&str] = &["game folders", "drivers"];

/// Where one driver uses another by design: (from unit, to unit, why).
const SEAMS: &[(&str, &str, &str)] = &[
    (
        "package/",
        "gen/",
        "a package's random cases are `referee gen` calls, written as gen writes them",
    ),
    (
        "audit/",
        "package/",
        "`audit --add-to` adds its strengthening cases to a package as the package writer lays \
         them out, and writes the advised limits where the package's format keeps them",
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `root`, in name order: its path relative to `root` and its text.
fn rust_files(root: &Path) -> Vec<(String, String)> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.path().extension() == Some("rs".as_ref()))
        .map(|e| {
            let rel = e.path().strip_prefix(root).unwrap().display().to_string();
            (rel, std::fs::read_to_string(e.path()).unwrap())
        })
        .collect()
}

/// The layer (index) and unit of a file of `src/` (its path relative to `src/`).
fn place(rel: &str) -> (usize, &'static str) {
    let mut best: Option<(usize, &'static str)> = None;
    for (i, (_, units)) in LAYERS.iter().enumerate() {
        for unit in *units {
            let hit = if unit.ends_with('/') {
                rel.starts_with(unit)
            } else {
                rel == *unit
            };
            // The longest unit that holds the file.
            if hit && best.is_none_or(|(_, b)| unit.len() > b.len()) {
                best = Some((i, unit));
            }
        }
    }
    best.unwrap_or_else(|| panic!("src/{rel} is in no layer: add it to LAYERS"))
}

/// The file of `src/` a `crate::a::b::c` path names: the longest prefix that is a file or a
/// folder's `mod.rs` (relative to `src/`).
fn target(segments: &[&str]) -> Option<String> {
    target_in(&src(), segments)
}

/// The file of the crate whose sources are `root` a `crate::a::b::c` path names.
fn target_in(root: &Path, segments: &[&str]) -> Option<String> {
    for n in (1..=segments.len()).rev() {
        let stem = segments[..n].join("/");
        for candidate in [format!("{stem}.rs"), format!("{stem}/mod.rs")] {
            if root.join(&candidate).is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// The code of a file without its test module and comments.
fn code(text: &str) -> String {
    let mut kept = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line == "#[cfg(test)]" {
            // The item it marks (rustfmt's layout: its last line is the first `}` at column 0
            // after it, or the line itself ends it).
            for item in lines.by_ref() {
                if item == "}" || (!item.starts_with(' ') && item.ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        kept.push(match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        });
    }
    kept.join("\n")
}

/// Every edge of `src/`: (from file, to file), both relative to `src/`.
fn edges() -> BTreeSet<(String, String)> {
    edges_in(&src())
}

/// Every edge of the crate whose sources are `root`: (from file, to file), relative to it. A
/// path is read from `crate::`, `super::` or `self::` on, through `{...}` groups; an edge to a
/// file's own folder's `mod.rs` (or one above it) is kept: [`to_ancestor`] tells them apart.
fn edges_in(root: &Path) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (rel, text) in rust_files(root) {
        let text = code(&text);
        let here = module_of(&rel);
        let bytes = text.as_bytes();
        for (start, _) in text.char_indices() {
            let rest = &text[start..];
            let starts_path = ["crate::", "super::", "self::"]
                .iter()
                .any(|p| rest.starts_with(p));
            let after_word = start > 0
                && (bytes[start - 1].is_ascii_alphanumeric()
                    || bytes[start - 1] == b'_'
                    || bytes[start - 1] == b':');
            // `pub(in crate::a)` names where an item is seen, not what it uses.
            let visibility = text[..start].ends_with("(in ");
            if !starts_path || after_word || visibility {
                continue;
            }
            for path in expand(&path_text(rest)) {
                let segments = absolute(&here, &path);
                let segments: Vec<&str> = segments
                    .iter()
                    .map(String::as_str)
                    .take_while(|s| s.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
                    .collect();
                if let Some(to) = target_in(root, &segments) {
                    if to != rel {
                        out.insert((rel.clone(), to));
                    }
                }
            }
        }
    }
    out
}

/// The module path of a file relative to a crate's sources (`a/b.rs` and `a/b/mod.rs` are
/// `[a, b]`; `lib.rs` and `main.rs` the crate).
fn module_of(rel: &str) -> Vec<String> {
    let mut segments: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(
        segments.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        segments.pop();
    }
    segments
}

/// The path that starts `text`: identifiers, `::` and balanced `{...}` groups.
fn path_text(text: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            c if c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '*' => {}
            ',' | ' ' | '\n' if depth > 0 => {}
            _ => break,
        }
        out.push(c);
        if depth == 0 && c == '}' {
            break;
        }
    }
    out
}

/// The paths a path with `{...}` groups names (`a::{b, c::{d}}` is `a::b` and `a::c::d`).
fn expand(path: &str) -> Vec<String> {
    let Some(open) = path.find('{') else {
        return vec![path.split_whitespace().collect()];
    };
    let (head, body) = (&path[..open], &path[open + 1..]);
    let body = body.strip_suffix('}').unwrap_or(body);
    let (mut depth, mut part, mut out) = (0usize, String::new(), Vec::new());
    for c in body.chars() {
        match c {
            ',' if depth == 0 => {
                out.extend(expand(&format!("{head}{}", std::mem::take(&mut part))))
            }
            '{' => {
                depth += 1;
                part.push(c);
            }
            '}' => {
                depth = depth.saturating_sub(1);
                part.push(c);
            }
            c => part.push(c),
        }
    }
    out.extend(expand(&format!("{head}{part}")));
    out
}

/// A path from `crate::`, `super::` or `self::`, as segments from the crate's root, for a file
/// of module `here`.
fn absolute(here: &[String], path: &str) -> Vec<String> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<String> = here.to_vec();
    match segments.first() {
        Some(&"crate") => {
            base.clear();
            segments.remove(0);
        }
        _ => {
            while let Some(&first) = segments.first() {
                match first {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                segments.remove(0);
            }
        }
    }
    base.extend(segments.into_iter().map(String::from));
    base
}

/// Whether `to` is the `mod.rs` of a folder holding `from` (a file naming its parents' items).
fn to_ancestor(from: &str, to: &str) -> bool {
    to.strip_suffix("mod.rs")
        .is_some_and(|folder| from.starts_with(folder))
        || to == "lib.rs"
}

/// The edges against the layers: (from unit, to unit, why).
fn violations() -> BTreeSet<(&'static str, &'static str, String)> {
    let mut out = BTreeSet::new();
    for (from, to) in edges() {
        let ((a, unit_a), (b, unit_b)) = (place(&from), place(&to));
        if unit_a == unit_b {
            continue;
        }
        let why = if b > a {
            format!(
                "src/{from} ({}) uses src/{to} ({}), a layer above",
                LAYERS[a].0, LAYERS[b].0
            )
        } else if a == b
            && APART.contains(&LAYERS[a].0)
            && !SEAMS.iter().any(|(f, t, _)| (*f, *t) == (unit_a, unit_b))
        {
            format!(
                "src/{from} uses src/{to}, another unit of the {}",
                LAYERS[a].0
            )
        } else {
            continue;
        };
        out.insert((unit_a, unit_b, why));
    }
    out
}

#[test]
fn every_edge_of_src_goes_down_the_layers() {
    let found: Vec<String> = violations().into_iter().map(|(_, _, why)| why).collect();
    assert!(found.is_empty(), "edges against the layers:\n{found:#?}");
}

#[test]
fn a_planted_edge_up_the_layers_is_found() {
    // The check itself: a game folder naming a driver, and a helper naming a game.
    for (from, to) in [
        ("pousse/case/mod.rs", "audit/mod.rs"),
        ("util/text.rs", "game/mod.rs"),
    ] {
        let ((a, _), (b, _)) = (place(from), place(to));
        assert!(b > a, "{from} -> {to}");
    }
    assert_eq!(
        target(&["judge_system", "validate", "validate"]).unwrap(),
        "judge_system/validate.rs"
    );
    assert_eq!(
        target(&["verify", "run", "Batch"]).unwrap(),
        "verify/run.rs"
    );
    assert_eq!(place("package/cases.rs").1, "package/");
    assert_eq!(place("judge_system/check.rs").1, "judge_system/");
    // What is read of a file: not its test items or comments, but all the rest, below them too.
    let read = code(
        "use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::b;\n}\n// crate::c\n\
         #[cfg(test)]\nuse crate::d;\nuse crate::e;\n",
    );
    assert!(
        read.contains("crate::a") && read.contains("crate::e"),
        "{read}"
    );
    assert!(
        !["crate::b", "crate::c", "crate::d"]
            .iter()
            .any(|p| read.contains(p)),
        "{read}"
    );
}

/// The test files (outside `tests/common/`) that name the built binary themselves, as
/// `(file, line)`: every test finds it through `common::command::referee_path`.
fn binaries_found_outside_common() -> Vec<(String, usize)> {
    let needles = [concat!("CARGO_BIN", "_EXE"), concat!("cargo", "_bin(")];
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut found = Vec::new();
    for (rel, text) in rust_files(&tests) {
        if Path::new(&rel).starts_with("common") {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            if needles.iter().any(|n| line.contains(n)) {
                found.push((rel.clone(), i + 1));
            }
        }
    }
    found
}

#[test]
fn every_test_finds_the_binary_through_common() {
    assert_eq!(binaries_found_outside_common(), Vec::new());
}

/// The most lines a function of `src/` (or of the sandbox crate's `sandbox/src/`) may take,
/// from its `fn` line to its closing brace.
const LONGEST_FUNCTION: usize = 80;

/// The functions allowed more: data written out (a package's files and its shell script), not
/// logic. As (file relative to `src/`, function).
const DATA_TABLES: &[(&str, &str)] = &[
    ("package/programs.rs", "build_script"),
    ("littlesquares/package.rs", "content"),
    ("pousse/package.rs", "content"),
    ("somegame/package.rs", "content"),
];

/// The functions of `src/` (in rustfmt's layout: the body ends at the first `}` line at the
/// `fn` line's indentation) over [`LONGEST_FUNCTION`] lines: (file, function, lines).
fn long_functions() -> Vec<(String, String, usize)> {
    let fn_line = regex_lite::Regex::new(
        r"^(\s*)(pub(\([^)]*\))? )?(const )?(async )?(unsafe )?(extern \S+ )?fn ([A-Za-z_0-9]+)",
    )
    .unwrap();
    let mut long = Vec::new();
    let sandbox = Path::new(env!("CARGO_MANIFEST_DIR")).join("sandbox/src");
    let files = rust_files(&src()).into_iter().chain(
        rust_files(&sandbox)
            .into_iter()
            .map(|(rel, text)| (format!("sandbox/src/{rel}"), text)),
    );
    for (rel, text) in files {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(found) = fn_line.captures(line) else {
                continue;
            };
            if line.trim_end().ends_with('}') || line.trim_end().ends_with(';') {
                continue;
            }
            let indent = &found[1];
            let end = lines[i + 1..].iter().position(|l| {
                l.strip_prefix(indent).is_some_and(|rest| {
                    rest == "}" || (!rest.starts_with(' ') && rest.ends_with(';'))
                })
            });
            let length = end.map_or(lines.len() - i, |e| e + 2);
            let name = found[8].to_string();
            let allowed = DATA_TABLES.contains(&(rel.as_str(), name.as_str()));
            if length > LONGEST_FUNCTION && !allowed {
                long.push((rel.clone(), name, length));
            }
        }
    }
    long
}

#[test]
fn no_function_of_src_is_longer_than_the_limit_but_data_tables() {
    assert_eq!(long_functions(), Vec::new());
}

/// The facets of a game (the traits over `Game` in `src/game/facets.rs`) and the items each holds,
/// read from the code.
fn facets() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(src().join("game/facets.rs")).unwrap();
    let item = regex_lite::Regex::new(r"^    (?:fn|const|type) ([A-Za-z_0-9]+)").unwrap();
    let mut facets = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("pub trait ") {
            let (name, bound) = rest.split_once(':').unwrap_or((rest, ""));
            current = bound
                .trim_start()
                .starts_with("Game {")
                .then(|| name.trim().to_string());
            continue;
        }
        if line == "}" {
            current = None;
        }
        if let (Some(facet), Some(found)) = (&current, item.captures(line)) {
            facets
                .entry(facet.clone())
                .or_insert_with(BTreeSet::new)
                .insert(found[1].to_string());
        }
    }
    facets
}

/// The bundles of facets the code names (`AnyGame`, a driver's own such as `Auditable`): each
/// trait of `src/` whose supertraits are facets, with them.
fn bundles(facets: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let head = regex_lite::Regex::new(r"(?s)pub trait (\w+):\s*([^{]*)\{").unwrap();
    let mut bundles = BTreeMap::new();
    for (_, text) in rust_files(&src()) {
        for found in head.captures_iter(&text) {
            let parts: BTreeSet<String> = found[2]
                .split('+')
                .map(|p| p.trim().rsplit("::").next().unwrap().to_string())
                .filter(|p| facets.contains_key(p))
                .collect();
            if !parts.is_empty() && !facets.contains_key(&found[1]) {
                bundles.insert(found[1].to_string(), parts);
            }
        }
    }
    bundles
}

/// The facets `text` (a driver's file) uses through a game parameter `G` (`G::draw`,
/// `G::Case`) without naming them, directly or through a bundle: `(facet, item)`.
fn undeclared_facets(
    text: &str,
    facets: &BTreeMap<String, BTreeSet<String>>,
    bundles: &BTreeMap<String, BTreeSet<String>>,
) -> BTreeSet<(String, String)> {
    let code = code(text);
    let word = |w: &str| {
        code.split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|x| x == w)
    };
    let mut declared: BTreeSet<&String> = facets.keys().filter(|f| word(f)).collect();
    for (bundle, parts) in bundles {
        if word(bundle) {
            declared.extend(parts);
        }
    }
    let used = regex_lite::Regex::new(r"\bG::([A-Za-z_0-9]+)").unwrap();
    let mut missing = BTreeSet::new();
    for found in used.captures_iter(&code) {
        for (facet, items) in facets {
            if items.contains(&found[1]) && !declared.contains(facet) {
                missing.insert((facet.clone(), found[1].to_string()));
            }
        }
    }
    missing
}

#[test]
fn every_driver_declares_the_facets_of_a_game_it_uses() {
    let facets = facets();
    assert!(
        ["Referenced", "Forms", "Generated", "Packaged", "Pictured"]
            .iter()
            .all(|f| facets.contains_key(*f)),
        "{facets:?}"
    );
    let bundles = bundles(&facets);
    assert!(bundles.contains_key("AnyGame"), "{bundles:?}");
    let mut found = Vec::new();
    for (rel, text) in rust_files(&src()) {
        // Every file but the interface itself: the drivers, their services, the command line.
        if rel.starts_with("game/") {
            continue;
        }
        for (facet, item) in undeclared_facets(&text, &facets, &bundles) {
            found.push(format!(
                "src/{rel}: G::{item} of {facet}, which it does not declare"
            ));
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_driver_using_a_facet_it_does_not_declare_is_found() {
    let facets = facets();
    let bundles = bundles(&facets);
    let planted = "fn show<G: Game>(input: &[u8]) -> String {\n    G::draw(input)\n}\n";
    assert_eq!(
        undeclared_facets(planted, &facets, &bundles),
        BTreeSet::from([("Pictured".to_string(), "draw".to_string())])
    );
    let declared = planted.replace("G: Game", "G: Game + Pictured");
    assert!(undeclared_facets(&declared, &facets, &bundles).is_empty());
    let bundled = planted.replace("G: Game", "G: AnyGame");
    assert!(undeclared_facets(&bundled, &facets, &bundles).is_empty());
}

/// The files of each circle of `edges` (a strongly connected set of two or more files), each
/// circle's files in name order. A file naming its folder's `mod.rs` is not an edge of a circle
/// (a `mod.rs` declares its files).
fn circles(edges: &BTreeSet<(String, String)>) -> Vec<BTreeSet<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.iter().filter(|(f, t)| !to_ancestor(f, t)) {
        next.entry(from).or_default().push(to);
    }
    // Reachability by search from each file: small crates, so quadratic is fine.
    let reach = |start: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start];
        while let Some(file) = stack.pop() {
            for &to in next.get(file).into_iter().flatten() {
                if seen.insert(to) {
                    stack.push(to);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&str, BTreeSet<&str>> =
        next.keys().map(|&file| (file, reach(file))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for (&file, from_it) in &reached {
        let circle: BTreeSet<String> = from_it
            .iter()
            .filter(|&&other| reached.get(other).is_some_and(|r| r.contains(file)))
            .map(|s| s.to_string())
            .collect();
        if circle.len() > 1 && !out.contains(&circle) {
            out.push(circle);
        }
    }
    out
}

fn sandbox_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sandbox/src")
}

/// The sources of every crate of the workspace, relative to the repository.
const CRATES: [&str; 3] = ["src", "sandbox/src", "reference/src"];

/// The sources of crate `krate` (one of [`CRATES`]).
fn crate_root(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(krate)
}

#[test]
fn no_files_of_a_crate_use_one_another_in_a_circle() {
    for krate in CRATES {
        let found = circles(&edges_in(&crate_root(krate)));
        assert!(found.is_empty(), "files of {krate} in a circle: {found:#?}");
    }
}

/// The rooms of `src/audit/`, lowest first: a room uses only the rooms below it, and none uses
/// `audit/mod.rs` (the table of contents, above them all).
const AUDIT_ROOMS: &[&str] = &[
    "terms",
    "settings",
    "running",
    "cases",
    "findings",
    "entrants",
    "limits",
    "reports",
    "strengthen",
    "stages",
    "merge",
    "pipeline",
];

/// The room of a file of `src/audit/` (relative to `src/`): its index in [`AUDIT_ROOMS`], or
/// their number for `audit/mod.rs`.
fn audit_room(rel: &str) -> usize {
    let inside = rel.strip_prefix("audit/").expect("a file of audit/");
    if inside == "mod.rs" {
        return AUDIT_ROOMS.len();
    }
    let room = inside.split('/').next().unwrap().trim_end_matches(".rs");
    AUDIT_ROOMS
        .iter()
        .position(|r| *r == room)
        .unwrap_or_else(|| panic!("src/{rel} is in no room of AUDIT_ROOMS: add it"))
}

/// The edges between rooms of `src/audit/` that do not go down.
fn audit_edges_up(edges: &BTreeSet<(String, String)>) -> Vec<String> {
    edges
        .iter()
        .filter(|(from, to)| from.starts_with("audit/") && to.starts_with("audit/"))
        .filter(|(from, to)| {
            let (a, b) = (audit_room(from), audit_room(to));
            a != b && b >= a
        })
        .map(|(from, to)| format!("src/{from} uses src/{to}"))
        .collect()
}

#[test]
fn every_room_of_audit_uses_only_the_rooms_below_it() {
    let up = audit_edges_up(&edges());
    assert!(up.is_empty(), "edges up or across audit's rooms: {up:#?}");
}

#[test]
fn a_planted_edge_up_audit_s_rooms_is_found() {
    let mut edges = edges();
    // Read through groups and `super::`: findings' settle uses the runner and the cases' plan.
    for (from, to) in [
        ("audit/findings/settle.rs", "audit/running/runner.rs"),
        ("audit/findings/settle.rs", "audit/cases/plan.rs"),
        ("audit/entrants/build.rs", "audit/entrants/named.rs"),
    ] {
        assert!(edges.contains(&(from.into(), to.into())), "{from} -> {to}");
    }
    for (from, to) in [
        ("audit/running/runner.rs", "audit/findings/settle.rs"),
        ("audit/terms/kind.rs", "audit/mod.rs"),
    ] {
        edges.insert((from.into(), to.into()));
        assert_eq!(
            audit_edges_up(&edges),
            [format!("src/{from} uses src/{to}")]
        );
        edges.remove(&(from.to_string(), to.to_string()));
    }
}

#[test]
fn a_planted_circle_of_files_is_found() {
    let mut edges = edges_in(&sandbox_src());
    // The run uses what bounds it; planted: what bounds it uses the run.
    assert!(edges.contains(&("run.rs".to_string(), "limits.rs".to_string())));
    edges.insert(("limits.rs".to_string(), "run.rs".to_string()));
    let found = circles(&edges);
    assert!(
        found
            .iter()
            .any(|c| c.contains("run.rs") && c.contains("limits.rs")),
        "{found:?}"
    );
}

/// The most lines a `mod.rs` may take: a table of contents and its room's types.
const LONGEST_MOD_RS: usize = 300;

fn long_tables_of_contents() -> Vec<String> {
    let mut out = Vec::new();
    for krate in CRATES {
        let root = crate_root(krate);
        for (rel, text) in rust_files(&root) {
            let lines = text.lines().count();
            if rel.ends_with("mod.rs") && lines > LONGEST_MOD_RS {
                out.push(format!("{krate}/{rel}: {lines} lines"));
            }
        }
    }
    out
}

#[test]
fn no_mod_rs_is_longer_than_a_table_of_contents() {
    let long = long_tables_of_contents();
    assert!(
        long.is_empty(),
        "mod.rs over {LONGEST_MOD_RS} lines: {long:#?}"
    );
}

/// The names docs/architecture.md gives in backticks that are not in the tree: files and folders
/// (`audit/merge.rs`, `game/`: from the repository, `src/`, `tests/` or the sandbox crate's
/// `src/`; a bare file name anywhere in them) and module paths (`audit::merge::NotShards`, or a
/// tail of one such as `sink::Sink`: a module of that name, and the item named in its file or
/// its folder's files).
fn stale_names_of_architecture() -> Vec<String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(repo.join("docs/architecture.md")).unwrap();
    let roots = [
        repo.to_path_buf(),
        src(),
        src().join("audit"),
        repo.join("tests"),
        sandbox_src(),
    ];
    let mut files: Vec<(String, String)> = Vec::new();
    for root in &roots[1..] {
        files.extend(rust_files(root));
    }
    let mut stale = Vec::new();
    for (i, quoted) in text.split('`').enumerate() {
        let placeholder = quoted.contains(['<', ' ', '*', '{', '$', '='])
            || quoted.contains("...")
            || quoted
                .split(['/', '.'])
                .any(|s| s.len() > 1 && s.chars().all(|c| c.is_ascii_uppercase()));
        if i % 2 == 0 || placeholder {
            continue;
        }
        let file_like = (quoted.ends_with(".rs") || quoted.ends_with('/'))
            && quoted
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_/.-".contains(c));
        if file_like {
            let bare = !quoted.trim_end_matches('/').contains('/');
            let found = roots.iter().any(|root| root.join(quoted).exists())
                || (bare
                    && files.iter().any(|(rel, _)| {
                        rel.ends_with(&format!("/{quoted}")) || rel.contains(&format!("/{quoted}"))
                    }));
            if !found {
                stale.push(quoted.to_string());
            }
            continue;
        }
        let segments: Vec<&str> = quoted
            .split("::")
            .skip_while(|s| *s == "crate" || *s == "referee")
            .collect();
        let is_path = quoted.contains("::")
            && !segments.is_empty()
            && segments
                .iter()
                .all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            && segments[0]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_lowercase());
        if !is_path || ["std", "referee_sandbox", "serde", "clap", "cargo"].contains(&segments[0]) {
            continue;
        }
        let modules: Vec<&str> = segments
            .iter()
            .copied()
            .take_while(|s| s.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
            .collect();
        let item = segments.get(modules.len()).copied();
        // The files of each module whose path ends with `modules` (its last may be a function).
        let found = (0..=1).any(|drop_last| {
            let Some(module) = modules.len().checked_sub(drop_last).map(|n| &modules[..n]) else {
                return false;
            };
            if module.is_empty() {
                return false;
            }
            let wanted = module.join("/");
            let item = if drop_last == 1 {
                Some(modules[modules.len() - 1])
            } else {
                item
            };
            files.iter().any(|(rel, _)| {
                let stem = rel.trim_end_matches(".rs").trim_end_matches("/mod");
                let is_module = stem == wanted || stem.ends_with(&format!("/{wanted}"));
                is_module
                    && item.is_none_or(|item| {
                        let folder = format!("{stem}/");
                        let word = regex_lite::Regex::new(&format!(r"\b{item}\b")).unwrap();
                        files.iter().any(|(other, body)| {
                            (other == rel
                                || (rel.ends_with("mod.rs")
                                    && other.starts_with(&folder)
                                    && !other[folder.len()..].contains('/')))
                                && word.is_match(body)
                        })
                    })
            })
        });
        if !found {
            stale.push(quoted.to_string());
        }
    }
    stale
}

#[test]
fn docs_architecture_names_what_the_tree_holds() {
    let stale = stale_names_of_architecture();
    assert!(
        stale.is_empty(),
        "docs/architecture.md names what is not in the tree: {stale:#?}"
    );
}
