//! The programs of a Kattis package's `submissions/<class>/`, each built by the command of its
//! language ([`LANGUAGES`]).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use super::named::{first_free, sanitized, unique, valid_name, EntrantError};
use super::Entrant;
use crate::audit::terms::layout::Layout;
use crate::audit::terms::outcome::exit_text;
use crate::audit::terms::Class;
use crate::util::error::RunError;
use crate::util::text::mebibytes;
use referee_sandbox::{Ending, Interrupt, Limits, Program, Sandbox, Workspace};

/// A language a submission may be written in: the extensions of its files, how to build it
/// (none for Python) and how to run it.
#[derive(Debug, Clone, Copy)]
pub struct Language {
    /// Its name, for docs and messages.
    pub name: &'static str,
    /// The extensions of its source files.
    pub extensions: &'static [&'static str],
    /// The build command: `{bin}` is the program to make, `{dir}` its directory, `{srcs}` every
    /// source file (one word each), `{main}` the main source file.
    pub build: &'static [&'static str],
    /// The run command, with `{bin}`, `{dir}`, `{main}`, `{class}` (the main file's stem),
    /// `{memory}` (the memory limit in MiB) and `{python3}` (`pypy3` when it is on `PATH`, as
    /// Kattis runs Python 3, else `python3`).
    pub run: &'static [&'static str],
    /// A command that prints the directory of the compiler's toolchain, for a compiler outside
    /// the system's directories (rustup's): the build runs `DIR/bin/COMPILER` and reads `DIR`.
    pub toolchain: Option<&'static [&'static str]>,
}

/// The languages of a package's submissions, as Kattis builds and runs them (the compilers on
/// `PATH`; confined, the sandbox's `PATH`).
pub const LANGUAGES: [Language; 5] = [
    Language {
        name: "C",
        extensions: &["c"],
        build: &["gcc", "-O2", "-std=gnu17", "-o", "{bin}", "{srcs}", "-lm"],
        run: &["{bin}"],
        toolchain: None,
    },
    Language {
        name: "C++",
        extensions: &["cpp", "cc", "cxx", "c++"],
        build: &["g++", "-O2", "-std=gnu++17", "-o", "{bin}", "{srcs}"],
        run: &["{bin}"],
        toolchain: None,
    },
    Language {
        name: "Python 3",
        extensions: &["py"],
        build: &[],
        run: &["{python3}", "{main}"],
        toolchain: None,
    },
    Language {
        name: "Java",
        extensions: &["java"],
        // No JVM writes its performance data (`-XX:-UsePerfData`): it would leave a
        // `hsperfdata_USER` directory in /tmp, whatever TMPDIR says.
        build: &[
            "javac",
            "-J-XX:-UsePerfData",
            "-encoding",
            "UTF-8",
            "-d",
            "{dir}",
            "{srcs}",
        ],
        run: &[
            "java",
            "-XX:-UsePerfData",
            "-Dfile.encoding=UTF-8",
            "-XX:+UseSerialGC",
            "-Xss64m",
            "-Xmx{memory}m",
            "-cp",
            "{dir}",
            "{class}",
        ],
        toolchain: None,
    },
    Language {
        name: "Rust",
        extensions: &["rs"],
        build: &["rustc", "-O", "--edition", "2021", "-o", "{bin}", "{main}"],
        run: &["{bin}"],
        toolchain: Some(&["rustc", "--print", "sysroot"]),
    },
];

/// The language of a file, by its extension.
fn language_of(path: &Path) -> Option<&'static Language> {
    let ext = path.extension()?.to_str()?;
    LANGUAGES.iter().find(|l| l.extensions.contains(&ext))
}

/// How submissions are built: in the sandbox (or not, `--unconfined`), within the compile
/// limits, and run.
#[derive(Debug)]
pub struct Builder<'a> {
    /// The sandbox builds and runs go in; `None`: unconfined.
    pub sandbox: Option<&'a Arc<Sandbox>>,
    /// The CPU time one build may take (`--compile-time`).
    pub cpu: Duration,
    /// The memory limit of every run, in bytes; a build may take as much, and at least
    /// [`BUILD_MEMORY`].
    pub memory: u64,
    /// What ends every build at once, and refuses the next.
    pub interrupt: &'a Interrupt,
}

