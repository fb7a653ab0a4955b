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

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::Hash;

use crate::domain::Cost;

/// The states an action can lead to, each with the outcome leading there.
pub type Outcomes<P> = Vec<(
    <P as DecisionProblem>::Outcome,
    <P as DecisionProblem>::State,
)>;

/// An optimal tree of problem `P` with its cost.
pub type CostedTree<P> = (
    Cost,
    Tree<<P as DecisionProblem>::Action, <P as DecisionProblem>::Outcome>,
);

/// A problem for [`optimal`].
pub trait DecisionProblem: Sync {
    /// A state (for Wordle: the candidates still possible).
    type State: Clone + Eq + Hash + Send + Sync;
    /// An action (for Wordle: a guess).
    type Action: Clone + Send + Sync + std::fmt::Debug;
    /// What nature answers (for Wordle: the feedback), to label trees.
    type Outcome: Clone + Send + Sync + std::fmt::Debug;

    /// Actions worth considering in `state`, each with an admissible lower
    /// bound on the cost of a tree that starts with it, in increasing order
    /// of that bound: the search stops at the first action whose bound
    /// reaches the best tree found.
    fn actions(&self, state: &Self::State) -> Vec<(Self::Action, Cost)>;
    /// What taking `action` costs now, and the states it can lead to with
    /// the outcome that leads there (an outcome that ends the problem is
    /// left out).
    fn apply(&self, state: &Self::State, action: &Self::Action) -> (Cost, Outcomes<Self>);
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

#[derive(Clone)]
enum Known<A> {
    /// The optimum and an action that reaches it.
    Exact(Cost, A),
    AtLeast(Cost),
}

/// States are hashed often (every child's bound): a fast fixed-seed hasher.
type Memo<P> = HashMap<
    <P as DecisionProblem>::State,
    Known<<P as DecisionProblem>::Action>,
    foldhash::fast::FixedState,
>;

/// One search: the problem and what has been proven about its states.
/// The search runs on one thread, so the memo needs no lock.
struct Solver<'p, P: DecisionProblem> {
    problem: &'p P,
    memo: RefCell<Memo<P>>,
}

impl<'p, P: DecisionProblem> Solver<'p, P> {
    fn new(problem: &'p P) -> Self {
        Solver {
            problem,
            memo: RefCell::new(HashMap::with_hasher(foldhash::fast::FixedState::with_seed(
                0xD3C1,
            ))),
        }
    }

    /// The best lower bound known for `state`, and its optimum with an
    /// action if that is known.
    fn known(&self, state: &P::State) -> (Cost, Option<(Cost, P::Action)>) {
        match self.memo.borrow().get(state) {
            Some(Known::Exact(c, a)) => (*c, Some((*c, a.clone()))),
            Some(Known::AtLeast(c)) => ((*c).max(self.problem.lower_bound(state)), None),
            None => (self.problem.lower_bound(state), None),
        }
    }

    fn bound(&self, state: &P::State) -> Cost {
        self.known(state).0
    }

    /// The optimum of `state` if it is below `budget`, else `None` (and the
    /// memo learns that the optimum is at least `budget`).
    fn solve(&self, state: &P::State, budget: Cost) -> Option<(Cost, Option<P::Action>)> {
        let (bound, exact) = self.known(state);
        if bound >= budget {
            return None;
        }
        if let Some((c, a)) = exact {
            return Some((c, Some(a)));
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
        let proven = match &best {
            Some((c, a)) => Known::Exact(*c, a.clone()),
            None => Known::AtLeast(budget),
        };
        self.memo.borrow_mut().insert(state.clone(), proven);
        best.map(|(c, a)| (c, Some(a)))
    }

    /// The cost of `action` in `state` if below `limit`.
    fn try_action(&self, state: &P::State, action: &P::Action, limit: Cost) -> Option<Cost> {
        let (cost, children) = self.problem.apply(state, action);
        let mut bounds: Vec<Cost> = children.iter().map(|(_, c)| self.bound(c)).collect();
        let mut total = cost.saturating_add(bounds.iter().sum::<Cost>());
        if total >= limit {
            return None;
        }
        for (i, (_, child)) in children.iter().enumerate() {
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
    let solver = Solver::new(problem);
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
    let solver = Solver::new(problem);
    solver.try_action(state, action, Cost::MAX)
}

/// An optimal decision tree: the action at the root and, per outcome that
/// does not end the problem, the subtree.
#[derive(Clone, Debug)]
pub struct Tree<A, O> {
    /// The action taken here.
    pub action: A,
    /// Outcomes and the subtrees they lead to.
    pub children: Vec<(O, Tree<A, O>)>,
}

impl<A, O> Tree<A, O> {
    /// Number of nodes.
    pub fn size(&self) -> usize {
        1 + self.children.iter().map(|(_, t)| t.size()).sum::<usize>()
    }
}

/// The optimum of `state` (with the first action fixed to `first` if
/// given) and an optimal tree, read back from the memo of the search.
pub fn optimal_tree<P: DecisionProblem>(
    problem: &P,
    state: &P::State,
    first: Option<&P::Action>,
) -> Option<CostedTree<P>> {
    let solver = Solver::new(problem);
    let (cost, action) = match first {
        Some(action) => (solver.try_action(state, action, Cost::MAX)?, action.clone()),
        None => {
            let (cost, action) = solver.solve(state, Cost::MAX)?;
            (cost, action?)
        }
    };
    Some((cost, extract(&solver, state, action)?))
}

fn extract<P: DecisionProblem>(
    solver: &Solver<P>,
    state: &P::State,
    action: P::Action,
) -> Option<Tree<P::Action, P::Outcome>> {
    let (_, outcomes) = solver.problem.apply(state, &action);
    let mut children = Vec::with_capacity(outcomes.len());
    for (outcome, child) in outcomes {
        // Every child of an optimal action was solved exactly (memo hit).
        let (_, best) = solver.solve(&child, Cost::MAX)?;
        children.push((outcome, extract(solver, &child, best?)?));
    }
    Some(Tree { action, children })
}
