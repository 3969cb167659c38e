//! The package's programs (input, answer and output validators, the generator): each a
//! directory whose `build` script finds referee and writes the `run` script that calls it, so
//! a clean checkout of the package works wherever referee can be found or built, with nothing
//! copied by hand.
//!
//! `build` looks, in order, for: `./referee` (a binary bundled with `referee package
//! --referee`); `$REFEREE`; `referee` on `PATH`; a copy built earlier in
//! `$REFEREE_CACHE/VERSION` (default `${XDG_CACHE_HOME:-$HOME/.cache}/referee/VERSION`); and else
//! builds that copy with `cargo install` from `$REFEREE_SOURCE` or the source the package
//! names (a git URL, `URL#REV`, or a checkout's directory). Each candidate must answer
//! `referee VERSION` to `--version`: a package is judged by the referee it was written by. When
//! none is found, `build` says what it found and how to install referee, and fails.

use std::fs;
use std::io;
use std::path::Path;

/// What a package's programs need to know to find referee.
#[derive(Debug, Clone)]
pub struct Pin {
    /// The version every program needs (`referee --version` says `referee VERSION`).
    pub version: String,
    /// Where to build it from when it is not installed: a git URL (`URL#REV` for a revision)
    /// or a directory holding referee's source; empty when the package names none.
    pub source: String,
    /// A referee binary to put beside each program's scripts, found first.
    pub bundled: Option<std::path::PathBuf>,
}

/// How long `--referee BINARY --version` may take.
const VERSION_TIME: std::time::Duration = std::time::Duration::from_secs(10);

impl Pin {
    /// The pin of referee `version`, from `source` (empty for none) with `bundled`, checked:
    /// `bundled` must be a referee of this version (it answers `referee VERSION` to
    /// `--version` within [`VERSION_TIME`]), `source` a git URL or a directory holding
    /// referee's source (pinned as an absolute path, since the programs run elsewhere).
    pub fn checked(version: &str, source: &str, bundled: Option<&Path>) -> Result<Pin, PinError> {
        if let Some(binary) = bundled {
            check_binary(binary, version).map_err(|why| PinError::Binary {
                binary: binary.to_path_buf(),
                why,
            })?;
        }
        let source = if source.is_empty() || source.contains("://") || source.starts_with("git@") {
            source.to_string()
        } else {
            source_directory(Path::new(source)).map_err(|why| PinError::Source {
                given: source.to_string(),
                why,
            })?
        };
        Ok(Pin {
            version: version.to_string(),
            source,
            bundled: bundled.map(Path::to_path_buf),
        })
    }
}

/// Whether `binary` is referee `version`; why not.
fn check_binary(binary: &Path, version: &str) -> Result<(), NotPinned> {
    use std::io::Read;
    use wait_timeout::ChildExt;
    let meta = fs::metadata(binary)?;
    if !meta.is_file() {
        return Err(NotPinned::NotAFile);
    }
    let mut child = std::process::Command::new(binary)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(NotPinned::CannotRun)?;
    let status = child.wait_timeout(VERSION_TIME)?;
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
        return Err(NotPinned::NoAnswer);
    }
    let mut said = Vec::new();
    if let Some(out) = child.stdout.take() {
        let _ = out.take(4096).read_to_end(&mut said);
    }
    let said = String::from_utf8_lossy(&said);
    let first = said.lines().next().unwrap_or("").trim();
    let wanted = format!("referee {version}");
    if first != wanted {
        let said = if first.is_empty() {
            "nothing".to_string()
        } else {
            format!("'{first}'")
        };
        return Err(NotPinned::OtherVersion { said, wanted });
    }
    Ok(())
}

/// The absolute path of `dir`, a directory holding referee's source (its `Cargo.toml` names
/// the package `referee`); why not.
fn source_directory(dir: &Path) -> Result<String, NotPinned> {
    let absolute = fs::canonicalize(dir)?;
    let manifest = absolute.join("Cargo.toml");
    let read = || -> std::io::Result<String> {
        use std::io::Read;
        let mut text = String::new();
        crate::util::guard::open_regular(&manifest)?
            .take(16 << 20)
            .read_to_string(&mut text)?;
        Ok(text)
    };
    let text = read().map_err(|source| NotPinned::NoManifest {
        manifest: manifest.clone(),
        source,
    })?;
    let names_referee = text
        .lines()
        .any(|l| l.split_whitespace().collect::<String>() == "name=\"referee\"");
    if !names_referee {
        return Err(NotPinned::NotReferees { manifest });
    }
    Ok(absolute.to_string_lossy().into_owned())
}