/// The least memory a build may take: 2048 MiB.
pub const BUILD_MEMORY: u64 = 2048 << 20;

/// The most bytes kept of what a compiler writes.
const COMPILER_OUTPUT: usize = 1 << 20;

/// The submissions of the package at `package`, `submissions/<class>/<file or directory>` in
/// name order, each built into `build/<name>/` by `builder`: a class folder Kattis does not
/// know is skipped, and said in `skipped`; a submission that does not build is an entrant with
/// the reason (`compile-error: ...`).
pub fn from_package(
    package: &Path,
    build: &Path,
    skipped: &mut Vec<String>,
    builder: &Builder,
) -> Result<Vec<Entrant>, RunError> {
    let submissions = package.join("submissions");
    let classes = sorted_entries(&submissions).map_err(|e| RunError::io(&submissions, e))?;
    let mut entrants = Vec::new();
    for class_dir in classes {
        let folder = file_name(&class_dir);
        if !class_dir.is_dir() {
            continue;
        }
        let Some(class) = Class::parse(&folder) else {
            skipped.push(format!(
                "{}: not a class Kattis knows ({})",
                crate::util::walk::display(&class_dir),
                Class::ALL.map(Class::as_str).join(", ")
            ));
            continue;
        };
        let entries = sorted_entries(&class_dir).map_err(|e| RunError::io(&class_dir, e))?;
        let mut taken: Vec<String> = (entries.iter())
            .map(|entry| format!("{folder}/{}", file_name(entry)))
            .filter(|name| valid_name(name))
            .collect();
        for entry in entries {
            let file = file_name(&entry);
            let name = usable_name(&folder, &file, &taken);
            taken.push(name.clone());
            if name != format!("{folder}/{file}") {
                skipped.push(format!(
                    "{}: audited as {name} (a name of letters, digits, '.', '_' and '-')",
                    crate::util::walk::display(&entry)
                ));
            }
            let out = build.join(Layout::component(&name));
            entrants.push(Entrant {
                name,
                expected: Some(class),
                program: if builder.interrupt.interrupted() {
                    Err(BuildError::Interrupted)
                } else {
                    builder.build(&entry, &out)
                },
                language: Sources::of(&entry)
                    .ok()
                    .map(|s| s.language.name.to_string()),
            });
        }
    }
    if entrants.is_empty() {
        return Err(EntrantError::NoSubmission(crate::util::walk::display(&submissions)).into());
    }
    unique(entrants)
}

/// The name of submission `file` of class folder `folder`: `FOLDER/FILE`, or where that is not
/// a valid name ([`valid_name`]: a space, a letter outside ASCII, a leading dot, too long) the
/// file name [`sanitized`], with a number added when that is a name `taken` already.
fn usable_name(folder: &str, file: &str, taken: &[String]) -> String {
    let name = format!("{folder}/{file}");
    if valid_name(&name) {
        return name;
    }
    let safe = sanitized(file, "submission");
    first_free(&format!("{folder}/{safe}"), |n| {
        taken.iter().any(|t| t == n)
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().to_string())
}

fn sorted_entries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.retain(|p| !file_name(p).starts_with('.'));
    entries.sort();
    Ok(entries)
}

/// A submission's source files, its language and its main file.
struct Sources {
    files: Vec<PathBuf>,
    language: &'static Language,
    main: PathBuf,
}

impl Sources {
    /// The sources at `source` (a file, or a directory of one language's files).
    fn of(source: &Path) -> Result<Sources, BuildError> {
        let files: Vec<PathBuf> = if source.is_dir() {
            sorted_entries(source)
                .map_err(|e| BuildError::Unreadable(Arc::new(e)))?
                .into_iter()
                .filter(|p| p.is_file() && language_of(p).is_some())
                .collect()
        } else {
            vec![source.to_path_buf()]
        };
        let Some(language) = files.first().and_then(|f| language_of(f)) else {
            return Err(BuildError::NoSource);
        };
        if files
            .iter()
            .any(|f| language_of(f).is_none_or(|l| l.name != language.name))
        {
            return Err(BuildError::SeveralLanguages);
        }
        let main = if files.len() == 1 {
            files[0].clone()
        } else {
            files
                .iter()
                .find(|f| {
                    let stem = f
                        .file_stem()
                        .map_or(String::new(), |s| s.to_string_lossy().to_string());
                    stem == "main" || stem == "Main"
                })
                .cloned()
                .ok_or(BuildError::NoMain {
                    files: files.len(),
                    language: language.name,
                })?
        };
        Ok(Sources {
            files,
            language,
            main,
        })
    }

