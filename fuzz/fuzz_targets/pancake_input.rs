//! Stack text and packed words parse or are refused; exact round-trips.
//! The property is `frontier_pancake::fuzz::pancake_input`, which `cargo test` also
//! runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier_pancake::fuzz::pancake_input(data));
