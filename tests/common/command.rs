//! Running the built `referee` and reading back what it wrote: the command, its output as text,
//! the repository's files, trees copied and read whole, CSV reports as rows keyed by column.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Output;

/// The repository's root (the tests' current directory too).
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The built `referee`'s path: every test finds the binary here (`REFEREE_UNDER_TEST` when set:
/// the kernel matrix runs these tests on the release build, under software emulation).
pub fn referee_path() -> &'static Path {
    static PATH: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        std::env::var_os("REFEREE_UNDER_TEST")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_referee").into())
    })
}

/// The built `referee`, run in the repository's root, for assertions on its output.
pub fn referee() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::new(referee_path());
    command.current_dir(repo());
    command
}

/// The built `referee` as a process to start (and signal, or feed) while it runs.
pub fn referee_process() -> std::process::Command {
    let mut command = std::process::Command::new(referee_path());
    command.current_dir(repo());
    command
}

/// A finished process's standard error, as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A finished process's standard output, as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Copies the tree `from` (its directories and files) into `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else if entry.file_type().is_file() {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every file under `dir`, by its path relative to `dir`, with its bytes.
pub fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            (rel, fs::read(e.path()).unwrap())
        })
        .collect()
}

/// The rows of the CSV file `path`, each its cells keyed by the header's column names.
pub fn csv_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut reader =
        csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .zip(r.unwrap().iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The rows of the CSV file `path` after its header, each a list of cells.
pub fn csv_records(path: &Path) -> Vec<Vec<String>> {
    csv::Reader::from_path(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}
