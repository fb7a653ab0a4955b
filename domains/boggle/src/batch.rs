//! Scoring many boards at once on all cores.

use frontier_core::rng::SplitMix64;
use rayon::prelude::*;

use crate::board::{random_letters, Letters, Shape};
use crate::solve::Scorer;
use crate::trie::Trie;

/// Scores `boards` (each `shape.cells()` letters, concatenated) on all
/// cores; one score per board, in order.
pub fn score_batch(trie: &Trie, shape: &Shape, boards: &[u8]) -> Vec<u32> {
    let cells = shape.cells().max(1);
    // Chunks of boards per task so each task reuses one scorer (its stamp
    // array is as large as the trie).
    boards
        .par_chunks(cells * 4096)
        .flat_map_iter(|chunk| {
            let mut scorer = Scorer::new(trie);
            chunk
                .chunks_exact(cells)
                .map(|b| scorer.score_letters(shape, b))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `count` random boards of `shape`, concatenated, reproducible from `seed`.
pub fn random_boards(shape: &Shape, count: usize, kind: Letters, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut boards = vec![0u8; count * shape.cells()];
    for board in boards.chunks_exact_mut(shape.cells().max(1)) {
        random_letters(&mut rng, kind, board);
    }
    boards
}
