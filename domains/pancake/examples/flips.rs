//! A random stack of 16 pancakes sorted by A* with the gap heuristic, the
//! flips replayed: `cargo run -p frontier-pancake --example flips [SEED]`.

use frontier_core::rng::SplitMix64;
use frontier_core::{astar, Domain, SearchOptions};
use frontier_pancake::{Gap, Pancake};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let stack = Pancake::random(16, &mut SplitMix64::new(seed))?;
    println!("stack (top first): {}", stack.text());
    let outcome = astar(&stack, &Gap, &SearchOptions::default())?;
    let solution = outcome.solution().ok_or("every stack can be sorted")?;
    let sorted = stack
        .replay(&solution.moves)
        .ok_or("a flip that does not apply")?;
    assert!(stack.is_goal(&sorted));
    println!(
        "{} flips (flip the top k): {:?}; {} states expanded",
        solution.cost, solution.moves, outcome.stats.expanded
    );
    Ok(())
}
