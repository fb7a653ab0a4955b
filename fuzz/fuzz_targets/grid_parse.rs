//! The maze parser rejects malformed text with an error, never a panic.
#![no_main]
use frontier_core::grid::Grid;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = Grid::parse(text);
    }
});
