//! The hardest 8-puzzle (31 moves) on three executors, each answer
//! replayed: `cargo run -p frontier-tiles --example eight_puzzle`, or give
//! your own board (`-- "1 2 3 4 5 6 0 7 8"`, 0 the blank).

use frontier_core::{astar, hda, ida, Domain, HdaConfig, IdaConfig, SearchOptions, StdHasher};
use frontier_tiles::{Goal, Manhattan, Tiles};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "8 6 7 2 5 4 3 0 1".to_string());
    let puzzle = Tiles::parse(&text, Goal::Standard)?;
    let h = Manhattan::new(puzzle.board(), Goal::Standard);
    let options = SearchOptions::default();
    let outcomes = [
        ("A*", astar(&puzzle, &h, &options)?),
        (
            "HDA* on 2 threads",
            hda(
                &puzzle,
                &h,
                &StdHasher,
                &HdaConfig {
                    threads: 2,
                    ..HdaConfig::default()
                },
                &options,
            )?,
        ),
        (
            "IDA* on 2 threads",
            ida(
                &puzzle,
                &h,
                &IdaConfig {
                    threads: 2,
                    ..IdaConfig::default()
                },
                &options,
            )?,
        ),
    ];
    for (name, outcome) in outcomes {
        let Some(solution) = outcome.solution() else {
            println!("{name}: no solution ({:?})", outcome.status);
            continue;
        };
        // A path is only trusted once it is replayed from the start.
        let mut state = puzzle.start();
        let mut edges = Vec::new();
        for mv in &solution.moves {
            edges.clear();
            puzzle.expand(&state, &mut edges);
            let edge = edges
                .iter()
                .find(|e| &e.mv == mv)
                .ok_or("an illegal move")?;
            state = edge.state;
        }
        assert!(puzzle.is_goal(&state), "the moves do not solve the board");
        println!(
            "{name}: {} moves, {} expanded, {:?}",
            solution.cost, outcome.stats.expanded, solution.moves
        );
    }
    Ok(())
}
