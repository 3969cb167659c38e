//! The `referee` command: parse arguments, run, map to an exit code (see `referee::cli`).

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    referee::cli::main()
}
