//! Re-solving a finished path a window at a time.
//!
//! A weighted or anytime search stopped early leaves detours longer than
//! [`super::shortcut`]'s balls reach: a ball holds every state within its
//! radius, so it grows with the branching factor to the power of the
//! radius, and radius 20 is already seconds a path. A search *guided*
//! toward a known state grows far slower. [`resolve`] takes windows of the
//! path (stretches of cost at most `length`, each starting half a window
//! after the one before, the last ending at the goal) and runs IDA* from a
//! window's first state to its last, guided by the domain's
//! [`Domain::estimate_between`] and bounded below the stretch's own cost.
//! What it finds is a cheapest way between the two ends, cheaper than the
//! stretch. Windows run on every core; the best improvements that share no
//! step replace their stretches (the splicing and checks of
//! [`super::shortcut`]), and passes repeat until one improves nothing.
//!
//! Why it is sound: a replacement runs along `expand`'s edges between the
//! same two path states, so the path still runs from the same start to
//! the same goal, only cheaper, and the result is replayed; a proven lower
//! bound on the optimum stays one. Why a window's answer is its optimum:
//! IDA* with an estimate that never exceeds the true cost returns the
//! cheapest path within its bound; the bound starts at the estimate and
//! rises to the least f that exceeded it, and stops below the stretch's
//! cost. A window that reaches its expansion cap is left as it is (the
//! path is never worse, only not improved there).

use std::sync::atomic::{AtomicUsize, Ordering};

use super::shortcut::{take_shortcuts, Shortcut, Shortened};
use crate::domain::{Cost, Domain, Edge};

/// Expansions one window's search may make before it gives up on the
/// window: on the 35-puzzle with Manhattan distance, windows of 40 moves
/// take thousands to hundreds of thousands; a cap keeps one hard window
/// from holding a pass up.
pub const WINDOW_EXPANSIONS: u64 = 4_000_000;

/// Re-solves the path `states` (start first; each step an edge) in
/// windows of cost up to `length`, as the module docs say, each window's
/// search capped at `cap` expansions. Returns the new path (same ends)
/// and what was done; a domain without [`Domain::estimate_between`] gets
/// its path back unchanged.
pub fn resolve<D: Domain>(
    domain: &D,
    states: Vec<D::State>,
    length: Cost,
    cap: u64,
) -> (Vec<D::State>, Shortened) {
    take_shortcuts(domain, states, |states, prefix, expanded| {
        improved_windows(domain, states, prefix, length, cap, expanded)
    })
}

/// Every window of `states` whose search found a cheaper way.
fn improved_windows<D: Domain>(
    domain: &D,
    states: &[D::State],
    prefix: &[Cost],
    length: Cost,
    cap: u64,
    expanded: &mut u64,
) -> Vec<Shortcut<D::State>> {
    let windows = windows_of(prefix, length);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(windows.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let results: Vec<(Vec<Shortcut<D::State>>, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut found = Vec::new();
                    let mut spent = 0;
                    let mut search = WindowSearch::new(domain, cap);
                    loop {
                        let at = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(i, j)) = windows.get(at) else {
                            break;
                        };
                        let along = prefix[j] - prefix[i];
                        if let Some((between, cost)) = search.run(&states[i], &states[j], along) {
                            found.push(Shortcut {
                                from: i,
                                to: j,
                                saving: along - cost,
                                between,
                            });
                        }
                        spent += search.expanded;
                    }
                    (found, spent)
                })
            })
            .collect();
        handles
            .into_iter()
            // A window's thread panics only if the domain does.
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut found = Vec::new();
    for (mut list, spent) in results {
        *expanded += spent;
        found.append(&mut list);
    }
    found
}

