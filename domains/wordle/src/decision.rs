//! Wordle as a [`DecisionProblem`]: a state is the set of answers still
//! possible, an action a guess, its cost one guess for every answer in the
//! state, its outcomes the candidate sets of each feedback other than
//! all-green. The optimum of the full answer set is the fewest guesses in
//! total over all answers.

use frontier_core::decision::DecisionProblem;
use frontier_core::Cost;
use rayon::prelude::*;

use crate::game::{FeedbackTable, ALL_GREEN};

/// The decision problem over a feedback table.
pub struct WordleTree<'t> {
    table: &'t FeedbackTable,
}

impl<'t> WordleTree<'t> {
    /// The problem for `table`.
    pub fn new(table: &'t FeedbackTable) -> Self {
        WordleTree { table }
    }

    fn split(&self, state: &[u32], g: usize) -> Vec<(u8, Vec<u32>)> {
        let row = self.table.row(g);
        let mut groups: Vec<Vec<u32>> = vec![Vec::new(); 243];
        for &a in state {
            groups[row[a as usize] as usize].push(a);
        }
        groups
            .into_iter()
            .enumerate()
            .filter(|(code, group)| *code != ALL_GREEN as usize && !group.is_empty())
            .map(|(code, group)| (code as u8, group))
            .collect()
    }
}

/// At best one answer is found by the next guess; every other needs two.
fn bound(n: usize) -> Cost {
    (2 * n).saturating_sub(1) as Cost
}

impl DecisionProblem for WordleTree<'_> {
    type State = Vec<u32>;
    type Action = usize;
    /// The feedback code.
    type Outcome = u8;

    /// Every guess that splits the state, most promising first: the fewest
    /// guesses by the bound after it, then candidates before others.
    fn actions(&self, state: &Vec<u32>) -> Vec<(usize, Cost)> {
        let n = state.len();
        // A candidate that tells all the others apart reaches the bound
        // 2n − 1, so it is optimal: look among the candidates first.
        for &a in state {
            let Some(g) = self.table.guess_index_of_answer(a as usize) else {
                continue;
            };
            let row = self.table.row(g);
            let mut seen = [false; 243];
            if state
                .iter()
                .all(|&b| !std::mem::replace(&mut seen[row[b as usize] as usize], true))
            {
                return vec![(g, bound(n))];
            }
        }
        let mut scored: Vec<(Cost, bool, usize)> = (0..self.table.guesses.len())
            .into_par_iter()
            .with_min_len(256)
            .filter_map(|g| {
                let row = self.table.row(g);
                let mut counts = [0u16; 243];
                let (mut touched, mut used) = ([0u8; 243], 0usize);
                for &a in state {
                    let code = row[a as usize];
                    if counts[code as usize] == 0 {
                        touched[used] = code;
                        used += 1;
                    }
                    counts[code as usize] += 1;
                }
                let wins = counts[ALL_GREEN as usize] > 0;
                // A guess that leaves every candidate together learns nothing.
                if !wins && used == 1 {
                    return None;
                }
                let after: Cost = touched[..used]
                    .iter()
                    .filter(|&&code| code != ALL_GREEN)
                    .map(|&code| bound(counts[code as usize] as usize))
                    .sum();
                Some((n as Cost + after, !wins, g))
            })
            .collect();
        scored.sort_unstable();
        scored.into_iter().map(|(cost, _, g)| (g, cost)).collect()
    }

    fn apply(&self, state: &Vec<u32>, g: &usize) -> (Cost, Vec<(u8, Vec<u32>)>) {
        (state.len() as Cost, self.split(state, *g))
    }

    fn lower_bound(&self, state: &Vec<u32>) -> Cost {
        bound(state.len())
    }
}
