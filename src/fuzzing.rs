//! Every fuzz target of the bundled domains, gathered from their crates
//! (`frontier_tiles::fuzz`, …, each on `frontier_core::fuzz`), and the one
//! that belongs to the command line itself: RON experiments. `fuzz/` runs
//! them under libFuzzer; `cargo test` runs them on edits of their seeds
//! (`tests/fuzz.rs`).

use frontier_core::fuzz::Target;

/// Any text as an experiment config (every bundled domain) parses and
/// plans as `frontier run` would before its first search, or is refused.
pub fn config_parse(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = crate::check_config(text);
    }
}

fn config_seeds() -> Vec<Vec<u8>> {
    [
        include_str!("../configs/demo.ron"),
        include_str!("../configs/pancake-60.ron"),
        include_str!("../configs/wordle-prove.ron"),
        include_str!("../configs/nonogram-common.ron"),
        include_str!("../configs/boggle-reference.ron"),
        include_str!("../configs/gpu-ida-kf24.ron"),
        include_str!("../configs/bench-hda-15.ron"),
    ]
    .iter()
    .map(|t| t.as_bytes().to_vec())
    .collect()
}

/// The command line's own target.
pub const CONFIG: Target = Target {
    name: "config_parse",
    property: config_parse,
    seeds: config_seeds,
    alphabet: b"(),:[]\"0a-{}",
};

/// Every target: each bundled domain's, then [`CONFIG`].
pub fn targets() -> Vec<Target> {
    [
        frontier_tiles::fuzz::TARGETS,
        frontier_core::grid::fuzz::TARGETS,
        frontier_nonogram::fuzz::TARGETS,
        frontier_boggle::fuzz::TARGETS,
        frontier_pancake::fuzz::TARGETS,
        frontier_wordle::fuzz::TARGETS,
        std::slice::from_ref(&CONFIG),
    ]
    .concat()
}

/// The target called `name`, if there is one.
pub fn target(name: &str) -> Option<Target> {
    targets().into_iter().find(|t| t.name == name)
}
