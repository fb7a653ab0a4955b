//! Pancake sorting: a stack of N pancakes of sizes 1..=N, listed from the
//! top; a move flips the top k (2 ≤ k ≤ N) at unit cost; the goal is the
//! sorted stack (smallest on top). The gap heuristic (Helmert 2010) counts
//! adjacent pairs — the plate below the bottom pancake counting as size
//! N + 1 — whose sizes differ by more than one: a flip mends at most one
//! gap, so it is admissible and consistent.
//!
//! ```
//! use frontier_core::{astar, SearchOptions};
//! use frontier_pancake::{Gap, Pancake};
//! let stack = Pancake::parse("3 1 4 2").unwrap();
//! let outcome = astar(&stack, &Gap, &SearchOptions::default())?;
//! assert_eq!(outcome.solution().map(|s| s.cost), Some(4));
//! # Ok::<(), frontier_core::Error>(())
//! ```

use frontier_core::domain::CodecError;
use frontier_core::rng::SplitMix64;
use frontier_core::zobrist::Features;
use frontier_core::{Cost, Domain, Edge, Heuristic, PackedState};

/// The `frontier` command line's plugin for this domain: `solve` flags,
/// the RON block, and the domain's own subcommands.
#[cfg(feature = "cli")]
pub mod cli;
/// Fuzz properties of this domain's parsers and codec, on
/// `frontier_core::fuzz`.
pub mod fuzz;
#[cfg(feature = "gpu")]
mod gpu;

/// The largest stack: sizes are bytes, and the GPU plugin unrolls flips.
pub const MAX_PANCAKES: usize = 128;

/// What can be wrong with a stack.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PancakeError {
    /// A token that is not a size.
    #[error("'{0}' is not a pancake size (a whole number from 1)")]
    NotASize(String),
    /// Sizes must be 1..=N, each once.
    #[error("the sizes must be 1 to {n}, each once: {problem}")]
    NotAPermutation {
        /// Stack height.
        n: usize,
        /// What is off.
        problem: String,
    },
    /// Outside 1..=MAX_PANCAKES pancakes.
    #[error("{0} pancakes: a stack holds 1 to {MAX_PANCAKES}")]
    Height(usize),
}

/// A stack, top first: `0[i]` is the size of the i-th pancake from the top.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stack(pub Vec<u8>);

impl Stack {
    /// The stack after flipping the top `k` pancakes.
    pub fn flipped(&self, k: usize) -> Stack {
        let mut next = self.0.clone();
        next[..k].reverse();
        Stack(next)
    }
}

/// One instance: the stack to sort.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pancake {
    start: Stack,
}

impl Pancake {
    /// Reads sizes separated by spaces or commas, top first ("3 1 4 2").
    pub fn parse(text: &str) -> Result<Pancake, PancakeError> {
        let sizes = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<usize>()
                    .map_err(|_| PancakeError::NotASize(t.to_string()))
            })
            .collect::<Result<Vec<usize>, _>>()?;
        Self::new(&sizes)
    }

    /// The instance of these sizes, top first; checks they are 1..=N once each.
    pub fn new(sizes: &[usize]) -> Result<Pancake, PancakeError> {
        let n = sizes.len();
        if n == 0 || n > MAX_PANCAKES {
            return Err(PancakeError::Height(n));
        }
        let mut seen = vec![false; n + 1];
        for &s in sizes {
            if s == 0 || s > n {
                return Err(PancakeError::NotAPermutation {
                    n,
                    problem: format!("{s} is out of range"),
                });
            }
            if std::mem::replace(&mut seen[s], true) {
                return Err(PancakeError::NotAPermutation {
                    n,
                    problem: format!("{s} appears twice"),
                });
            }
        }
        Ok(Pancake {
            start: Stack(sizes.iter().map(|&s| s as u8).collect()),
        })
    }

    /// A uniformly random stack of `n` pancakes.
    pub fn random(n: usize, rng: &mut SplitMix64) -> Result<Pancake, PancakeError> {
        let mut sizes: Vec<usize> = (1..=n).collect();
        for i in (1..n).rev() {
            sizes.swap(i, rng.below(i as u64 + 1) as usize);
        }
        Self::new(&sizes)
    }

    /// Stack height.
    pub fn len(&self) -> usize {
        self.start.0.len()
    }

    /// Always false: a stack has at least one pancake.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The sizes, top first, as `parse` reads them.
    pub fn text(&self) -> String {
        self.start
            .0
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Applies flips (each the number of pancakes flipped); `None` if one
    /// is not a legal move.
    pub fn replay(&self, flips: &[u8]) -> Option<Stack> {
        flips.iter().try_fold(self.start.clone(), |s, &k| {
            (2..=self.len())
                .contains(&usize::from(k))
                .then(|| s.flipped(usize::from(k)))
        })
    }
}

