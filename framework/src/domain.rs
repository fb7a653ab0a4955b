//! The seam between a search problem and the executors.
//!
//! A domain implements [`Domain`] (start, successors, goal) and at least one
//! [`Heuristic`]. Everything else is opt-in: [`StateHasher`] and
//! [`Partitioner`] for parallel executors (a blanket default exists for any
//! hashable state), [`PackedState`] for the GPU and for fuzzing codecs.

use std::fmt::Debug;
use std::hash::{BuildHasher, Hash};

/// Path cost. Integer so that f-values compare exactly and fit GPU words.
///
/// Maximisation problems (Boggle's best board) are mapped onto minimisation:
/// edge cost = `MAX − score`, heuristic = `MAX − upper bound`.
pub type Cost = u32;

/// One successor of a state: the state reached, the move that reached it
/// (kept only to print solutions) and the edge cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge<S, M> {
    /// The state the move leads to.
    pub state: S,
    /// The label of the move, for printing and replaying solutions.
    pub mv: M,
    /// The edge cost, added to g.
    pub cost: Cost,
}

/// A search problem: a start state, a successor function and a goal test.
///
/// `expand` pushes into a caller-owned buffer so that executors reuse one
/// allocation per worker instead of allocating per expansion.
///
/// States that compare equal may still carry auxiliary data that is not part
/// of their identity (the tiles domain remembers the last move so it can
/// skip undoing it); executors keep the copy reached by the cheapest path.
///
/// ```
/// use frontier_core::{grid::Grid, Domain};
/// let maze = Grid::parse("S.\n.G").unwrap();
/// let mut out = Vec::new();
/// maze.expand(&maze.start(), &mut out);
/// assert_eq!(out.len(), 2);
/// assert!(!maze.is_goal(&maze.start()));
/// ```
pub trait Domain: Send + Sync {
    /// A node of the search space. Cloned into the closed table, so keep it
    /// small (packed words beat vectors).
    type State: Clone + Eq + Hash + Send + Sync + Debug;
    /// An edge label, for printing and replaying solutions.
    type Move: Clone + Debug + Send + Sync;

    /// The state the search starts from.
    fn start(&self) -> Self::State;
    /// Appends every successor of `state` to `out` (which the caller clears).
    fn expand(&self, state: &Self::State, out: &mut Vec<Edge<Self::State, Self::Move>>);
    /// Whether `state` is a goal.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// A lower bound on the cheapest path from `from` to `to`, for any two
    /// states, if the domain has one (the default: none). It must never
    /// exceed the true cost. With it a finished path can be re-solved a
    /// stretch at a time toward states of its own
    /// ([`crate::search::windows`]), where a [`Heuristic`] only knows the
    /// way to the goal.
    fn estimate_between(&self, from: &Self::State, to: &Self::State) -> Option<Cost> {
        let _ = (from, to);
        None
    }
}

/// An admissible lower bound on the cost from a state to the nearest goal.
///
/// ```
/// use frontier_core::{grid::{Grid, Manhattan}, Domain, Heuristic};
/// let maze = Grid::parse("S..\n...\n..G").unwrap();
/// assert_eq!(Manhattan.h(&maze, &maze.start()), 4);
/// ```
pub trait Heuristic<D: Domain>: Send + Sync {
    /// The lower bound. Must never exceed the true cost-to-go.
    fn h(&self, domain: &D, state: &D::State) -> Cost;
    /// The bound for `child`, a successor of `parent` whose bound is
    /// `parent_h`. Override it when the bound can be updated from the
    /// parent's more cheaply than computed afresh (Manhattan distance).
    #[inline]
    fn h_child(&self, domain: &D, parent: &D::State, parent_h: Cost, child: &D::State) -> Cost {
        let _ = (parent, parent_h);
        self.h(domain, child)
    }
    /// Whether `h(s) <= c(s, s') + h(s')` on every edge. Executors skip the
    /// reopening bookkeeping only when this is true. Default: false, which
    /// is always safe (A* then reopens a node reached again more cheaply);
    /// a heuristic says true with a comment on why it holds.
    fn consistent(&self) -> bool {
        false
    }

