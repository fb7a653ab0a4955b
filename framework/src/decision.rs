//! AND/OR decision search: the cheapest decision tree (policy) of a problem
//! where a chooser picks an action (OR node) and nature answers with one of
//! several outcomes (AND node) — Wordle's guesses and feedback, Mastermind.
//!
//! A tree's cost is the sum over outcomes, so the optimum of a state is
//! `min over actions (cost(action) + Σ optimum(child))`. [`optimal`] finds
//! it by depth-first branch and bound: actions in the problem's order (best
//! first), children's admissible lower bounds summed before any child is
//! solved, a child solved only with the budget left after the others'
//! bounds, and a memo of exact optima and proven lower bounds per state.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

use crate::domain::Cost;

/// A problem for [`optimal`].
pub trait DecisionProblem: Sync {
    /// A state (for Wordle: the candidates still possible).
    type State: Clone + Eq + Hash + Send + Sync;
    /// An action (for Wordle: a guess).
    type Action: Clone + Send + Sync + std::fmt::Debug;

    /// Actions worth considering in `state`, each with an admissible lower
    /// bound on the cost of a tree that starts with it, in increasing order
    /// of that bound: the search stops at the first action whose bound
    /// reaches the best tree found.
    fn actions(&self, state: &Self::State) -> Vec<(Self::Action, Cost)>;
    /// What taking `action` costs now, and the states it can lead to (an
    /// outcome that ends the problem is left out).
    fn apply(&self, state: &Self::State, action: &Self::Action) -> (Cost, Vec<Self::State>);
    /// An admissible lower bound on the optimum of `state`.
    fn lower_bound(&self, state: &Self::State) -> Cost;
}

/// The optimum of a state and the action that achieves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision<A> {
    /// Optimal cost.
    pub cost: Cost,
    /// The first action of an optimal tree.
    pub action: Option<A>,
}

#[derive(Clone, Copy)]
enum Known {
    Exact(Cost),
    AtLeast(Cost),
}

struct Solver<'p, P: DecisionProblem> {
    problem: &'p P,
    memo: Mutex<HashMap<P::State, Known>>,
}

impl<P: DecisionProblem> Solver<'_, P> {
    fn bound(&self, state: &P::State) -> Cost {
        let known = self.memo.lock().ok().and_then(|m| m.get(state).copied());
        match known {
            Some(Known::Exact(c)) => c,
            Some(Known::AtLeast(c)) => c.max(self.problem.lower_bound(state)),
            None => self.problem.lower_bound(state),
        }
    }

    /// The optimum of `state` if it is below `budget`, else `None` (and the
    /// memo learns that the optimum is at least `budget`).
    fn solve(&self, state: &P::State, budget: Cost) -> Option<(Cost, Option<P::Action>)> {
        let bound = self.bound(state);
        if bound >= budget {
            return None;
        }
        if let Some(Known::Exact(c)) = self.memo.lock().ok().and_then(|m| m.get(state).copied()) {
            return Some((c, None));
        }
        let mut best: Option<(Cost, P::Action)> = None;
        let mut limit = budget;
        for (action, action_bound) in self.problem.actions(state) {
            if action_bound >= limit {
                break;
            }
            if let Some(cost) = self.try_action(state, &action, limit) {
                limit = cost;
                best = Some((cost, action));
                if cost <= bound {
                    break;
                }
            }
        }
        if let Ok(mut memo) = self.memo.lock() {
            match &best {
                Some((c, _)) => memo.insert(state.clone(), Known::Exact(*c)),
                None => memo.insert(state.clone(), Known::AtLeast(budget)),
            };
        }
        best.map(|(c, a)| (c, Some(a)))
    }

    /// The cost of `action` in `state` if below `limit`.
    fn try_action(&self, state: &P::State, action: &P::Action, limit: Cost) -> Option<Cost> {
        let (cost, children) = self.problem.apply(state, action);
        let mut bounds: Vec<Cost> = children.iter().map(|c| self.bound(c)).collect();
        let mut total = cost.saturating_add(bounds.iter().sum::<Cost>());
        if total >= limit {
            return None;
        }
        for (i, child) in children.iter().enumerate() {
            // The child may use what the others' bounds leave of the limit.
            let room = limit - (total - bounds[i]);
            let (exact, _) = self.solve(child, room)?;
            total = total - bounds[i] + exact;
            bounds[i] = exact;
            if total >= limit {
                return None;
            }
        }
        Some(total)
    }
}

/// The optimal decision in `state`, proven: no tree is cheaper than the
/// returned cost. `budget` caps the search (`Cost::MAX`: none); `None`
/// means every tree costs at least `budget`.
pub fn optimal<P: DecisionProblem>(
    problem: &P,
    state: &P::State,
    budget: Cost,
) -> Option<Decision<P::Action>> {
    let solver = Solver {
        problem,
        memo: Mutex::new(HashMap::new()),
    };
    solver
        .solve(state, budget)
        .map(|(cost, action)| Decision { cost, action })
}

/// The optimum of `state` when the first action is fixed to `action`.
pub fn optimal_with<P: DecisionProblem>(
    problem: &P,
    state: &P::State,
    action: &P::Action,
) -> Option<Cost> {
    let solver = Solver {
        problem,
        memo: Mutex::new(HashMap::new()),
    };
    solver.try_action(state, action, Cost::MAX)
}