    /// The sources copied into directory `dir` (the build reads them there, and nothing of the
    /// package): the copies, in the same order, and the main file's copy.
    fn copied_into(&self, dir: &Path) -> Result<(Vec<PathBuf>, PathBuf), BuildError> {
        let mut copies = Vec::new();
        for file in &self.files {
            let copy = dir.join(file.file_name().unwrap_or_default());
            std::fs::copy(file, &copy).map_err(|e| BuildError::Copy {
                file: file.clone(),
                source: Arc::new(e),
            })?;
            copies.push(copy);
        }
        let main = dir.join(self.main.file_name().unwrap_or_default());
        Ok((copies, main))
    }
}

impl Builder<'_> {
    /// Builds the submission at `source`: the program to run, or why it cannot be
    /// (`compile-error: ...`). Its sources and what the build wrote end in `out` (the report's
    /// `build/NAME/`), where reproducing commands name them. Confined, the build reads a copy of
    /// the sources in the sandbox's runs directory and writes in its scratch, a tmpfs of
    /// [`referee_sandbox::BUILD_WRITES`] bytes; what it wrote is copied beside the sources, where
    /// the program's runs read it, and into `out`.
    fn build(&self, source: &Path, out: &Path) -> Result<Program, BuildError> {
        let sources = Sources::of(source)?;
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |e| BuildError::Io {
                path,
                source: Arc::new(e),
            }
        };
        std::fs::create_dir_all(out).map_err(io(out))?;
        let shown_dir = std::path::absolute(out).map_err(io(out))?;
        let shown = Words::of(&sources, &shown_dir, self)?;
        let Some(sandbox) = self.sandbox else {
            if !sources.language.build.is_empty() {
                self.compile(
                    sources.language,
                    shown.fill(sources.language.build, &shown_dir),
                )?;
            }
            return Ok(
                Program::from_argv(shown.fill(sources.language.run, &shown_dir))
                    .ended_by(self.interrupt),
            );
        };
        let boxed = sandbox
            .keep("build")
            .map_err(io(sandbox.scratch().as_path()))?;
        let words = Words::of(&sources, &boxed, self)?;
        if !sources.language.build.is_empty() {
            let mut argv = words.fill(sources.language.build, &sandbox.scratch());
            let mut reads = vec![boxed.clone()];
            if let Some(toolchain) = sources.language.toolchain.and_then(toolchain_of) {
                argv[0] = toolchain.join("bin").join(&argv[0]).display().to_string();
                reads.push(toolchain);
            }
            let shown_argv = shown.fill(sources.language.build, &shown_dir);
            let compiler = Program::in_jail(argv, shown_argv, sandbox, reads, Workspace::Build);
            let kept = self.compile(sources.language, compiler)?;
            if let Some(kept) = kept {
                kept.copy_into(&boxed).map_err(io(&boxed))?;
                kept.copy_into(&shown_dir).map_err(io(&shown_dir))?;
            }
        }
        Ok(Program::in_jail(
            words.fill(sources.language.run, &boxed),
            shown.fill(sources.language.run, &shown_dir),
            sandbox,
            vec![boxed],
            Workspace::Scratch,
        ))
    }

    /// Runs `compiler` (a program built with the build's words, confined or not) within the
    /// compile limits: what it wrote, when confined, or why the submission did not build.
    fn compile(
        &self,
        language: &Language,
        compiler: impl Into<Compiler>,
    ) -> Result<Option<Arc<referee_sandbox::Kept>>, BuildError> {
        let compiler = compiler.into().0.ended_by(self.interrupt);
        let shown = compiler.words().join(" ");
        let limits = Limits {
            cpu: self.cpu,
            memory: self.memory.max(BUILD_MEMORY),
            max_output: COMPILER_OUTPUT,
            ..Limits::default()
        };
        let run = compiler
            .run(b"", &limits, None)
            .map_err(|e| BuildError::CompilerNotRun {
                language: language.name,
                command: shown.clone(),
                source: Arc::new(e.into()),
            })?;
        // The scratch full, or a file as large as it (a sparse one takes no room): the C
        // library's words for both, in the C locale the sandbox sets.
        let said = String::from_utf8_lossy(&run.stderr_tail);
        let filled = run.kept.as_ref().is_some_and(|k| k.full())
            || said.contains("File size limit exceeded")
            || said.contains("No space left on device");
        let why = match run.ending {
            Ending::Exited(0) => return Ok(run.kept),
            Ending::Cut => return Err(BuildError::Interrupted),
            Ending::Exited(_) | Ending::Signalled(_) if filled => format!(
                "the build wrote {} or more, the most a build may write; {}",
                mebibytes(referee_sandbox::BUILD_WRITES),
                exit_text(run.ending)
            ),
            Ending::Exited(_) | Ending::Signalled(_) => {
                let message = String::from_utf8_lossy(&run.stderr_tail);
                let first = message.lines().take(3).collect::<Vec<_>>().join(" | ");
                format!("{}: {first}", exit_text(run.ending))
            }
            Ending::TimedOut | Ending::AnswerLate | Ending::WallCap => format!(
                "past the compile limit of {:.0} s of CPU time (--compile-time); {}",
                self.cpu.as_secs_f64(),
                run.stopped()
            ),
            Ending::MemoryLimit => format!(
                "over the build's memory limit of {}; {}",
                mebibytes(limits.memory),
                run.stopped()
            ),
            Ending::OutputLimit => format!(
                "the compiler wrote more than {} on standard output",
                mebibytes(COMPILER_OUTPUT as u64)
            ),
            Ending::Forbidden(refusal) => format!(
                "the compiler made a call the sandbox forbids: {}",
                refusal.call
            ),
        };
        Err(BuildError::Compile {
            language: language.name,
            command: shown,
            why,
        })
    }
}