/// A stack's dual (`--dual`, [`frontier_core::search::dual`]): the inverse
/// permutation, whose pancake at each position is one more than the
/// position of that size in the stack. If flips `k1 … km` sort the stack,
/// `km … k1` sort its dual: a flip reverses positions, the stack after the
/// flips is the stack composed with them, and each flip undoes itself. The
/// gap heuristic reads the dual's neighbours of positions where it read the
/// stack's neighbours of sizes, so the dual's search is ordered otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PancakeDual(Pancake);

impl Pancake {
    /// This stack's dual.
    pub fn dual(&self) -> PancakeDual {
        let mut inverse = vec![0; self.len()];
        for (position, &size) in self.start.0.iter().enumerate() {
            inverse[usize::from(size) - 1] = position + 1;
        }
        // A permutation's inverse is one: `new` cannot refuse it.
        PancakeDual(Pancake::new(&inverse).expect("an inverse permutation is a stack"))
    }
}

impl frontier_core::search::dual::DualOf<Pancake> for PancakeDual {
    fn instance(&self) -> &Pancake {
        &self.0
    }

    fn solution_back(
        &self,
        original: &Pancake,
        solution: &frontier_core::Solution<Stack, u8>,
    ) -> Option<frontier_core::Solution<Stack, u8>> {
        let moves: Vec<u8> = solution.moves.iter().rev().copied().collect();
        let mut states = vec![original.start()];
        for &k in &moves {
            if !(2..=original.len()).contains(&usize::from(k)) {
                return None;
            }
            states.push(states[states.len() - 1].flipped(usize::from(k)));
        }
        original
            .is_goal(&states[states.len() - 1])
            .then_some(frontier_core::Solution {
                cost: moves.len() as Cost,
                states,
                moves,
            })
    }

    /// The two optima are equal: a solution of either reversed solves the other.
    fn slack(&self) -> Cost {
        0
    }
}

impl Domain for Pancake {
    type State = Stack;
    /// The number of pancakes flipped.
    type Move = u8;

    fn start(&self) -> Stack {
        self.start.clone()
    }

    fn expand(&self, s: &Stack, out: &mut Vec<Edge<Stack, u8>>) {
        for k in 2..=s.0.len() {
            out.push(Edge {
                state: s.flipped(k),
                mv: k as u8,
                cost: 1,
            });
        }
    }

    fn is_goal(&self, s: &Stack) -> bool {
        s.0.iter()
            .enumerate()
            .all(|(i, &p)| usize::from(p) == i + 1)
    }

