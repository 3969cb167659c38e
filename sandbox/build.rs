//! Gives each build of the crate a number of its own (`REFEREE_SANDBOX_BUILD`): the keeper
//! program and the library that starts it must be of the same build, since the requests
//! between them are this build's encoding. Cargo runs this again whenever a file of the crate
//! changes.

fn main() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    println!("cargo:rustc-env=REFEREE_SANDBOX_BUILD={nanos}");
}
