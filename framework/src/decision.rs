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

/// An optimum of problem `P`, with an optimal tree where one was asked for.
pub type MaybeTree<P> = (
    Cost,
    Option<Tree<<P as DecisionProblem>::Action, <P as DecisionProblem>::Outcome>>,
);

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
    /// reaches the best tree found, and takes the first action's bound as
    /// a lower bound of the state. So an action may be left out only if no
    /// tree through it is cheaper than that first bound (or it has no tree
    /// at all, such as one past a limit); a shortcut that returns a single
    /// action must prove its bound is the state's optimum under every
    /// limit the state carries.
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

/// A search over one problem that keeps what it proves: optima and lower
/// bounds of the states it met. Calls on the same search share that memo,
/// so a sweep over many first actions solves shared sub-states once.
/// The search runs on one thread, so the memo needs no lock; give each
/// thread its own.
pub struct DecisionSearch<'p, P: DecisionProblem> {
    problem: &'p P,
    memo: RefCell<Memo<P>>,
    tighten: bool,
}

impl<'p, P: DecisionProblem> DecisionSearch<'p, P> {
    /// A search with an empty memo.
    pub fn new(problem: &'p P) -> Self {
        DecisionSearch {
            problem,
            memo: RefCell::new(HashMap::with_hasher(foldhash::fast::FixedState::with_seed(
                0xD3C1,
            ))),
            tighten: false,
        }
    }

    /// The same search, but before solving any child of an action it
    /// raises every child's bound to its cheapest action's bound. Under a
    /// tight budget (a sweep judging first actions against the best so
    /// far) most actions are refuted by that alone — measured on Wordle,
    /// a sample of first guesses took 8 s instead of over 10 minutes —
    /// while an exact solve without a budget only pays for it (~20%).
    pub fn tightening(mut self) -> Self {
        self.tighten = true;
        self
    }

    /// The optimal decision in `state`, proven: no tree is cheaper than the
    /// returned cost. `budget` caps the search (`Cost::MAX`: none); `None`
    /// means every tree costs at least `budget`.
    pub fn optimal(&self, state: &P::State, budget: Cost) -> Option<Decision<P::Action>> {
        self.solve(state, budget)
            .map(|(cost, action)| Decision { cost, action })
    }

    /// The optimum of `state` when the first action is fixed to `action`,
    /// if it is below `budget`; `None` proves it is at least `budget`.
    pub fn optimal_with(&self, state: &P::State, action: &P::Action, budget: Cost) -> Option<Cost> {
        self.try_action(state, action, budget)
    }

    /// States in the memo.
    pub fn memo_len(&self) -> usize {
        self.memo.borrow().len()
    }

