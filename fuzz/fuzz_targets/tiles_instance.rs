//! Any text given as a tiles instance is parsed or refused; an accepted
//! instance round-trips through the codec.
//! The property is `frontier_tiles::fuzz::tiles_instance`, which `cargo test` also
//! runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier_tiles::fuzz::tiles_instance(data));
