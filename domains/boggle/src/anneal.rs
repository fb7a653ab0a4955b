//! High-scoring boards by simulated annealing.
//!
//! Each chain starts from a random board and proposes moves — re-roll one
//! die (a new letter, drawn by how often letters occur in the dictionary)
//! or swap two dice — accepting a worse board with probability
//! `exp(Δ/T)` while the temperature `T` falls geometrically from `t_start`
//! to `t_end`. Chains run in parallel (rayon here; a thread per chain in
//! [`crate::gpu`]) and are reproducible from the seed.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use frontier_core::rng::SplitMix64;
use rayon::prelude::*;

use crate::board::{Board, Shape};
use crate::solve::Scorer;
use crate::trie::Trie;
use crate::BoggleError;

/// Settings of an annealing run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnnealConfig {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Independent chains.
    pub chains: usize,
    /// Moves per chain.
    pub steps: u64,
    /// Starting temperature (in points).
    pub t_start: f64,
    /// Final temperature.
    pub t_end: f64,
    /// Seed; chain `i` uses a generator derived from `seed` and `i`.
    pub seed: u64,
    /// Stop all chains once a board scores at least this.
    pub target: Option<u32>,
    /// Stop after this many seconds.
    pub max_seconds: Option<f64>,
    /// How many of the best distinct boards to report.
    pub keep: usize,
}

impl Default for AnnealConfig {
    fn default() -> Self {
        AnnealConfig {
            rows: 4,
            cols: 4,
            chains: 64,
            steps: 20_000,
            t_start: 100.0,
            t_end: 1.0,
            seed: 1,
            target: None,
            max_seconds: None,
            keep: 10,
        }
    }
}

impl AnnealConfig {
    /// Rejects settings that cannot run.
    pub fn validate(&self) -> Result<(), BoggleError> {
        let bad = |m: String| Err(BoggleError::Config(m));
        if self.rows == 0
            || self.cols == 0
            || self.rows > crate::board::MAX_SIDE
            || self.cols > crate::board::MAX_SIDE
        {
            return bad(format!(
                "{}x{} boards are not supported",
                self.rows, self.cols
            ));
        }
        if self.rows * self.cols < 2 {
            return bad("annealing needs at least two cells".into());
        }
        if !(self.t_start.is_finite() && self.t_end > 0.0 && self.t_end <= self.t_start) {
            return bad(format!(
                "temperatures must satisfy 0 < t_end <= t_start (got {} and {})",
                self.t_start, self.t_end
            ));
        }
        if self.chains == 0 || self.steps == 0 {
            return bad("chains and steps must be positive".into());
        }
        if self.keep == 0 {
            return bad("keep 0: report at least one board".into());
        }
        Ok(())
    }

    /// The temperature at `step` of `steps`.
    pub fn temperature(&self, step: u64) -> f64 {
        let progress = step as f64 / self.steps.max(1) as f64;
        self.t_start * (self.t_end / self.t_start).powf(progress)
    }
}

/// What an annealing run found.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct AnnealResult {
    /// The best distinct boards, best first, with their scores.
    pub best: Vec<(String, u32)>,
    /// Boards scored.
    pub evaluated: u64,
    /// Chains started.
    pub chains: u64,
    /// Wall seconds.
    pub seconds: f64,
    /// Whether the target score was reached.
    pub reached_target: bool,
}

/// Letter weights for re-rolls: how often each letter labels a trie edge,
/// so common letters are proposed more often. Cumulative, for sampling.
pub fn letter_weights(trie: &Trie) -> [u64; 26] {
    let mut counts = [1u64; 26];
    for node in trie.nodes() {
        for (l, count) in counts.iter_mut().enumerate() {
            *count += u64::from(node.info >> l & 1);
        }
    }
    let mut total = 0;
    counts.map(|c| {
        total += c;
        total
    })
}

/// Draws a letter from cumulative weights.
pub fn draw_letter(rng: &mut SplitMix64, cumulative: &[u64; 26]) -> u8 {
    let x = rng.below(cumulative[25]);
    cumulative.partition_point(|&c| c <= x) as u8
}

/// Proposes a move on `board` in place; returns how to undo it.
pub fn propose(rng: &mut SplitMix64, board: &mut [u8], weights: &[u64; 26]) -> Undo {
    let n = board.len() as u64;
    let a = rng.below(n) as usize;
    if rng.below(2) == 0 {
        let old = board[a];
        let mut letter = draw_letter(rng, weights);
        while letter == old {
            letter = draw_letter(rng, weights);
        }
        board[a] = letter;
        Undo::Set(a, old)
    } else {
        let mut b = rng.below(n - 1) as usize;
        if b >= a {
            b += 1;
        }
        board.swap(a, b);
        Undo::Swap(a, b)
    }
}

