//! Experiment configs (RON, every domain) never panic: any text parses and
//! plans, or is refused with an error, exactly as `frontier run` would
//! before its first search (grid keys and values checked per domain and
//! executor, grids too large to run refused).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = frontier::check_config(text);
    }
});
