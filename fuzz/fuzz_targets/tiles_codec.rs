//! Arbitrary packed words decode to a valid board that re-encodes to the
//! same words, or are refused.
//! The property is `frontier_tiles::fuzz::tiles_codec`, which `cargo test` also
//! runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier_tiles::fuzz::tiles_codec(data));