/// The windows of a path with prefix costs `prefix`: pairs `(i, j)` of
/// state indices, `j` the last state within `length` of `i`, each `i` the
/// first state at least half a window past the one before; the last
/// window ends at the path's last state. Windows of a single step are
/// left out (nothing to shorten there).
fn windows_of(prefix: &[Cost], length: Cost) -> Vec<(usize, usize)> {
    let mut windows = Vec::new();
    let last = prefix.len().saturating_sub(1);
    let step = length.div_ceil(2).max(1);
    let mut i = 0;
    while i < last {
        let j = (i + 1..=last)
            .take_while(|&j| prefix[j] - prefix[i] <= length)
            .last()
            .unwrap_or(i + 1);
        if j > i + 1 {
            windows.push((i, j));
        }
        if j == last {
            break;
        }
        // Half a window on, and at least one state.
        i = (i + 1..=last)
            .find(|&k| prefix[k] - prefix[i] >= step)
            .unwrap_or(last);
    }
    windows
}

/// What one step of the depth-first search keeps: the children of the
/// state at its depth, the next one to try, and the state's cost.
struct Level<S, M> {
    edges: Vec<Edge<S, M>>,
    next: usize,
    g: Cost,
}

/// IDA* from one state to another, its buffers kept across windows.
struct WindowSearch<'d, D: Domain> {
    domain: &'d D,
    cap: u64,
    /// The states from the window's start to the current one.
    path: Vec<D::State>,
    levels: Vec<Level<D::State, D::Move>>,
    /// Emptied edge lists, to reuse.
    spare: Vec<Vec<Edge<D::State, D::Move>>>,
    /// Expansions of the last run.
    expanded: u64,
}

/// How one iteration of [`WindowSearch::run`] ended.
enum Probe {
    /// The target was reached at this cost (the path holds the way).
    Found(Cost),
    /// Not within the bound; the least f above it (`Cost::MAX`: none).
    Above(Cost),
    /// The expansion cap was reached.
    Capped,
}

impl<'d, D: Domain> WindowSearch<'d, D> {
    fn new(domain: &'d D, cap: u64) -> Self {
        WindowSearch {
            domain,
            cap,
            path: Vec::new(),
            levels: Vec::new(),
            spare: Vec::new(),
            expanded: 0,
        }
    }

    /// The cheapest way from `from` to `to` if it costs less than `below`:
    /// the states strictly between, and its cost. None if there is none,
    /// the domain has no estimate, or the cap was reached first.
    fn run(
        &mut self,
        from: &D::State,
        to: &D::State,
        below: Cost,
    ) -> Option<(Vec<D::State>, Cost)> {
        self.expanded = 0;
        let mut bound = self.domain.estimate_between(from, to)?;
        while bound < below {
            match self.iteration(from, to, bound) {
                Probe::Found(cost) => {
                    // Nothing between where the two ends are one state (a
                    // loop on the path).
                    let between = self
                        .path
                        .get(1..self.path.len().saturating_sub(1))
                        .map(<[D::State]>::to_vec)
                        .unwrap_or_default();
                    return Some((between, cost));
                }
                Probe::Above(next) => bound = next,
                Probe::Capped => return None,
            }
        }
        None
    }

    /// One depth-first pass over the paths from `from` whose f stays
    /// within `bound`, looking for `to`.
    fn iteration(&mut self, from: &D::State, to: &D::State, bound: Cost) -> Probe {
        self.path.clear();
        self.path.push(from.clone());
        if from == to {
            return Probe::Found(0);
        }
        for level in self.levels.drain(..) {
            self.spare.push(level.edges);
        }
        self.push_level(0);
        let mut least = Cost::MAX;
        while let Some(level) = self.levels.last_mut() {
            let Some(edge) = level.edges.get(level.next) else {
                let done = self.levels.pop().map(|l| l.edges);
                self.spare.extend(done);
                self.path.pop();
                continue;
            };
            level.next += 1;
            let depth = self.path.len();
            // Straight back to the parent: never on a cheapest way.
            if depth >= 2 && edge.state == self.path[depth - 2] {
                continue;
            }
            let g = level.g.saturating_add(edge.cost);
            let h = self.domain.estimate_between(&edge.state, to).unwrap_or(0);
            let f = g.saturating_add(h);
            if f > bound {
                least = least.min(f);
                continue;
            }
            let state = edge.state.clone();
            let reached = state == *to;
            self.path.push(state);
            if reached {
                return Probe::Found(g);
            }
            if self.expanded >= self.cap {
                return Probe::Capped;
            }
            self.push_level(g);
        }
        Probe::Above(least)
    }

