//! A line's known cells and clue: the automaton cut that explains an
//! infeasible line or a deduced cell to the conflict-driven search is a
//! part of the known cells that the line solver still finds infeasible.
//! The property is `frontier_nonogram::fuzz::nonogram_explain`, which `cargo test`
//! also runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier_nonogram::fuzz::nonogram_explain(data));