    /// The gap heuristic toward `to`: pancakes renamed by their place in
    /// `to` (the plate last), the pairs of neighbours that are not
    /// neighbours in `to` counted. A flip changes one pair, so none is
    /// mended for less than a flip. Stacks of different heights (no path)
    /// get none.
    fn estimate_between(&self, from: &Stack, to: &Stack) -> Option<Cost> {
        let n = from.0.len();
        if to.0.len() != n {
            return None;
        }
        // Place of each pancake in `to`, counted from 1; the plate is n + 1
        // (up to 256: wider than a pancake's size).
        let mut place = [0u16; 256];
        for (i, &p) in to.0.iter().enumerate() {
            place[usize::from(p)] = i as u16 + 1;
        }
        let renamed = |i: usize| {
            from.0
                .get(i)
                .map_or(n as u16 + 1, |&p| place[usize::from(p)])
        };
        Some((0..n).filter(|&i| gap(renamed(i), renamed(i + 1))).count() as Cost)
    }
}

/// Flips in place, for `ida_in_place`: a flip undoes itself, and the flip
/// just made is left out, as IDA*'s `expand` path leaves out the parent.
impl frontier_core::InPlace for Pancake {
    type Op = u8;

    #[inline]
    fn ops(&self, s: &Stack, last: Option<u8>, out: &mut Vec<u8>) {
        out.extend((2..=s.0.len() as u8).filter(|&k| Some(k) != last));
    }

    #[inline]
    fn apply(&self, s: &mut Stack, k: u8) -> Cost {
        s.0[..usize::from(k)].reverse();
        1
    }

    #[inline]
    fn undo(&self, s: &mut Stack, k: u8) {
        s.0[..usize::from(k)].reverse();
    }

    fn move_of(&self, k: u8) -> u8 {
        k
    }

    /// Flips of 2 to n pancakes, numbered from 0.
    fn op_count(&self) -> usize {
        self.len().saturating_sub(1)
    }

    fn op_index(&self, k: u8) -> usize {
        usize::from(k).saturating_sub(2)
    }

    /// Every flip applies to every stack: one context.
    fn context_count(&self) -> usize {
        1
    }

    /// The stack's height decides the flips.
    fn algebra_key(&self) -> Option<u64> {
        Some(self.len() as u64)
    }

    /// The sorted stack: its pancakes are distinct, as every stack's are,
    /// so flip sequences that agree on it agree on every stack.
    fn witness(&self, _: usize) -> Option<Stack> {
        Some(Stack((1..=self.len() as u8).collect()))
    }
}

/// One adjacency changes a flip: the gap under the k-th pancake, now
/// between the new k-th (the old top) and the one below.
impl frontier_core::InPlaceHeuristic<Pancake> for Gap {
    type Detail = ();

    fn root(&self, stack: &Pancake, s: &Stack, _: &mut ()) -> Cost {
        self.h(stack, s)
    }

    #[inline]
    fn after(&self, _: &Pancake, s: &Stack, k: u8, _: &(), parent_h: Cost, _: &mut ()) -> Cost {
        let (n, k) = (s.0.len(), usize::from(k));
        let below = if k == n { n as u8 + 1 } else { s.0[k] };
        parent_h - Cost::from(gap(s.0[0], below)) + Cost::from(gap(s.0[k - 1], below))
    }
}

/// Whether two neighbours (sizes, the plate being N + 1) form a gap;
/// sizes as bytes on the search's hot path, as `u16` where a plate of 256
/// must fit (`estimate_between`'s places).
#[inline]
fn gap(a: impl Into<u16>, b: impl Into<u16>) -> bool {
    a.into().abs_diff(b.into()) > 1
}

/// The gap heuristic (see the crate docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct Gap;

impl Heuristic<Pancake> for Gap {
    /// A flip changes one adjacency (see `h_child`), so h changes by at
    /// most 1, the cost of a flip.
    fn consistent(&self) -> bool {
        true
    }

    fn h(&self, _: &Pancake, s: &Stack) -> Cost {
        let plate = s.0.len() as u8 + 1;
        let below = s.0.iter().skip(1).copied().chain(std::iter::once(plate));
        s.0.iter().zip(below).filter(|&(&a, b)| gap(a, b)).count() as Cost
    }

