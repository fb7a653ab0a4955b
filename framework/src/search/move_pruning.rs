//! Move pruning for depth-first search: a path is not extended by an op
//! that makes its last few ops a *redundant* sequence, one that reaches the
//! same state as a smaller sequence from the same place. The redundant
//! sequences are found at start-up by enumerating every op sequence up to a
//! depth, and compiled into an automaton that the search steps with each op
//! (Taylor & Korf's forbidden-sequence automaton; Holte & Burch's move
//! pruning), generically for any [`InPlace`] domain that describes its
//! *move contexts*.
//!
//! # Why the optimum survives
//!
//! Sequences are ordered by (cost, length, op indices lexicographically).
//! Sequence `B` is redundant in context `c` when a sequence `A < B`, listed
//! from the same context, reaches the same state. A path holding a
//! redundant `B` (as its ops from some depth on) can have `B` replaced by
//! `A`: `A` applies there, since applicability depends only on the context
//! ([`InPlace::context`]), and it ends in the same state, since the witness
//! is a state from which equal results mean equal effects
//! ([`InPlace::witness`]). The new path is smaller in the same order (a
//! lower cost, or equal cost and fewer ops, or the same length and a
//! lexicographically smaller op at the first difference). If the
//! replacement puts an op right after its own inverse, which the search
//! never lists, removing the pair makes the path cheaper still. So the
//! smallest path to any state holds no redundant sequence and is never
//! pruned. The smallest of the cheapest paths to a goal is optimal, so its
//! every node has `f <= C*` under an admissible heuristic: the iteration
//! with bound `C*` walks it. Every earlier iteration generates its first
//! node with `f` above the bound, so the next bound never passes `C*`.
//! A search starting below the start state (a root of IDA*'s split)
//! forgets the ops above it: it prunes less, never more.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::{Cost, Error, InPlace};

/// Hash maps keyed by states and automaton states: built once, read
/// millions of times at start-up, never exposed to untrusted keys.
type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// The automaton's entry for an op that completes a redundant sequence
/// (or does not apply).
pub const PRUNED: u32 = u32::MAX;
/// Trie slot: the op does not apply, or the sequence reached the depth.
const NONE: u32 = u32::MAX;
/// Trie slot: the op completes a redundant sequence.
const FORBIDDEN: u32 = u32::MAX - 1;
/// Op sequences enumerated at most, over every context: past it the
/// start-up costs more than any search it could shorten.
const MAX_SEQUENCES: usize = 50_000_000;
/// Automaton states at most.
const MAX_STATES: usize = 8_000_000;

/// The longest redundant sequences looked for.
pub const MAX_DEPTH: usize = 24;

/// A compiled move-pruning automaton for one domain: from a state of the
/// automaton and the index of an op, the next state, or "pruned".
#[derive(Clone, Debug)]
pub struct MovePruning {
    ops: usize,
    /// `next[state * ops + op]`; [`PRUNED`] for a forbidden op.
    next: Vec<u32>,
    /// The state a search starts in, for each context.
    start: Vec<u32>,
    /// A state whose every op leads back to it: nothing is pruned.
    blind: u32,
    depth: usize,
    redundant: usize,
}

/// A sequence's rank in the order that picks the one kept: cost, then
/// length, then op indices.
type Key = (Cost, Vec<u8>);

fn smaller(a: &Key, b: &Key) -> bool {
    (a.0, a.1.len(), &a.1) < (b.0, b.1.len(), &b.1)
}

/// Automata built in this process, by the domain's type name, its
/// [`InPlace::algebra_key`] and the depth; the last few only.
static BUILT: Mutex<Vec<Built>> = Mutex::new(Vec::new());

