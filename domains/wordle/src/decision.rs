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

    fn split(&self, state: &[u32], g: usize) -> Vec<Vec<u32>> {
        let row = self.table.row(g);
        let mut groups: Vec<Vec<u32>> = vec![Vec::new(); 243];
        for &a in state {
            groups[row[a as usize] as usize].push(a);
        }
        groups
            .into_iter()
            .enumerate()
            .filter(|(code, group)| *code != ALL_GREEN as usize && !group.is_empty())
            .map(|(_, group)| group)
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
        // Counts per feedback code, reset through the list of codes touched,
        // so a small state costs O(its size) per guess, not O(243).
        let mut scored: Vec<(Cost, bool, usize)> = (0..self.table.guesses.len())
            .into_par_iter()
            .map_init(
                || ([0u32; 243], Vec::with_capacity(243)),
                |(counts, touched), g| {
                    let row = self.table.row(g);
                    for &a in state {
                        let code = row[a as usize] as usize;
                        if counts[code] == 0 {
                            touched.push(code);
                        }
                        counts[code] += 1;
                    }
                    let wins = counts[ALL_GREEN as usize] > 0;
                    let splits = wins || touched.len() > 1;
                    let mut after: Cost = 0;
                    for &code in touched.iter() {
                        if code != ALL_GREEN as usize {
                            after += bound(counts[code] as usize);
                        }
                        counts[code] = 0;
                    }
                    touched.clear();
                    // A guess that leaves every candidate together learns nothing.
                    splits.then_some((n as Cost + after, !wins, g))
                },
            )
            .flatten()
            .collect();
        scored.sort_unstable();
        scored.into_iter().map(|(cost, _, g)| (g, cost)).collect()
    }

    fn apply(&self, state: &Vec<u32>, g: &usize) -> (Cost, Vec<Vec<u32>>) {
        (state.len() as Cost, self.split(state, *g))
    }

    fn lower_bound(&self, state: &Vec<u32>) -> Cost {
        bound(state.len())
    }
}
