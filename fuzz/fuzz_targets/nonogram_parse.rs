//! `.nin`/`.non` text parses or is refused; round-trips; solutions of
//! small puzzles satisfy the clues.
//! The property is `frontier_nonogram::fuzz::nonogram_parse`, which `cargo test` also
//! runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier_nonogram::fuzz::nonogram_parse(data));