/// Why a package cannot pin the referee its programs run.
#[derive(Debug, thiserror::Error)]
pub enum PinError {
    /// `--referee BINARY` is not this referee.
    #[error("--referee {}: {why}", binary.display())]
    Binary {
        /// The binary.
        binary: std::path::PathBuf,
        /// Why not.
        why: NotPinned,
    },
    /// `--referee-source` is not referee's source.
    #[error("--referee-source {given}: {why}")]
    Source {
        /// The source given.
        given: String,
        /// Why not.
        why: NotPinned,
    },
}

/// Why a binary or a directory is not the referee a package pins.
#[derive(Debug, thiserror::Error)]
pub enum NotPinned {
    /// It cannot be read.
    #[error("{0}")]
    Unreadable(#[from] std::io::Error),
    /// Not a file.
    #[error("not a file (a referee binary is wanted)")]
    NotAFile,
    /// It cannot be started.
    #[error("cannot be run: {0}")]
    CannotRun(std::io::Error),
    /// It does not answer `--version` in time.
    #[error("did not answer --version within {} s", VERSION_TIME.as_secs())]
    NoAnswer,
    /// It is another version.
    #[error(
        "says {said} to --version, not '{wanted}': the package's programs need the referee that \
         writes it"
    )]
    OtherVersion {
        /// What it said (quoted), or `nothing`.
        said: String,
        /// `referee VERSION`.
        wanted: String,
    },
    /// A directory with no readable `Cargo.toml`.
    #[error(
        "{}: {source} (a git URL or a directory holding referee's source is wanted)",
        manifest.display()
    )]
    NoManifest {
        /// Its `Cargo.toml`.
        manifest: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A `Cargo.toml` of another package.
    #[error("{} is not referee's (no name = \"referee\")", manifest.display())]
    NotReferees {
        /// The `Cargo.toml`.
        manifest: std::path::PathBuf,
    },
}

