//! A results file or a proof certificate parses or is refused; a results
//! file that parses reads back the same once written out.
//! The property is `frontier_boggle::fuzz::boggle_proof_files`, which `cargo
//! test` also runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier_boggle::fuzz::boggle_proof_files(data));
