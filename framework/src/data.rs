//! Where reference data is found: the repository's `data/` (what may be
//! shipped, with `data/NOTICE`), then `$FRONTIER_DATA`, then
//! `../shared/data` beside the checkout (what may not be shipped).
//! Tests that need a file nobody can ship skip loudly on a user's machine
//! and fail under CI ([`for_test`]).

use std::path::{Path, PathBuf};

/// The repository's `data/` folder, as this crate was built.
pub fn shipped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// The folders searched, in order: the repository's `data/` (as built,
/// then beside the working directory), `$FRONTIER_DATA` (when set),
/// `../shared/data` beside the checkout this crate was built in, and
/// `../shared/data` beside the working directory.
pub fn roots() -> Vec<PathBuf> {
    // The checkout this crate was built in, then `data/` of the working
    // directory (a binary copied elsewhere and run from a checkout's root).
    let mut roots = vec![shipped(), PathBuf::from("data")];
    if let Some(dir) = std::env::var_os("FRONTIER_DATA") {
        roots.push(PathBuf::from(dir));
    }
    roots.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"));
    roots.push(PathBuf::from("../shared/data"));
    roots
}

/// The first root that holds `relative` (`tiles/korf100.tsv`).
pub fn find(relative: impl AsRef<Path>) -> Option<PathBuf> {
    roots()
        .into_iter()
        .map(|root| root.join(relative.as_ref()))
        .find(|path| path.exists())
}

/// One line that says `relative` is not here and where it is looked for.
pub fn missing(relative: impl AsRef<Path>) -> String {
    format!(
        "{} is not shipped with frontier (see data/NOTICE): pass your own file, or put the reference data under $FRONTIER_DATA or ../shared/data",
        relative.as_ref().display()
    )
}

/// Whether a missing data file fails a test rather than skipping it: under
/// CI (`CI=true`) or with `FRONTIER_REQUIRE_DATA=1`.
pub fn required() -> bool {
    let set =
        |name: &str| std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
    set("CI") || set("FRONTIER_REQUIRE_DATA")
}

/// `relative` for a test: its path, or `None` after printing
/// `SKIPPED (needs <file>; set FRONTIER_DATA)`; under CI a missing file
/// panics instead, so CI still runs every test.
pub fn for_test(relative: &str) -> Option<PathBuf> {
    if let Some(path) = find(relative) {
        return Some(path);
    }
    assert!(
        !required(),
        "MISSING TEST DATA: {relative} (looked in {:?}); set FRONTIER_DATA",
        roots()
    );
    // Straight to stderr, past the test harness's capture, so that the
    // skip shows in the run's output.
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED (needs {relative}; set FRONTIER_DATA)"
    );
    None
}
