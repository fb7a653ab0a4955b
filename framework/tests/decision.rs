//! The decision executor on a problem that is not Wordle: Mastermind with
//! few pegs and colours (black and white pegs as the outcome), checked
//! against exhaustive recursion, for `optimal`, `optimal_tree` and `sweep`.

use frontier_core::decision::{
    optimal, optimal_tree, sweep, DecisionProblem, RootCost, SweepOptions,
};
use frontier_core::Cost;

/// Mastermind with `pegs` positions and `colours` colours; a code is a
/// number in base `colours`.
struct Mastermind {
    pegs: u32,
    colours: u32,
}

impl Mastermind {
    fn codes(&self) -> u32 {
        self.colours.pow(self.pegs)
    }

    fn digits(&self, code: u32) -> Vec<u32> {
        (0..self.pegs)
            .map(|i| code / self.colours.pow(i) % self.colours)
            .collect()
    }

    /// (right colour in the right place, right colour elsewhere).
    fn score(&self, guess: u32, secret: u32) -> (u32, u32) {
        let (g, s) = (self.digits(guess), self.digits(secret));
        let black = g.iter().zip(&s).filter(|(a, b)| a == b).count() as u32;
        let common: u32 = (0..self.colours)
            .map(|c| {
                let in_g = g.iter().filter(|&&x| x == c).count();
                let in_s = s.iter().filter(|&&x| x == c).count();
                in_g.min(in_s) as u32
            })
            .sum();
        (black, common - black)
    }

    fn split(&self, state: &[u32], guess: u32) -> Vec<((u32, u32), Vec<u32>)> {
        let mut groups: std::collections::BTreeMap<(u32, u32), Vec<u32>> = Default::default();
        for &secret in state {
            groups
                .entry(self.score(guess, secret))
                .or_default()
                .push(secret);
        }
        groups
            .into_iter()
            .filter(|(outcome, _)| outcome.0 != self.pegs)
            .collect()
    }
}

impl DecisionProblem for Mastermind {
    type State = Vec<u32>;
    type Action = u32;
    type Outcome = (u32, u32);

    fn actions(&self, state: &Vec<u32>) -> Vec<(u32, Cost)> {
        let mut scored: Vec<(Cost, u32)> = (0..self.codes())
            .filter_map(|guess| {
                let groups = self.split(state, guess);
                // A guess that leaves every secret together learns nothing.
                if groups.len() == 1 && groups[0].1.len() == state.len() {
                    return None;
                }
                let after: Cost = groups.iter().map(|(_, g)| self.lower_bound(g)).sum();
                Some((state.len() as Cost + after, guess))
            })
            .collect();
        scored.sort_unstable();
        scored.into_iter().map(|(c, g)| (g, c)).collect()
    }

    fn apply(&self, state: &Vec<u32>, guess: &u32) -> (Cost, Vec<((u32, u32), Vec<u32>)>) {
        (state.len() as Cost, self.split(state, *guess))
    }

    fn lower_bound(&self, state: &Vec<u32>) -> Cost {
        (2 * state.len()).saturating_sub(1) as Cost
    }
}

/// The optimum with every guess tried, no bounds, no memo.
fn brute(game: &Mastermind, state: &[u32]) -> Cost {
    if state.is_empty() {
        return 0;
    }
    (0..game.codes())
        .filter_map(|guess| {
            let groups = game.split(state, guess);
            if groups.len() == 1 && groups[0].1.len() == state.len() {
                return None;
            }
            Some(state.len() as Cost + groups.iter().map(|(_, g)| brute(game, g)).sum::<Cost>())
        })
        .min()
        .unwrap_or(Cost::MAX)
}

fn first_guess_total(game: &Mastermind, state: &[u32], guess: u32) -> Cost {
    state.len() as Cost
        + game
            .split(state, guess)
            .iter()
            .map(|(_, g)| brute(game, g))
            .sum::<Cost>()
}

#[test]
fn mastermind_optimum_and_tree_match_exhaustive_search() {
    for (pegs, colours) in [(2, 3), (2, 4), (3, 2), (3, 3)] {
        let game = Mastermind { pegs, colours };
        let all: Vec<u32> = (0..game.codes()).collect();
        let want = brute(&game, &all);
        let got = optimal(&game, &all, Cost::MAX).expect("solvable");
        assert_eq!(got.cost, want, "{pegs} pegs, {colours} colours");
        assert!(
            optimal(&game, &all, want).is_none(),
            "the optimum is proven"
        );
        let (cost, tree) = optimal_tree(&game, &all, None).expect("solvable");
        assert_eq!(cost, want);
        // Playing the tree against every secret costs the optimum in total.
        let total: Cost = all
            .iter()
            .map(|&secret| {
                let answer = |&guess: &u32| {
                    let outcome = game.score(guess, secret);
                    (outcome.0 != pegs).then_some(outcome)
                };
                let depth = tree.actions_to_end(answer);
                depth.expect("every outcome has a subtree") as Cost
            })
            .sum();
        assert_eq!(total, want);
        // The graph export has a node per decision and an edge per outcome.
        let label = |g: &u32| format!("guess {g}");
        let outcome = |o: &(u32, u32)| format!("{}b{}w", o.0, o.1);
        let graph = tree.to_graph(&label, &outcome);
        assert_eq!(graph.node_count(), tree.size());
        assert_eq!(graph.edge_count(), tree.size() - 1);
        let dot = tree.to_dot(&label, &outcome);
        assert!(dot.starts_with("digraph"), "{dot}");
        assert_eq!(dot.matches(" -> ").count(), tree.size() - 1);
        assert!(
            dot.contains(&format!("label=\"guess {}\"", tree.action)),
            "{dot}"
        );
    }
}

#[test]
fn mastermind_sweep_judges_every_first_guess() {
    let game = Mastermind {
        pegs: 3,
        colours: 3,
    };
    let all: Vec<u32> = (0..game.codes()).collect();
    let firsts: Vec<u32> = game.actions(&all).into_iter().map(|(g, _)| g).collect();
    let want: Vec<Cost> = firsts
        .iter()
        .map(|&g| first_guess_total(&game, &all, g))
        .collect();
    let best = *want.iter().min().unwrap();
    for (threads, margin) in [(1, 0), (3, 0), (2, 3)] {
        let options = SweepOptions {
            threads,
            margin,
            incumbent: None,
            memo_limit: 1000,
            deadline: None,
        };
        let reported = std::sync::Mutex::new(0usize);
        let got = sweep(&game, &all, &firsts, &options, &|_, _| {
            *reported.lock().unwrap() += 1;
        });
        assert_eq!(*reported.lock().unwrap(), firsts.len());
        for ((&g, &want), got) in firsts.iter().zip(&want).zip(&got) {
            match got.expect("no deadline") {
                RootCost::Exact(c) => assert_eq!(c, want, "guess {g}"),
                RootCost::AtLeast(b) => {
                    assert!(
                        want >= b && want > best + margin,
                        "guess {g}: {b} vs {want}"
                    )
                }
            }
        }
    }
    // A deadline already past judges nothing (with an incumbent given, no
    // guess is solved before the workers start).
    let options = SweepOptions {
        threads: 2,
        margin: 0,
        incumbent: Some(best),
        memo_limit: 1000,
        deadline: Some(std::time::Instant::now()),
    };
    let got = sweep(&game, &all, &firsts, &options, &|_, _| {});
    assert!(got.iter().all(Option::is_none));
}
