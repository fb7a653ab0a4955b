//! Depth-first enumeration of a domain's state tree, for problems that want
//! every goal rather than the cheapest one (all words on a Boggle board, all
//! solutions of a puzzle).
//!
//! There is no closed list: a state reached along two paths is visited twice,
//! which is what path-enumeration problems need. The domain must make the tree
//! finite (Boggle paths never reuse a cell).

use crate::domain::{Domain, InPlace};
use crate::search::{Limit, SearchOptions, Watch, CHECK_EVERY};
use crate::stats::SearchStats;

/// What the visitor tells the walk after seeing a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// Expand this state's children.
    Descend,
    /// Do not expand this state.
    Prune,
    /// End the whole walk now.
    Stop,
}

/// How a walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkEnd {
    /// Every state of the tree was visited (or pruned).
    Complete,
    /// The visitor asked to stop.
    Stopped,
    /// A limit of the options ended it.
    LimitReached(Limit),
}

/// The children of one state on the current path, and the next to visit.
type Level<D> = (
    Vec<crate::Edge<<D as Domain>::State, <D as Domain>::Move>>,
    usize,
);

/// Visits every state of the tree below `domain.start()` depth first,
/// children in the order `expand` gives them. `visit` sees each state with
/// its depth (the start has depth 0). `stats.expanded` counts expansions,
/// `stats.generated` children.
///
/// ```
/// use frontier_core::{grid::Grid, walk, Visit, WalkEnd, SearchOptions};
/// // Paths of length ≤ 2 from the corner of a 2×2 open field: 1 + 2 + 4.
/// let field = Grid::parse("S.\n.G").unwrap();
/// let mut count = 0;
/// let (end, _) = walk(&field, &SearchOptions::default(), |_, depth| {
///     count += 1;
///     if depth < 2 { Visit::Descend } else { Visit::Prune }
/// });
/// assert_eq!((end, count), (WalkEnd::Complete, 7));
/// ```
pub fn walk<D: Domain>(
    domain: &D,
    options: &SearchOptions,
    mut visit: impl FnMut(&D::State, usize) -> Visit,
) -> (WalkEnd, SearchStats) {
    let mut watch = Watch::new(options);
    let mut stats = SearchStats::default();
    // One child buffer per depth, reused, so the walk allocates only while
    // the tree gets deeper than before.
    let mut levels: Vec<Level<D>> = Vec::new();
    let start = domain.start();
    let end = 'walk: {
        match visit(&start, 0) {
            Visit::Stop => break 'walk WalkEnd::Stopped,
            Visit::Prune => break 'walk WalkEnd::Complete,
            Visit::Descend => {}
        }
        levels.push((Vec::new(), 0));
        domain.expand(&start, &mut levels[0].0);
        stats.expanded = 1;
        stats.generated = levels[0].0.len() as u64;
        while let Some(depth) = levels.len().checked_sub(1) {
            let (children, next) = &mut levels[depth];
            let Some(edge) = children.get(*next) else {
                levels.pop();
                continue;
            };
            *next += 1;
            let state = edge.state.clone();
            match visit(&state, depth + 1) {
                Visit::Stop => break 'walk WalkEnd::Stopped,
                Visit::Prune => continue,
                Visit::Descend => {}
            }
            if let Some(limit) = limit_reached(&mut watch, stats.expanded, levels.len()) {
                break 'walk WalkEnd::LimitReached(limit);
            }
            if levels.len() == depth + 1 {
                levels.push((Vec::new(), 0));
            }
            let (buffer, cursor) = &mut levels[depth + 1];
            buffer.clear();
            *cursor = 0;
            domain.expand(&state, buffer);
            stats.expanded += 1;
            stats.generated += buffer.len() as u64;
        }
        WalkEnd::Complete
    };
    (end, timed(&watch, stats))
}