    /// A flip of k changes one adjacency only: the k-th pancake's neighbour
    /// below (or the plate) now touches the old top.
    fn h_child(&self, _: &Pancake, parent: &Stack, parent_h: Cost, child: &Stack) -> Cost {
        let n = parent.0.len();
        let Some(k) = (1..n)
            .rev()
            .find(|&i| parent.0[i] != child.0[i])
            .map(|i| i + 1)
        else {
            return parent_h;
        };
        let below = if k == n { n as u8 + 1 } else { parent.0[k] };
        parent_h - Cost::from(gap(parent.0[k - 1], below)) + Cost::from(gap(parent.0[0], below))
    }

    /// A flip of k rises f by 1 + gap(top, below k) − gap(k-th, below k):
    /// known from three sizes, so only the flips on the wanted layer are
    /// built (near the goal at most two keep f).
    fn expand_rising_by(
        &self,
        _: &Pancake,
        s: &Stack,
        _: Cost,
        rise: Cost,
        out: &mut Vec<Edge<Stack, u8>>,
    ) -> Option<Option<Cost>> {
        let n = s.0.len();
        let plate = n as u8 + 1;
        let top = s.0[0];
        let mut next: Option<Cost> = None;
        for k in 2..=n {
            let below = if k == n { plate } else { s.0[k] };
            let this = 1 + Cost::from(gap(top, below)) - Cost::from(gap(s.0[k - 1], below));
            if this == rise {
                out.push(Edge {
                    state: s.flipped(k),
                    mv: k as u8,
                    cost: 1,
                });
            } else if this > rise {
                next = Some(next.map_or(this, |r| r.min(this)));
            }
        }
        Some(next)
    }
}

impl PackedState for Pancake {
    /// One byte a pancake, four to a word.
    fn packed_words(&self) -> usize {
        self.len().div_ceil(4)
    }

    fn pack(&self, s: &Stack, out: &mut [u32]) {
        out.fill(0);
        for (i, &p) in s.0.iter().enumerate() {
            out[i / 4] |= u32::from(p) << (8 * (i % 4));
        }
    }

    fn unpack(&self, words: &[u32]) -> Result<Stack, CodecError> {
        let n = self.len();
        if words.len() != self.packed_words() {
            return Err(CodecError::Length {
                expected: self.packed_words(),
                got: words.len(),
            });
        }
        let sizes: Vec<usize> = (0..n)
            .map(|i| ((words[i / 4] >> (8 * (i % 4))) & 0xFF) as usize)
            .collect();
        if (n..words.len() * 4).any(|i| (words[i / 4] >> (8 * (i % 4))) & 0xFF != 0) {
            return Err(CodecError::Invalid(
                "bytes past the stack are not zero".into(),
            ));
        }
        Pancake::new(&sizes)
            .map(|p| p.start)
            .map_err(|e| CodecError::Invalid(e.to_string()))
    }
}

/// Zobrist features: the pancake at each position.
impl Features for Pancake {
    fn feature_space(&self) -> (usize, usize) {
        (self.len(), self.len() + 1)
    }

    fn for_each_feature(&self, s: &Stack, mut visit: impl FnMut(usize, usize)) {
        for (position, &size) in s.0.iter().enumerate() {
            visit(position, usize::from(size));
        }
    }
}

/// Partitions of pancake states for HDA* (CPU and GPU alike): `zobrist`
/// (plain Zobrist hashing of the position–size pairs) and `bottom`
/// (only the bottom half of the stack counts: flips of the top half, which
/// are most flips near the goal, keep a state with its owner).
pub fn projection(
    name: &str,
    n: usize,
    seed: u64,
) -> Option<frontier_core::zobrist::AbstractZobrist> {
    use frontier_core::zobrist::AbstractZobrist;
    match name {
        "zobrist" => Some(AbstractZobrist::new(n, n + 1, seed, |_, size| Some(size))),
        "bottom" => Some(AbstractZobrist::new(
            n,
            n + 1,
            seed,
            move |position, size| (position >= n / 2).then_some(size),
        )),
        _ => None,
    }
}
