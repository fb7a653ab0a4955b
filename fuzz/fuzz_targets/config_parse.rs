//! Any text as an experiment config (every domain) parses and plans as
//! `frontier run` would, or is refused; never a panic.
//! The property is `frontier::fuzzing::config_parse`, which `cargo test` also
//! runs (tests/fuzz.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| frontier::fuzzing::config_parse(data));