/// `stats` with the walk's time and rate filled in.
fn timed(watch: &Watch, mut stats: SearchStats) -> SearchStats {
    stats.seconds = watch.elapsed();
    stats.expansions_per_second = stats.expanded as f64 / stats.seconds.max(1e-9);
    stats
}

/// One depth of an in-place walk: the op that led there, the ops listed,
/// and the next to try.
type OpLevel<D> = (Option<<D as InPlace>::Op>, Vec<<D as InPlace>::Op>, usize);

/// The limit that ends a walk before its next expansion, if one does.
fn limit_reached(watch: &mut Watch, expanded: u64, depth: usize) -> Option<Limit> {
    if watch.out_of_expansions(expanded) {
        return Some(Limit::Expansions);
    }
    if expanded & (CHECK_EVERY - 1) == 0 {
        return watch.check(expanded, 0, depth as u64, 0);
    }
    None
}

/// [`walk`] with moves applied to one state in place and undone
/// ([`InPlace`]), with no state cloned per node: the tree of [`InPlace::ops`],
/// which leave out the op that undoes the last one. For a domain whose
/// `expand` leaves it out too (tiles), that is `walk`'s tree, visited in
/// the same order with the same counts. `visit` sees the state in place;
/// it must not keep it.
///
/// ```
/// use frontier_core::{grid::Grid, search::walk::walk_in_place, Visit, WalkEnd, SearchOptions};
/// // Paths of length ≤ 2 from the corner of a 2×2 open field that never
/// // step straight back: 1 + 2 + 2.
/// let field = Grid::parse("S.\n.G").unwrap();
/// let mut count = 0;
/// let (end, _) = walk_in_place(&field, &SearchOptions::default(), |_, depth| {
///     count += 1;
///     if depth < 2 { Visit::Descend } else { Visit::Prune }
/// });
/// assert_eq!((end, count), (WalkEnd::Complete, 5));
/// ```
pub fn walk_in_place<D: InPlace>(
    domain: &D,
    options: &SearchOptions,
    mut visit: impl FnMut(&D::State, usize) -> Visit,
) -> (WalkEnd, SearchStats) {
    let mut watch = Watch::new(options);
    let mut stats = SearchStats::default();
    let mut levels: Vec<OpLevel<D>> = Vec::new();
    let mut state = domain.start();
    let end = 'walk: {
        match visit(&state, 0) {
            Visit::Stop => break 'walk WalkEnd::Stopped,
            Visit::Prune => break 'walk WalkEnd::Complete,
            Visit::Descend => {}
        }
        levels.push((None, Vec::new(), 0));
        domain.ops(&state, None, &mut levels[0].1);
        stats.expanded = 1;
        stats.generated = levels[0].1.len() as u64;
        while let Some(depth) = levels.len().checked_sub(1) {
            let (op_in, ops, next) = &mut levels[depth];
            let Some(&op) = ops.get(*next) else {
                if let Some(op) = *op_in {
                    domain.undo(&mut state, op);
                }
                levels.pop();
                continue;
            };
            *next += 1;
            domain.apply(&mut state, op);
            match visit(&state, depth + 1) {
                Visit::Stop => break 'walk WalkEnd::Stopped,
                Visit::Prune => {
                    domain.undo(&mut state, op);
                    continue;
                }
                Visit::Descend => {}
            }
            if let Some(limit) = limit_reached(&mut watch, stats.expanded, levels.len()) {
                break 'walk WalkEnd::LimitReached(limit);
            }
            if levels.len() == depth + 1 {
                levels.push((None, Vec::new(), 0));
            }
            let (op_in, buffer, cursor) = &mut levels[depth + 1];
            *op_in = Some(op);
            buffer.clear();
            *cursor = 0;
            domain.ops(&state, Some(op), buffer);
            stats.expanded += 1;
            stats.generated += buffer.len() as u64;
        }
        WalkEnd::Complete
    };
    (end, timed(&watch, stats))
}