/// A compiler to run: a program, confined or not.
struct Compiler(Program);

impl From<Program> for Compiler {
    fn from(program: Program) -> Compiler {
        Compiler(program)
    }
}

impl From<Vec<String>> for Compiler {
    fn from(argv: Vec<String>) -> Compiler {
        Compiler(Program::from_argv(argv))
    }
}

/// The words a submission's build and run commands are filled with, for its sources copied
/// into one directory.
struct Words {
    /// The sources' copies, in order.
    files: Vec<PathBuf>,
    /// The main file's copy.
    main: PathBuf,
    /// The main file's stem (a Java class).
    class: String,
    /// The memory limit in MiB.
    memory_mib: String,
    /// The Python 3 the sandbox runs.
    python3: &'static str,
}

impl Words {
    /// The words of `sources` copied into `dir`, for `builder`'s builds.
    fn of(sources: &Sources, dir: &Path, builder: &Builder) -> Result<Words, BuildError> {
        let (files, main) = sources.copied_into(dir)?;
        let class = main
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().to_string());
        Ok(Words {
            files,
            main,
            class,
            memory_mib: (builder.memory >> 20).to_string(),
            python3: python3(builder.sandbox.is_some()),
        })
    }

    /// The command `words`, its program and class files in `dir`.
    fn fill(&self, words: &[&str], dir: &Path) -> Vec<String> {
        let mut argv = Vec::new();
        for word in words {
            match *word {
                "{srcs}" => argv.extend(self.files.iter().map(|f| f.display().to_string())),
                "{bin}" => argv.push(dir.join("program").display().to_string()),
                "{dir}" => argv.push(dir.display().to_string()),
                "{main}" => argv.push(self.main.display().to_string()),
                "{class}" => argv.push(self.class.clone()),
                "{python3}" => argv.push(self.python3.to_string()),
                other => argv.push(other.replace("{memory}", &self.memory_mib)),
            }
        }
        argv
    }
}