    /// The value a beam ranks `state` by in place of its bound `h` (the
    /// layer's best `width` by g + w·rank). It need not be admissible: a
    /// beam's solution is not optimal anyway, and its proven lower bound
    /// still comes from `h` alone. A heuristic whose `h` orders states of
    /// equal depth poorly adds here what `h` cannot count (sliding tiles:
    /// conflicts between tiles of different pattern databases). Default:
    /// `h`.
    #[inline]
    fn rank(&self, domain: &D, state: &D::State, h: Cost) -> Cost {
        let _ = (domain, state);
        h
    }

    /// [`Heuristic::rank`] of `child` (bound `h`), a successor of `parent`
    /// whose bound is `parent_h` and rank `parent_rank`. Override it when
    /// the rank updates from the parent's more cheaply than computed
    /// afresh, as [`Heuristic::h_child`] does for h.
    #[inline]
    fn rank_child(
        &self,
        domain: &D,
        parent: &D::State,
        parent_h: Cost,
        parent_rank: Cost,
        child: &D::State,
        h: Cost,
    ) -> Cost {
        let _ = (parent, parent_h, parent_rank);
        self.rank(domain, child, h)
    }

    /// Each of `children`'s `(h, rank)`, pushed onto `out` in order: the
    /// children of `parent`, as
    /// [`Heuristic::h_child`] and [`Heuristic::rank_child`] make them one
    /// by one. A beam asks for a parent's children at once; override it
    /// where work on the parent can be shared by its children (the tiles'
    /// databases: the parent's indices once, a child's moved tile's after;
    /// a learned network: the parent's table sums once). The override must
    /// give the same numbers. Default: [`children_one_by_one`].
    fn children_h_and_rank(
        &self,
        domain: &D,
        parent: Parent<'_, D::State>,
        children: &[Edge<D::State, D::Move>],
        out: &mut Vec<(Cost, Cost)>,
    ) {
        children_one_by_one(self, domain, parent, children, out);
    }

    /// Operator selection for enhanced partial expansion (Felner et al.,
    /// JAIR 2012), where the heuristic can tell a move's effect on f
    /// without building the child: push onto `out` only the successors of
    /// `state` (whose bound is `h`) whose f exceeds the parent's by exactly
    /// `rise` (edge cost + child bound − `h`), and return the smallest
    /// larger rise any successor has (`None`: no successor above). The
    /// default returns `None` overall: A* then generates every successor and
    /// keeps those it needs. Used only with a consistent heuristic (no rise
    /// is negative). Pancake's gap heuristic is the worked example.
    fn expand_rising_by(
        &self,
        domain: &D,
        state: &D::State,
        h: Cost,
        rise: Cost,
        out: &mut Vec<Edge<D::State, D::Move>>,
    ) -> Option<Option<Cost>> {
        let _ = (domain, state, h, rise, out);
        None
    }
}

/// Moves applied to one state in place and undone: the depth-first
/// executors' fast path ([`crate::search::ida::ida_in_place`]), with no
/// state cloned and nothing allocated per node (HOG2's `ApplyAction` /
/// `UndoAction`). Optional: a domain without it runs through
/// [`Domain::expand`].
///
/// The ops at a state, in [`InPlace::ops`]'s order, must be the moves of
/// [`Domain::expand`] in its order, so that both paths search the same tree
/// and count the same nodes.
pub trait InPlace: Domain {
    /// A move as the in-place path knows it: small and `Copy`.
    type Op: Copy + Eq + Send + Sync + Debug;

    /// Appends to `out` (which the caller clears) the ops that apply at
    /// `state`; `last` is the op that reached `state` (`None` at a root),
    /// so that a domain can leave out the one that undoes it, as its
    /// `expand` does.
    fn ops(&self, state: &Self::State, last: Option<Self::Op>, out: &mut Vec<Self::Op>);
    /// Applies `op`, which [`InPlace::ops`] listed for `state`; returns its
    /// cost.
    fn apply(&self, state: &mut Self::State, op: Self::Op) -> Cost;
    /// Undoes `op`, just applied to `state`.
    fn undo(&self, state: &mut Self::State, op: Self::Op);
    /// `op` as a move of a reported path.
    fn move_of(&self, op: Self::Op) -> Self::Move;
    /// The op that takes `from` to `to`, a state [`Domain::expand`] made
    /// from it, if one does (IDA\* steps move pruning's automaton down its
    /// split of the start with it, a million nodes on a GPU). The default
    /// tries each op of `from`; a domain that can read the op off the two
    /// states (tiles: where the blank went) answers at once.
    fn op_between(&self, from: &Self::State, to: &Self::State) -> Option<Self::Op> {
        let mut ops = Vec::new();
        self.ops(from, None, &mut ops);
        let mut at = from.clone();
        ops.into_iter().find(|&op| {
            self.apply(&mut at, op);
            let reached = at == *to;
            self.undo(&mut at, op);
            reached
        })
    }

