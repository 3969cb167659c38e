//! `referee-keeper`: the process that starts each confined run of a sandbox, started by the
//! program that uses the sandbox from beside it; see the crate's `keeper` module. Not for
//! running by hand.
//!
//! Its `main` is the C one: a keeper's life is a few system calls and an `exec`, and std's own
//! start (the main thread's stack guard, found by reading `/proc/self/maps`) would be most of
//! its cost.

#![no_main]

#[cfg(target_os = "linux")]
#[no_mangle]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    referee_sandbox::keeper::main()
}

#[cfg(not(target_os = "linux"))]
#[no_mangle]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    eprintln!("referee-keeper: confined runs need Linux");
    2
}