/// One entry of [`BUILT`]: type name, algebra key, depth, automaton.
type Built = (&'static str, u64, usize, Arc<MovePruning>);

/// Automata kept in [`BUILT`].
const KEPT: usize = 8;

impl MovePruning {
    /// [`MovePruning::build`], or the automaton built earlier in this
    /// process for a domain of the same type and [`InPlace::algebra_key`].
    pub fn shared<D: InPlace>(domain: &D, depth: usize) -> Result<Arc<MovePruning>, Error> {
        let Some(key) = domain.algebra_key() else {
            return Ok(Arc::new(MovePruning::build(domain, depth)?));
        };
        let name = std::any::type_name::<D>();
        let found = BUILT.lock().ok().and_then(|built| {
            built
                .iter()
                .find(|(n, k, d, _)| *n == name && *k == key && *d == depth)
                .map(|(_, _, _, automaton)| Arc::clone(automaton))
        });
        if let Some(automaton) = found {
            return Ok(automaton);
        }
        let automaton = Arc::new(MovePruning::build(domain, depth)?);
        // A poisoned lock only costs the next search a rebuild.
        if let Ok(mut built) = BUILT.lock() {
            if built.len() >= KEPT {
                built.remove(0);
            }
            built.push((name, key, depth, Arc::clone(&automaton)));
        }
        Ok(automaton)
    }

    /// Finds the redundant op sequences of `domain` up to `depth` ops and
    /// compiles them. An error when the domain describes no move contexts,
    /// for a depth outside `2..=MAX_DEPTH`, or when the enumeration or the
    /// automaton would be too large (a lower depth then fits).
    pub fn build<D: InPlace>(domain: &D, depth: usize) -> Result<MovePruning, Error> {
        let contexts = domain.context_count();
        let ops = domain.op_count();
        if contexts == 0 || ops == 0 {
            return Err(Error::BadConfig(
                "move pruning needs a domain that describes its move contexts \
                 (InPlace::context_count, op_count, context, witness); this one does not"
                    .into(),
            ));
        }
        if !(2..=MAX_DEPTH).contains(&depth) {
            return Err(Error::BadConfig(format!(
                "move pruning depth {depth} is outside 2..={MAX_DEPTH}"
            )));
        }
        if ops > usize::from(u8::MAX) {
            return Err(Error::BadConfig(format!(
                "move pruning handles at most 255 ops; this domain has {ops}"
            )));
        }
        // Each context's sequences are enumerated on their own, on every
        // core; their tries are then laid end to end.
        let next_context = AtomicUsize::new(0);
        let enumerated = AtomicUsize::new(0);
        let threads = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(contexts);
        let mut found: Vec<Result<ContextTrie, Error>> = Vec::new();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    let (next_context, enumerated) = (&next_context, &enumerated);
                    scope.spawn(move || {
                        let mut done = Vec::new();
                        loop {
                            let context = next_context.fetch_add(1, Ordering::Relaxed);
                            if context >= contexts {
                                return done;
                            }
                            let result = context_trie(domain, context, depth, enumerated);
                            let failed = result.is_err();
                            done.push((context, result));
                            if failed {
                                next_context.store(contexts, Ordering::Relaxed);
                            }
                        }
                    })
                })
                .collect();
            let mut all: Vec<(usize, Result<ContextTrie, Error>)> = Vec::new();
            for worker in workers {
                match worker.join() {
                    Ok(done) => all.extend(done),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            all.sort_by_key(|(context, _)| *context);
            found = all.into_iter().map(|(_, r)| r).collect();
        });
        let mut trie = Trie {
            ops,
            slots: Vec::new(),
        };
        let (mut roots, mut moves, mut redundant) = (Vec::new(), Vec::new(), 0);
        for part in found {
            let part = part?;
            let offset = (trie.slots.len() / ops) as u32;
            roots.push(offset);
            trie.slots.extend(part.slots.iter().map(|&slot| match slot {
                NONE | FORBIDDEN => slot,
                child => child + offset,
            }));
            moves.push(part.moves);
            redundant += part.redundant;
        }
        if roots.len() < contexts {
            return Err(too_many("op sequences", MAX_SEQUENCES, depth));
        }
        let automaton = Compiler {
            ops,
            trie: &trie,
            roots: &roots,
            moves: &moves,
            ids: FastMap::default(),
            queue: Vec::new(),
        }
        .compile()?;
        let (mut next, start) = automaton;
        let blind = (next.len() / ops) as u32;
        next.extend(std::iter::repeat_n(blind, ops));
        let pruning = MovePruning {
            ops,
            next,
            start,
            blind,
            depth,
            redundant,
        };
        tracing::info!(
            depth,
            redundant,
            states = pruning.states(),
            "move pruning automaton built"
        );
        Ok(pruning)
    }

    /// The state a search from a state in `context` starts in; for a
    /// context the domain did not count (a bug of its `context`), the
    /// state that forgets every path and prunes nothing, which is sound.
    #[inline]
    pub fn start(&self, context: usize) -> u32 {
        self.start.get(context).copied().unwrap_or(self.blind)
    }

    /// The state after the op of index `op` from `state`; `None` when the
    /// op completes a redundant sequence and is not to be searched.
    #[inline]
    pub fn step(&self, state: u32, op: usize) -> Option<u32> {
        // States come from this automaton, and `build` checked every op's
        // number against `ops`: the index is in the table.
        let next = self.next[state as usize * self.ops + op];
        (next != PRUNED).then_some(next)
    }

    /// The transition table, `ops` entries per state: entry
    /// `state * ops + op` is [`MovePruning::step`]'s answer, [`PRUNED`]
    /// for `None` (for the GPU, which steps it itself).
    pub fn table(&self) -> &[u32] {
        &self.next
    }

    /// Op numbers per state of [`MovePruning::table`].
    pub fn ops(&self) -> usize {
        self.ops
    }

    /// The depth it was built for.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Redundant sequences found (each ends in a pruned op).
    pub fn redundant(&self) -> usize {
        self.redundant
    }

    /// States of the automaton.
    pub fn states(&self) -> usize {
        self.next.len() / self.ops.max(1)
    }
}