    // The move algebra, for move pruning
    // ([`crate::search::move_pruning`]); optional.

    /// How many kinds of op there are; ops are numbered
    /// `0..op_count()` ([`InPlace::op_index`]). 0, the default: not
    /// numbered, and move pruning is refused.
    fn op_count(&self) -> usize {
        0
    }
    /// `op`'s number, below [`InPlace::op_count`]. Of two equally cheap and
    /// long sequences to a state, the one with the smaller numbers is kept.
    fn op_index(&self, op: Self::Op) -> usize {
        let _ = op;
        0
    }
    /// How many move contexts there are: classes of states from which the
    /// same op sequences apply, with effects that differ only by what the
    /// states hold (tiles: the blank's cell; pancakes: one class). 0, the
    /// default: not described, and move pruning is refused.
    fn context_count(&self) -> usize {
        0
    }
    /// The move context of `state`, below [`InPlace::context_count`].
    fn context(&self, state: &Self::State) -> usize {
        let _ = state;
        0
    }
    /// A state of move context `context` from which any two op sequences
    /// that reach one state do so from every state of the context (tiles:
    /// any state, since its tiles are distinct).
    fn witness(&self, context: usize) -> Option<Self::State> {
        let _ = context;
        None
    }
    /// A key of everything the move algebra depends on (tiles: the board's
    /// shape and the goal), when two values of this type with equal keys
    /// have the same ops, contexts and witnesses: a search then reuses an
    /// automaton built for an earlier one in the same process (a run of
    /// Korf's 100 builds one). `None`, the default: built every time.
    fn algebra_key(&self) -> Option<u64> {
        None
    }
}

/// A heuristic's incremental side for [`InPlace`] domains: what a state's
/// bound is made of (tiles: each pattern database's value and the tiles'
/// cells), kept per depth and updated from the parent's by one move.
pub trait InPlaceHeuristic<D: InPlace>: Heuristic<D> {
    /// Per-state detail; copied once per node, so keep it small.
    type Detail: Clone + Default + Send;

    /// The bound of a root `state`, with its detail written into `detail`.
    fn root(&self, domain: &D, state: &D::State, detail: &mut Self::Detail) -> Cost;
    /// The bound of `state`, which `op` just reached from the state whose
    /// detail is `parent` and bound `parent_h`; writes its detail into
    /// `child`. Must equal [`Heuristic::h`] of `state`.
    fn after(
        &self,
        domain: &D,
        state: &D::State,
        op: D::Op,
        parent: &Self::Detail,
        parent_h: Cost,
        child: &mut Self::Detail,
    ) -> Cost;

    /// As [`InPlaceHeuristic::after`], for a caller that needs the bound
    /// exactly only when it is below `cap`: where the bound `h` is at
    /// least `cap`, any `v` with `cap <= v <= h` may be returned instead,
    /// and `child` may be left part-written (the caller prunes the state
    /// and never reads it). A heuristic that is a maximum of parts can
    /// stop at the first part that reaches `cap`. The default is exact.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn after_below(
        &self,
        domain: &D,
        state: &D::State,
        op: D::Op,
        parent: &Self::Detail,
        parent_h: Cost,
        child: &mut Self::Detail,
        cap: Cost,
    ) -> Cost {
        let _ = cap;
        self.after(domain, state, op, parent, parent_h, child)
    }
}

/// The heuristic that knows nothing: turns A* into Dijkstra's algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Blind;

impl<D: Domain> Heuristic<D> for Blind {
    fn h(&self, _: &D, _: &D::State) -> Cost {
        0
    }

    /// Zero everywhere: `0 <= c + 0` on every edge.
    fn consistent(&self) -> bool {
        true
    }
}

/// A 64-bit hash of a state, for closed tables that are not Rust maps (the
/// GPU's hash table, HDA*'s partitioning).
pub trait StateHasher<D: Domain>: Send + Sync {
    /// The hash; equal states must hash equally.
    fn hash(&self, state: &D::State) -> u64;
}

