//! A small nonogram solved with a uniqueness verdict, each solution checked
//! against the clues: `cargo run -p frontier-nonogram --example picture
//! [PUZZLE.non]`.

use frontier_nonogram::{solve_cdcl, Puzzle, SolveOptions};

const HEART: &str = "width 5\nheight 5\n\nrows\n1,1\n5\n5\n3\n1\n\ncolumns\n2\n4\n4\n4\n2\n";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = match std::env::args().nth(1) {
        Some(path) => std::fs::read_to_string(path)?,
        None => HEART.to_string(),
    };
    let puzzle = Puzzle::parse(&text)?;
    let outcome = solve_cdcl(&puzzle, &SolveOptions::default());
    println!("verdict: {:?}", outcome.verdict);
    for solution in &outcome.solutions {
        assert!(puzzle.accepts(solution), "a solution that breaks a clue");
        for row in solution.chunks(puzzle.width) {
            let line: String = row.iter().map(|&on| if on { '#' } else { '.' }).collect();
            println!("{line}");
        }
        println!();
    }
    Ok(())
}
