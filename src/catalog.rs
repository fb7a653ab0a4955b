//! Every domain the CLI knows, one line each: the only place that names
//! the domain adapters (`domains/`), which themselves depend only on the
//! registry.

crate::domains! {
    /// A 4-connected maze with weighted cells (the framework's demo domain).
    Grid => crate::domains::grid::GridCli,
    /// Sliding-tile puzzles (8-, 15-, 24-puzzle) with pattern databases.
    Tiles => crate::domains::tiles::TilesCli,
    /// Boggle boards scored against a word list.
    Boggle => crate::domains::boggle::BoggleCli,
    /// Wordle first guesses, each proven: the fewest guesses in total.
    Wordle => crate::domains::wordle::WordleCli,
    /// Nonogram puzzles, each with a checked verdict.
    Nonogram => crate::domains::nonogram::NonogramCli,
    /// Pancake sorting (flip the top k) with the gap heuristic.
    Pancake => crate::domains::pancake::PancakeCli,
}