    /// Expands the path's last state (at cost `g`) into a new level.
    fn push_level(&mut self, g: Cost) {
        self.expanded += 1;
        let mut edges = self.spare.pop().unwrap_or_default();
        edges.clear();
        // Some: called with the state to expand on the path.
        if let Some(state) = self.path.last() {
            self.domain.expand(state, &mut edges);
        }
        self.levels.push(Level { edges, next: 0, g });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{states_of, Grid};
    use crate::search::replay;

    /// A detour round three sides of an open grid: every window shorter
    /// than the detour is already a cheapest way (nothing changes), one
    /// that spans it finds the straight path; the result replays.
    #[test]
    fn a_window_that_spans_a_detour_replaces_it() {
        let grid = Grid::parse("S....\n.....\n.....\n.....\nG....").unwrap();
        let states = states_of(&grid, "RRRRDDDDLLLL");
        assert!(grid.is_goal(states.last().unwrap()));
        // Windows of 4: any 4 steps of this path are a cheapest way.
        let (same, done) = resolve(&grid, states.clone(), 4, WINDOW_EXPANSIONS);
        assert_eq!((done.before, done.after, done.shortcuts), (12, 12, 0));
        assert_eq!(same, states);
        let (short, done) = resolve(&grid, states.clone(), 12, WINDOW_EXPANSIONS);
        assert_eq!((done.before, done.after), (12, 4), "{done:?}");
        assert_eq!(short.first(), states.first());
        assert_eq!(short.last(), states.last());
        assert_eq!(replay(&grid, short).unwrap().cost, 4);
        // A cap of one expansion gives up on every window: no change.
        let (capped, done) = resolve(&grid, states.clone(), 12, 1);
        assert_eq!((capped, done.after), (states, 12));
        // A loop (down and back up): the first window's two ends are one
        // state, and the loop is cut out.
        let looped = states_of(&grid, "DUDDDD");
        let (straight, done) = resolve(&grid, looped, 2, WINDOW_EXPANSIONS);
        assert_eq!((done.before, done.after), (6, 4), "{done:?}");
        assert_eq!(straight, states_of(&grid, "DDDD"));
    }

    /// Windows are measured in cost, not steps: straight down through a
    /// 9 costs 10 in two steps, the way round 6 in six.
    #[test]
    fn windows_weigh_costs_not_steps() {
        let grid = Grid::parse("S11\n951\nG11").unwrap();
        let states = states_of(&grid, "DD");
        let (_, done) = resolve(&grid, states.clone(), 5, WINDOW_EXPANSIONS);
        assert_eq!((done.before, done.after), (10, 10), "{done:?}");
        let (round, done) = resolve(&grid, states, 10, WINDOW_EXPANSIONS);
        assert_eq!(done.after, 6, "{done:?}");
        assert_eq!(round.len(), 7);
    }

    #[test]
    fn windows_cover_the_path_and_overlap_by_half() {
        let prefix: Vec<Cost> = (0..=10).collect();
        assert_eq!(
            windows_of(&prefix, 4),
            vec![(0, 4), (2, 6), (4, 8), (6, 10)]
        );
        assert_eq!(windows_of(&prefix, 20), vec![(0, 10)]);
        // Steps dearer than a window: nothing to re-solve.
        assert_eq!(windows_of(&[0, 5, 10], 4), Vec::<(usize, usize)>::new());
        assert_eq!(windows_of(&[0], 4), Vec::<(usize, usize)>::new());
    }
}
