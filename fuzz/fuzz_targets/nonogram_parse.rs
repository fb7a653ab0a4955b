//! Puzzle text in either format parses or is rejected with an error, never a
//! panic; a small puzzle that parses is solved and every solution it reports
//! satisfies the clues.
#![no_main]
use frontier_nonogram::{solve_cdcl, Puzzle, SolveOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(puzzle) = Puzzle::parse(text) else { return };
    assert_eq!(Puzzle::parse_non(&puzzle.to_non()).ok(), Some(puzzle.clone()));
    if puzzle.width * puzzle.height <= 64 {
        let outcome = solve_cdcl(&puzzle, &SolveOptions { max_seconds: Some(1.0), ..SolveOptions::default() });
        assert!(outcome.solutions.iter().all(|s| puzzle.accepts(s)));
    }
});
