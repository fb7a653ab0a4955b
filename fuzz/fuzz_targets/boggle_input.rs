//! A word list and a board parse or are refused; small boards score the
//! same with the tuned solver and the path listing.
//! The property is `frontier_boggle::fuzz::boggle_input`, which `cargo test` also
//! runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier_boggle::fuzz::boggle_input(data));
