//! Maze text parses or is refused with an error, never a panic.
//! The property is `frontier_core::grid::fuzz::grid_parse`, which `cargo test` also
//! runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier_core::grid::fuzz::grid_parse(data));