/// One context's share: its trie (node 0 the root), the ops that apply
/// there with the context each leads to, and the redundant sequences.
struct ContextTrie {
    slots: Vec<u32>,
    moves: Vec<(usize, usize)>,
    redundant: usize,
}

fn context_trie<D: InPlace>(
    domain: &D,
    context: usize,
    depth: usize,
    enumerated: &AtomicUsize,
) -> Result<ContextTrie, Error> {
    let (contexts, ops) = (domain.context_count(), domain.op_count());
    let Some(mut witness) = domain.witness(context) else {
        return Err(Error::BadConfig(format!(
            "the domain gives no witness state for move context {context}"
        )));
    };
    if domain.context(&witness) != context {
        return Err(Error::BadConfig(format!(
            "the domain's witness of move context {context} is in context {}",
            domain.context(&witness)
        )));
    }
    let mut listed = Vec::new();
    domain.ops(&witness, None, &mut listed);
    let mut moves = Vec::new();
    for &op in &listed {
        let index = domain.op_index(op);
        domain.apply(&mut witness, op);
        let after = domain.context(&witness);
        domain.undo(&mut witness, op);
        if index >= ops || after >= contexts {
            return Err(Error::BadConfig(format!(
                "op {op:?} has number {index} (of {ops}) and leads to move context \
                 {after} (of {contexts})"
            )));
        }
        moves.push((index, after));
    }
    let mut best: FastMap<D::State, Key> = FastMap::default();
    let mut walk = Walk {
        domain,
        depth,
        seq: Vec::new(),
        listed: Vec::new(),
    };
    let mut counted = 0usize;
    let within = walk.each(&mut witness, None, 0, &mut |state, key| {
        match best.get_mut(state) {
            Some(b) if !smaller(key, b) => {}
            Some(b) => *b = key.clone(),
            None => {
                best.insert(state.clone(), key.clone());
            }
        }
        counted += 1;
        // Totals are shared in blocks, to keep the counter off the hot path.
        !counted.is_multiple_of(4096)
            || enumerated.fetch_add(4096, Ordering::Relaxed) + 4096 <= MAX_SEQUENCES
    });
    if !within {
        return Err(too_many("op sequences", MAX_SEQUENCES, depth));
    }
    let mut trie = Trie {
        ops,
        slots: Vec::new(),
    };
    let mut redundant = 0;
    let root = trie.node();
    walk.trie(
        &mut witness,
        None,
        root,
        0,
        &best,
        &mut trie,
        &mut redundant,
    );
    Ok(ContextTrie {
        slots: trie.slots,
        moves,
        redundant,
    })
}

fn too_many(what: &str, limit: usize, depth: usize) -> Error {
    Error::BadConfig(format!(
        "move pruning to depth {depth} needs more than {limit} {what}; use a lower depth"
    ))
}

/// The trie of the sequences kept, over every context; a node's slot for
/// an op is its child, [`FORBIDDEN`] or [`NONE`].
struct Trie {
    ops: usize,
    slots: Vec<u32>,
}

impl Trie {
    fn node(&mut self) -> u32 {
        let id = (self.slots.len() / self.ops) as u32;
        self.slots.resize(self.slots.len() + self.ops, NONE);
        id
    }

    fn slot(&mut self, node: u32, op: usize) -> &mut u32 {
        &mut self.slots[node as usize * self.ops + op]
    }
}

/// Every op sequence up to `depth` from a witness, in the search's order.
struct Walk<'a, D: InPlace> {
    domain: &'a D,
    depth: usize,
    seq: Vec<u8>,
    listed: Vec<Vec<D::Op>>,
}