/// Hashes any `Hash` state with a fixed-seed hasher, so results are
/// reproducible across runs and threads.
#[derive(Clone, Copy, Debug, Default)]
pub struct StdHasher;

/// The seed of [`StdHasher`]; fixed so every worker and every run agrees.
const STD_HASHER_SEED: u64 = 0x243F_6A88_85A3_08D3;

impl<D: Domain> StateHasher<D> for StdHasher {
    #[inline]
    fn hash(&self, state: &D::State) -> u64 {
        foldhash::fast::FixedState::with_seed(STD_HASHER_SEED).hash_one(state)
    }
}

/// Decides which of `parts` workers (threads, GPUs) owns a state in
/// hash-distributed search. A good partitioner spreads work evenly and keeps
/// most successors with their parent's owner.
pub trait Partitioner<D: Domain>: Send + Sync {
    /// The owner, in `0..parts`.
    fn owner(&self, domain: &D, state: &D::State, parts: u32) -> u32;
}

/// Maps a 64-bit hash onto `0..parts` by multiply-shift (no modulo bias).
#[inline]
pub fn reduce(hash: u64, parts: u32) -> u32 {
    ((u128::from(hash) * u128::from(parts.max(1))) >> 64) as u32
}

/// Hash partitioning: uniform, but almost every successor changes owner.
impl<D: Domain> Partitioner<D> for StdHasher {
    #[inline]
    fn owner(&self, _: &D, state: &D::State, parts: u32) -> u32 {
        reduce(StateHasher::<D>::hash(self, state), parts)
    }
}

/// Why packed words could not be decoded into a state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// The buffer has the wrong number of words.
    #[error("expected {expected} packed words, got {got}")]
    Length {
        /// Words the domain packs into.
        expected: usize,
        /// Words supplied.
        got: usize,
    },
    /// The words do not describe a valid state of this domain.
    #[error("packed words are not a valid state: {0}")]
    Invalid(String),
}

/// A fixed-width `u32` encoding of states, for device memory and fuzzing.
///
/// Implemented by the domain rather than the state because the width can
/// depend on the instance (a 4×4 board packs into 2 words, a 5×5 into 4).
/// `unpack` must reject every word pattern that `pack` cannot produce.
pub trait PackedState: Domain {
    /// Words per state for this instance.
    fn packed_words(&self) -> usize;
    /// Writes `state` into `out`, which has exactly `packed_words()` words.
    fn pack(&self, state: &Self::State, out: &mut [u32]);
    /// Reads a state back, validating everything.
    fn unpack(&self, words: &[u32]) -> Result<Self::State, CodecError>;

    /// What a state carries beyond its identity, for executors that move
    /// whole states between processes (`mpi-hda`): the sliding tiles' last
    /// move, say, without which the successors would include the parent
    /// again. Equal states may differ here. Default: nothing.
    fn pack_extra(&self, _state: &Self::State) -> u32 {
        0
    }

    /// Restores what [`Self::pack_extra`] wrote into an unpacked state;
    /// values it cannot have written are ignored.
    fn unpack_extra(&self, _state: &mut Self::State, _extra: u32) {}
}

/// [`Heuristic::children_h_and_rank`] one child at a time:
/// [`Heuristic::h_child`], then [`Heuristic::rank_child`]. For overrides
/// that share the parent's work only in some cases.
pub fn children_one_by_one<D: Domain, H: Heuristic<D> + ?Sized>(
    heuristic: &H,
    domain: &D,
    parent: Parent<'_, D::State>,
    children: &[Edge<D::State, D::Move>],
    out: &mut Vec<(Cost, Cost)>,
) {
    let Parent { state, h, rank } = parent;
    for edge in children {
        let child_h = heuristic.h_child(domain, state, h, &edge.state);
        let child_rank = heuristic.rank_child(domain, state, h, rank, &edge.state, child_h);
        out.push((child_h, child_rank));
    }
}

/// A state a beam expands, with its bound and rank: what
/// [`Heuristic::children_h_and_rank`] makes its children's from.
#[derive(Clone, Copy, Debug)]
pub struct Parent<'a, S> {
    /// The state.
    pub state: &'a S,
    /// Its bound, [`Heuristic::h`].
    pub h: Cost,
    /// Its rank, [`Heuristic::rank`].
    pub rank: Cost,
}