/// How to take a proposed move back.
#[derive(Clone, Copy, Debug)]
pub enum Undo {
    /// Put this letter back in this cell.
    Set(usize, u8),
    /// Swap these cells again.
    Swap(usize, usize),
}

impl Undo {
    /// Restores the board.
    pub fn apply(self, board: &mut [u8]) {
        match self {
            Undo::Set(cell, letter) => board[cell] = letter,
            Undo::Swap(a, b) => board.swap(a, b),
        }
    }
}

/// Keeps the best distinct boards seen.
#[derive(Default)]
pub struct Leaderboard {
    keep: usize,
    boards: Vec<(String, u32)>,
}

impl Leaderboard {
    /// A leaderboard of `keep` entries.
    pub fn new(keep: usize) -> Self {
        Leaderboard {
            keep: keep.max(1),
            boards: Vec::new(),
        }
    }
    /// Offers a board; returns whether it is a new best.
    pub fn offer(&mut self, text: String, score: u32) -> bool {
        let best = self.boards.first().is_none_or(|b| score > b.1);
        if self.boards.iter().any(|b| b.0 == text) {
            return false;
        }
        if self.boards.len() < self.keep || self.boards.last().is_some_and(|b| score > b.1) {
            self.boards.push((text, score));
            self.boards
                .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            self.boards.truncate(self.keep);
        }
        best
    }
    /// Best first.
    pub fn boards(&self) -> &[(String, u32)] {
        &self.boards
    }
    /// The best score so far.
    pub fn best_score(&self) -> u32 {
        self.boards.first().map_or(0, |b| b.1)
    }
}

/// Runs the chains on all cores. `on_best` sees every new best board.
pub fn anneal(
    trie: &Trie,
    config: &AnnealConfig,
    on_best: &(dyn Fn(&str, u32) + Sync),
) -> Result<AnnealResult, BoggleError> {
    config.validate()?;
    let shape = Shape::new(config.rows, config.cols);
    let weights = letter_weights(trie);
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let evaluated = AtomicU64::new(0);
    let chains = AtomicU64::new(0);
    let board_text = |letters: &[u8]| {
        Board {
            rows: config.rows,
            cols: config.cols,
            letters: letters.to_vec(),
        }
        .text()
    };
    let leaders = Mutex::new(Leaderboard::new(config.keep));
    (0..config.chains as u64).into_par_iter().for_each_init(
        || Scorer::new(trie),
        |scorer, chain| {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            chains.fetch_add(1, Ordering::Relaxed);
            let mut rng = SplitMix64::new(config.seed ^ chain.wrapping_mul(0xA076_1D64_78BD_642F));
            let mut board: Vec<u8> = (0..shape.cells())
                .map(|_| draw_letter(&mut rng, &weights))
                .collect();
            let mut score = scorer.score_letters(&shape, &board);
            let (mut best, mut best_board) = (score, board.clone());
            let mut done = 1u64;
            for step in 0..config.steps {
                if step % 1024 == 0 && step > 0 {
                    evaluated.fetch_add(done, Ordering::Relaxed);
                    done = 0;
                    let late = config
                        .max_seconds
                        .is_some_and(|m| started.elapsed().as_secs_f64() >= m);
                    if late || stop.load(Ordering::Relaxed) {
                        break;
                    }
                }
                let temperature = config.temperature(step);
                let undo = propose(&mut rng, &mut board, &weights);
                let next = scorer.score_letters(&shape, &board);
                done += 1;
                let delta = f64::from(next) - f64::from(score);
                if delta >= 0.0 || rng.unit() < (delta / temperature).exp() {
                    score = next;
                    if score > best {
                        best = score;
                        best_board.clone_from(&board);
                    }
                } else {
                    undo.apply(&mut board);
                }
            }
            evaluated.fetch_add(done, Ordering::Relaxed);
            let text = board_text(&best_board);
            // A poisoned lock only means another chain panicked mid-offer;
            // the leaderboard itself is still consistent.
            let mut leaders = leaders.lock().unwrap_or_else(|e| e.into_inner());
            if leaders.offer(text.clone(), best) {
                on_best(&text, best);
            }
            if config.target.is_some_and(|t| best >= t) {
                stop.store(true, Ordering::Relaxed);
            }
        },
    );
    let leaders = leaders.into_inner().unwrap_or_else(|e| e.into_inner());
    let reached_target = config.target.is_some_and(|t| leaders.best_score() >= t);
    Ok(AnnealResult {
        best: leaders.boards().to_vec(),
        evaluated: evaluated.into_inner(),
        chains: chains.into_inner(),
        seconds: started.elapsed().as_secs_f64(),
        reached_target,
    })
}