impl<D: InPlace> Walk<'_, D> {
    fn ops_at(&mut self, state: &D::State, last: Option<D::Op>, level: usize) -> Vec<D::Op> {
        if self.listed.len() <= level {
            self.listed.push(Vec::new());
        }
        let mut out = std::mem::take(&mut self.listed[level]);
        out.clear();
        self.domain.ops(state, last, &mut out);
        out
    }

    /// Calls `visit` with the state and key of every sequence of one op or
    /// more; stops when `visit` says so.
    fn each(
        &mut self,
        state: &mut D::State,
        last: Option<D::Op>,
        cost: Cost,
        visit: &mut impl FnMut(&D::State, &Key) -> bool,
    ) -> bool {
        if self.seq.len() == self.depth {
            return true;
        }
        let level = self.seq.len();
        let ops = self.ops_at(state, last, level);
        let mut go_on = true;
        for &op in &ops {
            let step = self.domain.apply(state, op);
            self.seq.push(self.domain.op_index(op) as u8);
            let key = (cost.saturating_add(step), std::mem::take(&mut self.seq));
            go_on = visit(state, &key);
            self.seq = key.1;
            if go_on {
                go_on = self.each(state, Some(op), cost.saturating_add(step), visit);
            }
            self.seq.pop();
            self.domain.undo(state, op);
            if !go_on {
                break;
            }
        }
        self.listed[level] = ops;
        go_on
    }

    /// Fills the trie below `node`: kept sequences become children (up to
    /// one op short of the depth), redundant ones [`FORBIDDEN`] slots.
    #[allow(clippy::too_many_arguments)]
    fn trie(
        &mut self,
        state: &mut D::State,
        last: Option<D::Op>,
        node: u32,
        cost: Cost,
        best: &FastMap<D::State, Key>,
        trie: &mut Trie,
        redundant: &mut usize,
    ) {
        let level = self.seq.len();
        let ops = self.ops_at(state, last, level);
        for &op in &ops {
            let step = self.domain.apply(state, op);
            let index = self.domain.op_index(op);
            self.seq.push(index as u8);
            let kept = best
                .get(state)
                .is_some_and(|b| b.0 == cost.saturating_add(step) && b.1 == self.seq);
            if !kept {
                *trie.slot(node, index) = FORBIDDEN;
                *redundant += 1;
            } else if self.seq.len() < self.depth {
                let child = trie.node();
                *trie.slot(node, index) = child;
                let cost = cost.saturating_add(step);
                self.trie(state, Some(op), child, cost, best, trie, redundant);
            }
            self.seq.pop();
            self.domain.undo(state, op);
        }
        self.listed[level] = ops;
    }
}

/// Builds the automaton: a state is the context of the search's current
/// state and the trie nodes of the sequences that end there and may still
/// grow into a redundant one (one starting at each of the last few depths).
struct Compiler<'a> {
    ops: usize,
    trie: &'a Trie,
    roots: &'a [u32],
    moves: &'a [Vec<(usize, usize)>],
    ids: FastMap<(usize, Vec<u32>), u32>,
    queue: Vec<(usize, Vec<u32>)>,
}

impl Compiler<'_> {
    fn id(&mut self, key: (usize, Vec<u32>)) -> Result<u32, Error> {
        if let Some(&id) = self.ids.get(&key) {
            return Ok(id);
        }
        let id = self.queue.len();
        if id >= MAX_STATES {
            return Err(Error::BadConfig(format!(
                "move pruning needs more than {MAX_STATES} automaton states; use a lower depth"
            )));
        }
        self.ids.insert(key.clone(), id as u32);
        self.queue.push(key);
        Ok(id as u32)
    }

    /// The transition table and each context's start state.
    fn compile(mut self) -> Result<(Vec<u32>, Vec<u32>), Error> {
        let start = (0..self.roots.len())
            .map(|c| self.id((c, Vec::new())))
            .collect::<Result<Vec<u32>, Error>>()?;
        let mut next = Vec::new();
        let mut done = 0;
        while done < self.queue.len() {
            let (context, active) = self.queue[done].clone();
            done += 1;
            let mut row = vec![PRUNED; self.ops];
            for &(op, after) in &self.moves[context] {
                let root = self.roots[context];
                let starts = active.iter().copied().chain((root != NONE).then_some(root));
                let mut grown = Vec::with_capacity(active.len() + 1);
                let mut forbidden = false;
                for node in starts {
                    match self.trie.slots[node as usize * self.ops + op] {
                        FORBIDDEN => forbidden = true,
                        NONE => {}
                        child => grown.push(child),
                    }
                }
                if !forbidden {
                    grown.sort_unstable();
                    row[op] = self.id((after, grown))?;
                }
            }
            next.extend(row);
        }
        Ok((next, start))
    }
}
