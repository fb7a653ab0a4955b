//! Word lists and feedback strings parse or are refused; print -> parse
//! equality.
//! The property is `frontier_wordle::fuzz::wordle_input`, which `cargo test` also
//! runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier_wordle::fuzz::wordle_input(data));