    /// Empties the memo (to bound memory in long sweeps).
    pub fn forget(&self) {
        self.memo.borrow_mut().clear();
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

    /// A bound one step deeper than the memo's: the cheapest action's
    /// bound, remembered. Cheap next to solving, and it lets a sibling
    /// fail the limit before any child is searched in depth.
    fn tightened(&self, state: &P::State) -> (Cost, bool) {
        let (bound, exact) = self.known(state);
        if exact.is_some() {
            return (bound, true);
        }
        let deeper = self
            .problem
            .actions(state)
            .first()
            .map_or(Cost::MAX, |&(_, b)| b);
        if deeper > bound {
            self.memo
                .borrow_mut()
                .insert(state.clone(), Known::AtLeast(deeper));
            return (deeper, false);
        }
        (bound, false)
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
        let mut floor = Cost::MAX;
        for (action, action_bound) in self.problem.actions(state) {
            floor = floor.min(action_bound);
            if action_bound >= limit {
                break;
            }
            if let Some(cost) = self.try_action(state, &action, limit) {
                limit = cost;
                best = Some((cost, action));
                // Optimal once it meets a lower bound of the state: `bound`
                // (admissible), or `floor`, the first listed action's bound.
                // `floor` is one because `actions` lists every action worth
                // taking in order of bound, or (a problem's shortcut) one
                // action whose bound the problem proves a lower bound of the
                // state (see `DecisionProblem::actions`).
                if cost <= bound.max(floor) {
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
        let mut bounds: Vec<Cost> = children.iter().map(|(_, c)| self.known(c).0).collect();
        // Summed in u64: a child with no tree at all (a problem whose
        // actions run out, such as Wordle under a guess limit) is bounded by
        // `Cost::MAX`, and several of those overflow a `Cost`.
        let limit = u64::from(limit);
        let mut total = u64::from(cost) + bounds.iter().map(|&b| u64::from(b)).sum::<u64>();
        if total >= limit {
            return None;
        }
        // With tightening, every child's bound is raised one step before
        // any child is solved: a hopeless action is then usually refuted at
        // a fraction of a solve.
        let mut exact = vec![false; children.len()];
        if children.len() > 1 && self.tighten {
            for (i, (_, child)) in children.iter().enumerate() {
                let (b, done) = self.tightened(child);
                total = total - u64::from(bounds[i]) + u64::from(b);
                bounds[i] = b;
                exact[i] = done;
                if total >= limit {
                    return None;
                }
            }
        }
        for i in (0..children.len()).filter(|&i| !exact[i]) {
            // The child may use what the others' bounds leave of the limit;
            // below `limit`, so it fits a `Cost`.
            let room = (limit - (total - u64::from(bounds[i]))) as Cost;
            let (solved, _) = self.solve(&children[i].1, room)?;
            total = total - u64::from(bounds[i]) + u64::from(solved);
            bounds[i] = solved;
            if total >= limit {
                return None;
            }
        }
        // Below `limit`, itself a `Cost`.
        Some(total as Cost)
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
    DecisionSearch::new(problem).optimal(state, budget)
}

/// The optimum of `state` when the first action is fixed to `action`.
pub fn optimal_with<P: DecisionProblem>(
    problem: &P,
    state: &P::State,
    action: &P::Action,
) -> Option<Cost> {
    DecisionSearch::new(problem).optimal_with(state, action, Cost::MAX)
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

    /// How many actions the tree takes until the problem ends, played
    /// against one hidden truth: `answer(action)` is the outcome nature gives,
    /// or `None` when the action ends the problem. `None` if an outcome has
    /// no subtree.
    pub fn actions_to_end(&self, answer: impl Fn(&A) -> Option<O>) -> Option<usize>
    where
        O: PartialEq,
    {
        let (mut node, mut taken) = (self, 1);
        while let Some(outcome) = answer(&node.action) {
            node = &node.children.iter().find(|(o, _)| *o == outcome)?.1;
            taken += 1;
        }
        Some(taken)
    }

    /// The tree as a petgraph graph: a node per decision labelled by
    /// `action`, an edge per outcome labelled by `outcome`; node 0 is the root.
    pub fn to_graph(
        &self,
        action: &impl Fn(&A) -> String,
        outcome: &impl Fn(&O) -> String,
    ) -> petgraph::graph::DiGraph<String, String> {
        fn add<A, O>(
            tree: &Tree<A, O>,
            graph: &mut petgraph::graph::DiGraph<String, String>,
            action: &impl Fn(&A) -> String,
            outcome: &impl Fn(&O) -> String,
        ) -> petgraph::graph::NodeIndex {
            let me = graph.add_node(action(&tree.action));
            for (o, child) in &tree.children {
                let them = add(child, graph, action, outcome);
                graph.add_edge(me, them, outcome(o));
            }
            me
        }
        let mut graph = petgraph::graph::DiGraph::with_capacity(self.size(), self.size());
        add(self, &mut graph, action, outcome);
        graph
    }

    /// The tree in Graphviz DOT, labelled as [`Tree::to_graph`] does.
    pub fn to_dot(
        &self,
        action: &impl Fn(&A) -> String,
        outcome: &impl Fn(&O) -> String,
    ) -> String {
        use petgraph::dot::{Config, Dot};
        let graph = self.to_graph(action, outcome);
        let dot = Dot::with_attr_getters(
            &graph,
            &[Config::NodeNoLabel, Config::EdgeNoLabel],
            &|_, edge| format!("label={:?}", edge.weight()),
            &|_, (_, label)| format!("label={label:?}, shape=box, fontname=monospace"),
        );
        format!("{dot:?}")
    }
}

/// The optimum of `state` (with the first action fixed to `first` if
/// given) and an optimal tree, read back from the memo of the search.
pub fn optimal_tree<P: DecisionProblem>(
    problem: &P,
    state: &P::State,
    first: Option<&P::Action>,
) -> Option<CostedTree<P>> {
    let solver = DecisionSearch::new(problem);
    let (cost, action) = match first {
        Some(action) => (solver.try_action(state, action, Cost::MAX)?, action.clone()),
        None => {
            let (cost, action) = solver.solve(state, Cost::MAX)?;
            (cost, action?)
        }
    };
    Some((cost, extract(&solver, state, action)?))
}

/// The optimum of `state` when the first action is `action`, with its
/// outcomes solved on `threads` threads, and an optimal tree when
/// `want_tree`. The cost of a tree is its action's cost plus the sum of
/// its outcomes' optima, and each outcome is solved to its exact optimum
/// (no budget), so the outcomes are independent problems: this finds the
/// same total as [`optimal_with`]. Each thread keeps one memo across the
/// outcomes it takes, largest lower bound first. `None`: some outcome has
/// no tree.
pub fn optimal_with_on_threads<P: DecisionProblem>(
    problem: &P,
    state: &P::State,
    action: &P::Action,
    threads: usize,
    want_tree: bool,
) -> Option<MaybeTree<P>>
where
    P::Action: Send,
{
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Mutex;

    let (cost, mut outcomes) = problem.apply(state, action);
    outcomes.sort_by_key(|(_, child)| std::cmp::Reverse(problem.lower_bound(child)));
    let solved: Mutex<Vec<Option<MaybeTree<P>>>> =
        Mutex::new((0..outcomes.len()).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, outcomes.len().max(1)) {
            scope.spawn(|| {
                let search = DecisionSearch::new(problem);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= outcomes.len() || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let child = &outcomes[i].1;
                    let result = search.solve(child, Cost::MAX).and_then(|(c, best)| {
                        if !want_tree {
                            return Some((c, None));
                        }
                        Some((c, Some(extract(&search, child, best?)?)))
                    });
                    if result.is_none() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    // A poisoned lock only means another worker panicked;
                    // the panic surfaces at join.
                    if let Ok(mut all) = solved.lock() {
                        all[i] = result;
                    }
                }
            });
        }
    });
    if failed.load(Ordering::Relaxed) {
        return None;
    }
    let solved = solved.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut total = u64::from(cost);
    let mut children = Vec::with_capacity(outcomes.len());
    for ((outcome, _), result) in outcomes.into_iter().zip(solved) {
        let (c, tree) = result?;
        total += u64::from(c);
        if let Some(tree) = tree {
            children.push((outcome, tree));
        }
    }
    let total = Cost::try_from(total).ok()?;
    let tree = want_tree.then(|| Tree {
        action: action.clone(),
        children,
    });
    Some((total, tree))
}

fn extract<P: DecisionProblem>(
    solver: &DecisionSearch<P>,
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

/// What a sweep proved about one first action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootCost {
    /// The optimum with this first action.
    Exact(Cost),
    /// Every tree starting with this action costs at least this much.
    AtLeast(Cost),
}

/// How [`sweep`] runs.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// Worker threads.
    pub threads: usize,
    /// Exact costs are proven for every first action within this much of
    /// the best (0: only the best and its ties).
    pub margin: Cost,
    /// The best cost known before the sweep (from an earlier partial run),
    /// if any; it tightens every budget from the start.
    pub incumbent: Option<Cost>,
    /// A worker empties its memo when it holds more states than this.
    pub memo_limit: usize,
    /// No action is started after this instant (those left are `None`).
    pub deadline: Option<std::time::Instant>,
}

/// Every first action of `state` judged, on `options.threads` threads:
/// each action's optimum if it is within `margin` of the best, else a
/// proven lower bound that puts it outside. Actions are taken in the given
/// order (best first makes the budgets tight early); each thread keeps its
/// own memo across actions. `report` sees each result as it is proven (for
/// progress and checkpoints) with the action's index in `actions`; actions
/// not started before the deadline are `None`.
pub fn sweep<P: DecisionProblem>(
    problem: &P,
    state: &P::State,
    actions: &[P::Action],
    options: &SweepOptions,
    report: &(dyn Fn(usize, RootCost) + Sync),
) -> Vec<Option<RootCost>> {
    use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
    use std::sync::Mutex;

    let best = AtomicU32::new(options.incumbent.unwrap_or(Cost::MAX));
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![None; actions.len()]);
    // Judges action `i` under `budget`, lowers the best, reports, records.
    let judge = |search: &DecisionSearch<P>, i: usize, budget: Cost| {
        let result = match search.optimal_with(state, &actions[i], budget) {
            Some(cost) => {
                best.fetch_min(cost, Ordering::Relaxed);
                RootCost::Exact(cost)
            }
            None => RootCost::AtLeast(budget),
        };
        report(i, result);
        // A poisoned lock only means another worker panicked; its slot
        // stays unset and the panic surfaces at join.
        if let Ok(mut all) = results.lock() {
            all[i] = Some(result);
        }
    };
    // Without an incumbent every worker would solve its action without a
    // budget: solve the first (presumably best) alone to get one.
    if options.incumbent.is_none() && !actions.is_empty() {
        judge(&DecisionSearch::new(problem), 0, Cost::MAX);
        next.store(1, Ordering::Relaxed);
    }
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            scope.spawn(|| {
                let search = DecisionSearch::new(problem).tightening();
                loop {
                    if options
                        .deadline
                        .is_some_and(|d| std::time::Instant::now() >= d)
                    {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= actions.len() {
                        break;
                    }
                    let budget = best
                        .load(Ordering::Relaxed)
                        .saturating_add(options.margin)
                        .saturating_add(1);
                    judge(&search, i, budget);
                    if search.memo_len() > options.memo_limit {
                        search.forget();
                    }
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}