/// Why a submission cannot be run: it did not build.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BuildError {
    /// Not built: the audit was interrupted first.
    #[error("not built: the audit was interrupted")]
    Interrupted,
    /// Its directory cannot be read.
    #[error("unreadable: {0}")]
    Unreadable(Arc<std::io::Error>),
    /// No source file of a known language.
    #[error("no source file of a known language ({})", LANGUAGES.map(|l| l.name).join(", "))]
    NoSource,
    /// Source files of several languages.
    #[error("source files of several languages")]
    SeveralLanguages,
    /// Several source files, none of them `main`.
    #[error("{files} {language} files and none named main")]
    NoMain {
        /// How many.
        files: usize,
        /// Their language.
        language: &'static str,
    },
    /// A source file that cannot be copied into the build's directory.
    #[error("{}: cannot copy: {source}", crate::util::walk::display(file))]
    Copy {
        /// The source file.
        file: PathBuf,
        /// Why.
        source: Arc<std::io::Error>,
    },
    /// The build's directory cannot be made ready.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: Arc<std::io::Error>,
    },
    /// Its files cannot be copied where its user can read them.
    #[error("cannot copy its files into the sandbox: {0}")]
    Staged(Arc<std::io::Error>),
    /// One of its own files (a script's directory is one) is, holds or lies in a path the audit
    /// keeps from every program.
    #[error(
        "{} would be among its own files (what its command names, and a script's directory), \
         and it is, holds or lies in {}, which no program may read (the package, the data, the \
         reports): put the program in a directory of its own, apart from them",
        crate::util::walk::display(own),
        crate::util::walk::display(protected)
    )]
    Protected {
        /// Its file or directory.
        own: PathBuf,
        /// The protected path it is, holds or lies in.
        protected: PathBuf,
    },
    /// The compiler cannot be started.
    #[error("compile-error: {language} ({command}): cannot run the compiler: {source}")]
    CompilerNotRun {
        /// The language.
        language: &'static str,
        /// The compiler's command.
        command: String,
        /// Why.
        source: Arc<std::io::Error>,
    },
    /// The compiler failed: `why` says how it ended.
    #[error("compile-error: {language} ({command}): {why}")]
    Compile {
        /// The language.
        language: &'static str,
        /// The compiler's command.
        command: String,
        /// How it ended (its exit and first lines of standard error, or the limit it hit).
        why: String,
    },
}

/// The directory a toolchain command prints (`rustc --print sysroot`), when it runs.
fn toolchain_of(command: &[&str]) -> Option<PathBuf> {
    let printed = Command::new(command[0])
        .args(&command[1..])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let dir = PathBuf::from(String::from_utf8_lossy(&printed.stdout).trim());
    dir.join("bin").is_dir().then_some(dir)
}

/// The Python 3 that runs submissions: `pypy3` when it is on `PATH` (Kattis and
/// problemtools run Python 3 with PyPy), else `python3`; confined, on the sandbox's `PATH`.
fn python3(confined: bool) -> &'static str {
    let path = if confined {
        Some(std::ffi::OsString::from(referee_sandbox::PATH))
    } else {
        std::env::var_os("PATH")
    };
    let on_path = |name: &str| {
        path.as_ref()
            .is_some_and(|paths| std::env::split_paths(paths).any(|dir| dir.join(name).is_file()))
    };
    if on_path("pypy3") {
        "pypy3"
    } else {
        "python3"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_submission_is_an_entrant_whatever_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let accepted = dir.path().join("submissions/accepted");
        std::fs::create_dir_all(&accepted).unwrap();
        for file in ["my sol.py", "my-sol.py", "\u{fc}n\u{ef}.py"] {
            std::fs::write(accepted.join(file), "print(1)\n").unwrap();
        }
        let interrupt = Interrupt::new();
        let builder = Builder {
            sandbox: None,
            cpu: std::time::Duration::from_secs(10),
            memory: 1 << 30,
            interrupt: &interrupt,
        };
        let mut notes = Vec::new();
        let build = dir.path().join("build");
        let entrants = from_package(dir.path(), &build, &mut notes, &builder).unwrap();
        let names: Vec<&str> = entrants.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "accepted/my-sol.py-2",
                "accepted/my-sol.py",
                "accepted/-n-.py"
            ]
        );
        assert_eq!(notes.len(), 2, "{notes:?}");
    }
}
