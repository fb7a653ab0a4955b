//! A line's known cells and clue: the quick line solver fixes only what
//! the exact one fixes, and finds a contradiction only where it does.
//! The property is `frontier_nonogram::fuzz::nonogram_overlap`, which `cargo test`
//! also runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier_nonogram::fuzz::nonogram_overlap(data));