/// The `build` script of a program running `referee ARGUMENTS` (a shell word list; `"$@"`
/// passes the program's own arguments on): a data table (the script written out, listed in
/// tests/layers.rs as allowed its length).
pub fn build_script(pin: &Pin, what: &str, arguments: &str) -> String {
    let quote = |s: &str| s.replace('\'', "'\\''");
    format!(
        r##"#!/bin/sh
# Builds the {what}: finds referee {version} and writes ./run, which runs
#   referee {arguments}
# It looks for ./referee (bundled), $REFEREE, referee on PATH, a copy built earlier in
# ${{REFEREE_CACHE:-${{XDG_CACHE_HOME:-$HOME/.cache}}/referee}}/{version}, and else builds that
# copy with cargo from $REFEREE_SOURCE or from: {source_said}.
# Each must say "referee {version}" to --version (within 10 s). Every call it makes is limited
# in time (with coreutils' timeout where there is one), and it writes only ./run and the cache.
set -eu
version='{version_q}'
pinned_source='{source_q}'
limited() {{
  seconds=$1
  shift
  if command -v timeout >/dev/null 2>&1; then timeout -k 5 "$seconds" "$@"; else "$@"; fi
}}
is_pinned() {{
  [ -f "$1" ] && [ -x "$1" ] && [ "$(limited 10 "$1" --version 2>/dev/null </dev/null | head -c 4096)" = "referee $version" ]
}}
says() {{
  limited 10 "$1" --version 2>&1 </dev/null | head -n 1 | head -c 200
}}
if is_pinned ./referee; then
  found="$(pwd)/referee"
elif [ -n "${{REFEREE:-}}" ]; then
  if ! is_pinned "$REFEREE"; then
    echo "build: REFEREE=$REFEREE is not referee $version (it says: $(says "$REFEREE" || true))" >&2
    exit 1
  fi
  found=$REFEREE
elif command -v referee >/dev/null 2>&1 && is_pinned "$(command -v referee)"; then
  found=$(command -v referee)
else
  cache=${{REFEREE_CACHE:-${{XDG_CACHE_HOME:-${{HOME:-/tmp}}/.cache}}/referee}}/$version
  if ! is_pinned "$cache/bin/referee"; then
    source=${{REFEREE_SOURCE:-$pinned_source}}
    if [ -z "$source" ] || ! command -v cargo >/dev/null 2>&1; then
      {{
        echo "build: referee $version, which this package's programs run, was not found."
        if command -v referee >/dev/null 2>&1; then
          echo "  $(command -v referee) is another version: $(says "$(command -v referee)" || true)."
        fi
        if [ -n "$source" ]; then
          echo "  Building it from $source needs cargo (https://rustup.rs) on PATH."
        fi
        echo "  Install referee $version on PATH (cargo install --locked --path CHECKOUT),"
        echo "  or set REFEREE=/path/to/referee, or set REFEREE_SOURCE to a git URL (URL#REV)"
        echo "  or a checkout of referee $version and have cargo on PATH: it is built once, into"
        echo "  $cache."
      }} >&2
      exit 1
    fi
    echo "build: building referee $version from $source into $cache" >&2
    # The build's files go to the cache, never into the source, and are removed after.
    case $source in
      *://*|git@*)
        case $source in
          *#*) limited 3600 cargo install --quiet --locked --root "$cache" --target-dir "$cache/target" --git "${{source%%#*}}" --rev "${{source#*#}}" referee >&2 || true ;;
          *) limited 3600 cargo install --quiet --locked --root "$cache" --target-dir "$cache/target" --git "$source" referee >&2 || true ;;
        esac ;;
      *) limited 3600 cargo install --quiet --locked --root "$cache" --target-dir "$cache/target" --path "$source" >&2 || true ;;
    esac
    rm -rf "$cache/target"
    if ! is_pinned "$cache/bin/referee"; then
      echo "build: $source did not give referee $version (it says: $(says "$cache/bin/referee" || true))" >&2
      exit 1
    fi
  fi
  found=$cache/bin/referee
fi
case $found in
  /*) ;;
  *) found="$(pwd)/$found" ;;
esac
quoted=$(printf '%s' "$found" | sed "s/'/'\\\\''/g")
printf '#!/bin/sh\nexec '"'"'%s'"'"' %s\n' "$quoted" '{arguments}' > run
chmod +x run
"##,
        version = pin.version,
        version_q = quote(&pin.version),
        source_q = quote(&pin.source),
        source_said = if pin.source.is_empty() {
            "nothing (this package names no source)"
        } else {
            &pin.source
        },
    )
}

/// Writes the program directory `dir`: its `build` script, a README, and the bundled binary if
/// any.
pub fn write_program(dir: &Path, pin: &Pin, what: &str, arguments: &str) -> io::Result<()> {
    assert!(
        !arguments.contains('\''),
        "a program's arguments are written inside single quotes"
    );
    fs::create_dir_all(dir)?;
    let build = dir.join("build");
    fs::write(&build, build_script(pin, what, arguments))?;
    make_executable(&build)?;
    fs::write(
        dir.join("README"),
        format!(
            "The {what}: `referee {arguments}`, run by the `run` script that `build` writes.\n\
             It needs referee {version}: on PATH, in $REFEREE, or built from $REFEREE_SOURCE \
             (see `build`).\n",
            version = pin.version
        ),
    )?;
    if let Some(binary) = &pin.bundled {
        bundle(binary, dir)?;
    }
    Ok(())
}

/// Copies the referee `binary` (a regular file: a FIFO or a device is refused, never waited
/// on) into `dir` as `referee`, executable.
pub fn bundle(binary: &Path, dir: &Path) -> io::Result<()> {
    let bundled = dir.join("referee");
    let mut from = crate::util::guard::open_regular_named(binary)?;
    io::copy(&mut from, &mut fs::File::create(&bundled)?)?;
    make_executable(&bundled)
}

#[cfg(unix)]
fn make_executable(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
}

impl crate::util::error::RunRefusal for PinError {}
