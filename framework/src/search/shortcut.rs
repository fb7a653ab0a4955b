//! Shortening a solution after the search: shortcuts between states of
//! its own path.
//!
//! A weighted, greedy, beam or anytime search stopped early returns a path
//! that often takes detours: a stretch from state `a` to a later state `b`
//! of the path that costs more than the cheapest way from `a` to `b`.
//! [`shorten`] looks for them with no heuristic, so it works on any
//! [`Domain`]: around each state of the path a uniform-cost search
//! (Dijkstra) over every state within half the radius; a state the balls
//! of two path states share joins them (out along the first ball, back
//! along the second), and where that costs less than the path between
//! them it is a shortcut. The best shortcuts that do not overlap replace
//! their stretches; passes repeat until one finds nothing. The way back
//! along the second ball undoes its moves: where a move cannot be undone
//! at its own cost the join fails its check and only shortcuts that end in
//! the second state itself (half the radius) are found.
//!
//! Why the result is sound: every new step is an edge the domain's
//! `expand` produced (each checked when a shortcut is taken), the path
//! still runs from the same start to the same goal, and the result is
//! rebuilt through [`replay`] (each step checked, the cost summed again).
//! The cost only falls, so a proven lower bound on the optimum stays one;
//! the bound over cost only tightens.
//!
//! Cost: two balls of half the radius per path state and pass, spread over
//! the machine's cores, in place of one of the whole radius: on the
//! 35-puzzle at radius 12 about 0.1-0.3 s a path on two cores, against
//! 16-25 s.

use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

use super::{replay, DomainOutcome, Improvement, Status};
use crate::domain::{Cost, Domain, Edge};

/// What [`shorten`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Shortened {
    /// The cost before.
    pub before: Cost,
    /// The cost after.
    pub after: Cost,
    /// Shortcuts taken, over all passes.
    pub shortcuts: usize,
    /// Passes made (the last one found nothing, unless the path became a
    /// single state).
    pub passes: usize,
    /// States expanded by the balls.
    pub expanded: u64,
}

/// One shortcut: from path state `from` to the later path state `to`, the
/// states strictly between (in order), `saving` cheaper than the path.
pub(super) struct Shortcut<S> {
    pub(super) from: usize,
    pub(super) to: usize,
    pub(super) saving: Cost,
    pub(super) between: Vec<S>,
}

/// Shortens the path `states` (start first) as the module docs say, with
/// balls of `radius`; returns the new path (same ends) and what was done.
/// `states` must be a path of the domain: each step an edge.
pub fn shorten<D: Domain>(
    domain: &D,
    states: Vec<D::State>,
    radius: Cost,
) -> (Vec<D::State>, Shortened) {
    take_shortcuts(domain, states, |states, prefix, expanded| {
        best_shortcuts(domain, states, prefix, radius, expanded)
    })
}

/// Shortens the path `states` by the shortcuts `find` returns for it (given
/// the path, its prefix costs and the expansion count to add to), the best
/// disjoint ones each pass, until a pass takes none; returns the new path
/// and what was done. `states` must be a path of the domain.
pub(super) fn take_shortcuts<D: Domain>(
    domain: &D,
    mut states: Vec<D::State>,
    mut find: impl FnMut(&[D::State], &[Cost], &mut u64) -> Vec<Shortcut<D::State>>,
) -> (Vec<D::State>, Shortened) {
    let mut done = Shortened::default();
    loop {
        // The path's cost up to each state; not a path: left as it is.
        let Some(prefix) = prefix_costs(domain, &states) else {
            return (states, done);
        };
        let cost = prefix.last().copied().unwrap_or(0);
        if done.passes == 0 {
            done.before = cost;
        }
        done.after = cost;
        done.passes += 1;
        // A state twice on the path is a loop: a finder may return it as a
        // shortcut with nothing between (balls hold it at cost 0 in both,
        // a window's search ends where it starts), saving the whole loop.
        let found = find(&states, &prefix, &mut done.expanded);
        let chosen = disjoint(found);
        if chosen.is_empty() {
            break;
        }
        done.shortcuts += chosen.len();
        let mut next = Vec::with_capacity(states.len());
        let mut at = 0;
        for cut in chosen {
            next.extend_from_slice(&states[at..=cut.from]);
            next.extend(cut.between);
            if next.last() == Some(&states[cut.to]) {
                // A loop cut out: its two ends are one state.
                next.pop();
            }
            at = cut.to;
        }
        next.extend_from_slice(&states[at..]);
        match rethread(domain, next) {
            Some(next) => states = next,
            None => return (states, done),
        }
    }
    (states, done)
}

/// Shortens the solution of `outcome` with balls of `radius` (see
/// [`shorten`]), as [`improve_outcome`] says.
pub fn shorten_outcome<D: Domain>(
    domain: &D,
    outcome: &mut DomainOutcome<D>,
    radius: Cost,
    weight: f64,
) -> Option<Shortened> {
    improve_outcome(domain, outcome, weight, |states| {
        shorten(domain, states, radius)
    })
}

/// Replaces the solution of `outcome`, if it has one and it is not proven
/// optimal, by what `improve` makes of its path, if that replays as a
/// cheaper path between the same ends; the time taken is added to the
/// outcome's seconds, and a cheaper solution is recorded as one more
/// [`Improvement`] (at `weight`). Returns what was done (None: nothing to
/// do).
pub fn improve_outcome<D: Domain>(
    domain: &D,
    outcome: &mut DomainOutcome<D>,
    weight: f64,
    improve: impl FnOnce(Vec<D::State>) -> (Vec<D::State>, Shortened),
) -> Option<Shortened> {
    let Status::Solved(solution) = &mut outcome.status else {
        return None;
    };
    let lower = outcome.stats.lower_bound;
    if lower.is_some_and(|l| l >= solution.cost) {
        return None;
    }
    let started = Instant::now();
    let (states, done) = improve(solution.states.clone());
    let checked = replay(domain, states);
    let stats = &mut outcome.stats;
    stats.seconds += started.elapsed().as_secs_f64();
    // Always a path of `expand`'s edges from the same start to the same
    // goal; a failed check would keep the search's own solution.
    let shorter = checked.ok().filter(|s| {
        s.cost < solution.cost
            && s.states.first() == solution.states.first()
            && s.states.last() == solution.states.last()
    });
    if let Some(shorter) = shorter {
        stats.improvements.push(Improvement {
            seconds: stats.seconds,
            cost: shorter.cost,
            lower_bound: lower.unwrap_or(0).min(shorter.cost),
            expanded: stats.expanded,
            weight,
        });
        *solution = shorter;
    }
    Some(done)
}

/// For each path state, the shortcut from it that saves the most, if any.
///
/// Every path state gets a Dijkstra ball of half the radius (on every
/// core); a state two balls share, `x` in the balls of path states `i < j`,
/// joins them: from `i` to `x` in `i`'s ball, then back along `j`'s ball
/// from `x` to `j` — a path when the moves of that stretch can be undone
/// at the same cost (sliding tiles, pancakes), checked edge by edge, and
/// dropped otherwise (then the next best is tried: where `x` is `j`
/// itself no move is undone). Two half balls cost far less than one full
/// one; in a domain whose moves cannot be undone only shortcuts of half
/// the radius are found.
fn best_shortcuts<D: Domain>(
    domain: &D,
    states: &[D::State],
    prefix: &[Cost],
    radius: Cost,
    expanded: &mut u64,
) -> Vec<Shortcut<D::State>> {
    let half = radius.div_ceil(2);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = states.len().div_ceil(threads).max(1);
    let balls: Vec<Ball<D::State>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..states.len())
            .step_by(chunk)
            .map(|first| {
                scope.spawn(move || {
                    (first..(first + chunk).min(states.len()))
                        .map(|centre| ball(domain, &states[centre], half))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            // A ball's thread panics only if the domain's `expand` does.
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    // Per state reached: (ball, node) of every ball that reached it.
    let mut reached: HashMap<&D::State, Vec<(usize, usize)>> = HashMap::new();
    for (centre, ball) in balls.iter().enumerate() {
        *expanded += ball.expanded;
        for (node, n) in ball.nodes.iter().enumerate() {
            reached.entry(&n.state).or_default().push((centre, node));
        }
    }
    // Per start: every (saving, end, meeting state's node in each ball).
    let mut candidates: Vec<Vec<(Cost, usize, usize, usize)>> = vec![Vec::new(); states.len()];
    for list in reached.values() {
        for (a, &(i, node_i)) in list.iter().enumerate() {
            for &(j, node_j) in &list[a + 1..] {
                let (i, node_i, j, node_j) = if i < j {
                    (i, node_i, j, node_j)
                } else {
                    (j, node_j, i, node_i)
                };
                let through = balls[i].nodes[node_i].g + balls[j].nodes[node_j].g;
                let along = prefix[j] - prefix[i];
                if i != j && through < along {
                    candidates[i].push((along - through, j, node_i, node_j));
                }
            }
        }
    }
    let mut found = Vec::new();
    let mut edges = Vec::new();
    for (i, mut list) in candidates.into_iter().enumerate() {
        // The biggest saving whose way back checks out.
        list.sort_unstable_by(|a, b| b.cmp(a));
        for (saving, j, node_i, node_j) in list {
            // Out along `i`'s ball to the meeting state, then back along
            // `j`'s.
            let mut between = balls[i].path_to(node_i);
            let mut back = balls[j].path_to(node_j);
            back.pop(); // the meeting state, already in `between`
            back.reverse();
            between.extend(back);
            // `between` runs from state `i` to state `j`: each step must be
            // an edge, and the whole cost what the balls paid. The states
            // are taken from the edges themselves, from state `i` on (a
            // state may carry how it was reached, which the ball's copy
            // has the other way round).
            let mut threaded = Vec::with_capacity(between.len());
            let mut cost: Cost = 0;
            let mut at = states[i].clone();
            for target in &between[1..] {
                let Some(edge) = cheapest_edge(domain, &at, target, &mut edges) else {
                    break;
                };
                cost += edge.cost;
                at = edge.state.clone();
                threaded.push(at.clone());
            }
            if threaded.len() + 1 != between.len() || cost + saving != prefix[j] - prefix[i] {
                continue;
            }
            // Strictly between `i` and `j`: `j` itself off the end (nothing
            // is left for a loop, where the two are one state).
            threaded.pop();
            found.push(Shortcut {
                from: i,
                to: j,
                saving,
                between: threaded,
            });
            break;
        }
    }
    found
}

/// A Dijkstra ball: every state within a cost of its centre (node 0),
/// each with its cost and the node it was reached from.
struct Ball<S> {
    nodes: Vec<BallNode<S>>,
    expanded: u64,
}

/// A node of a ball: its state, its cost from the centre, its parent node.
struct BallNode<S> {
    state: S,
    g: Cost,
    parent: usize,
}

impl<S: Clone> Ball<S> {
    /// The states from the centre to `node`, both included.
    fn path_to(&self, mut node: usize) -> Vec<S> {
        let mut path = vec![self.nodes[node].state.clone()];
        while node != 0 {
            node = self.nodes[node].parent;
            path.push(self.nodes[node].state.clone());
        }
        path.reverse();
        path
    }
}

/// The Dijkstra ball of `radius` around `centre`, one node per state at
/// its least cost.
fn ball<D: Domain>(domain: &D, centre: &D::State, radius: Cost) -> Ball<D::State> {
    let mut ball = Ball {
        nodes: vec![BallNode {
            state: centre.clone(),
            g: 0,
            parent: 0,
        }],
        expanded: 0,
    };
    // The node of each state's cheapest way so far; a cheaper way adds a
    // node, and the one it supersedes is skipped when popped.
    let mut best: HashMap<D::State, usize> = HashMap::new();
    best.insert(centre.clone(), 0);
    // A min-heap of (cost, node).
    let mut open = BinaryHeap::new();
    open.push(std::cmp::Reverse((0, 0usize)));
    let mut edges: Vec<Edge<D::State, D::Move>> = Vec::new();
    let mut settled = vec![false];
    while let Some(std::cmp::Reverse((g, node))) = open.pop() {
        let state = &ball.nodes[node].state;
        if best.get(state).is_some_and(|&at| at != node) {
            continue;
        }
        settled[node] = true;
        ball.expanded += 1;
        edges.clear();
        domain.expand(state, &mut edges);
        for edge in edges.drain(..) {
            let cost = g + edge.cost;
            if cost > radius {
                continue;
            }
            let entry = best.entry(edge.state);
            if matches!(&entry, Entry::Occupied(known) if ball.nodes[*known.get()].g <= cost) {
                continue;
            }
            let child = ball.nodes.len();
            ball.nodes.push(BallNode {
                state: entry.key().clone(),
                g: cost,
                parent: node,
            });
            entry.insert_entry(child);
            settled.push(false);
            open.push(std::cmp::Reverse((cost, child)));
        }
    }
    // Keep one node per state: the settled ones (stale nodes were
    // superseded by a cheaper one). Parents are always settled nodes, so
    // renumbering keeps every chain intact.
    let mut renumber = vec![usize::MAX; ball.nodes.len()];
    let mut kept = Vec::with_capacity(best.len());
    for (old, node) in ball.nodes.into_iter().enumerate() {
        if settled[old] {
            renumber[old] = kept.len();
            kept.push(BallNode {
                parent: renumber[node.parent],
                ..node
            });
        }
    }
    ball.nodes = kept;
    ball
}

/// The shortcuts to take: the biggest savings first, each only where it
/// shares no stretch with one taken; in path order.
fn disjoint<S>(mut found: Vec<Shortcut<S>>) -> Vec<Shortcut<S>> {
    found.sort_by(|a, b| b.saving.cmp(&a.saving).then(a.from.cmp(&b.from)));
    let mut taken: Vec<Shortcut<S>> = Vec::new();
    for cut in found {
        // Stretches [from, to] may share an end state, not a step.
        if taken.iter().all(|t| cut.to <= t.from || cut.from >= t.to) {
            taken.push(cut);
        }
    }
    taken.sort_by_key(|c| c.from);
    taken
}

/// The path `states` again with each state taken from the edge that
/// reaches it from the one before (a state may carry how it was reached:
/// tiles keep the last move, to skip its undoing), and any step straight
/// back to the state before cut out; None if a step is no edge.
fn rethread<D: Domain>(domain: &D, states: Vec<D::State>) -> Option<Vec<D::State>> {
    let mut out: Vec<D::State> = Vec::with_capacity(states.len());
    let mut edges = Vec::new();
    for target in states {
        let Some(at) = out.last() else {
            out.push(target);
            continue;
        };
        if let Some(edge) = cheapest_edge(domain, at, &target, &mut edges) {
            out.push(edge.state.clone());
        } else if out.len() >= 2 && out[out.len() - 2] == target {
            out.pop();
        } else {
            return None;
        }
    }
    Some(out)
}

/// The cheapest edge from `from` to `to`, if any (`edges` is scratch).
fn cheapest_edge<'e, D: Domain>(
    domain: &D,
    from: &D::State,
    to: &D::State,
    edges: &'e mut Vec<Edge<D::State, D::Move>>,
) -> Option<&'e Edge<D::State, D::Move>> {
    edges.clear();
    domain.expand(from, edges);
    edges
        .iter()
        .filter(|e| &e.state == to)
        .min_by_key(|e| e.cost)
}

/// The cost of the path up to each of its states (None: a step is not an
/// edge of the domain).
fn prefix_costs<D: Domain>(domain: &D, states: &[D::State]) -> Option<Vec<Cost>> {
    let mut prefix = Vec::with_capacity(states.len());
    let mut cost: Cost = 0;
    prefix.push(0);
    let mut edges = Vec::new();
    for pair in states.windows(2) {
        let step = cheapest_edge(domain, &pair[0], &pair[1], &mut edges)?.cost;
        cost = cost.checked_add(step)?;
        prefix.push(cost);
    }
    Some(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Manhattan};
    use crate::rng::SplitMix64;
    use crate::search::{astar, Order, SearchOptions, Weight};

    /// A path with a detour on an open grid: a radius that covers it gives
    /// the straight path's cost; a loop goes at any radius.
    #[test]
    fn detours_and_loops_are_cut() {
        // Right along the top and down the right side, then back left:
        // 12 steps where the left side's 4 do.
        let grid = Grid::parse("S....\n.....\n.....\n.....\nG....").unwrap();
        let states = crate::grid::states_of(&grid, "RRRRDDDDLLLL");
        assert!(grid.is_goal(states.last().unwrap()));
        let (short, done) = shorten(&grid, states.clone(), 4);
        assert_eq!((done.before, done.after), (12, 4), "{done:?}");
        assert_eq!(short.first(), states.first());
        assert_eq!(short.last(), states.last());
        assert_eq!(replay(&grid, short).unwrap().cost, 4);
        // Shortcuts of 2 save nothing on this path.
        let (_, small) = shorten(&grid, states.clone(), 2);
        assert_eq!(small.after, 12, "{small:?}");
        // A loop (down one and back up) is cut at any radius.
        let mut looped = states[..3].to_vec();
        looped.push(states[1]);
        looped.push(states[2]);
        looped.extend_from_slice(&states[3..]);
        let (short, done) = shorten(&grid, looped, 1);
        assert_eq!((done.before, done.after), (14, 12), "{done:?}");
        assert_eq!(short, states);
    }

    /// Weighted A* solutions of random mazes shortened with a radius as
    /// long as the path cost exactly the optimum (the balls of the start
    /// and the goal meet), and never more than before with any radius.
    #[test]
    fn a_radius_as_long_as_the_path_finds_the_optimum() {
        let mut rng = SplitMix64::new(43);
        let mut shortened = 0;
        for trial in 0..60 {
            let text = Grid::random_text(&mut rng, 24, 24, 3, (0, 0), (23, 23));
            // Unit costs: every move is undone at its own cost.
            let unit: String = text
                .chars()
                .map(|c| if c.is_ascii_digit() { '.' } else { c })
                .collect();
            let weighted = Grid::parse(&text).unwrap();
            let grid = Grid::parse(&unit).unwrap();
            check_never_worse(&weighted, trial);
            let Some((best, path)) = optimum_and_greedy(&grid) else {
                continue;
            };
            for radius in [1, 3, 6] {
                let (short, done) = shorten(&grid, path.states.clone(), radius);
                let cost = replay(&grid, short).unwrap().cost;
                assert!(cost <= path.cost && cost >= best, "trial {trial}");
                assert_eq!(cost, done.after);
            }
            let (short, done) = shorten(&grid, path.states.clone(), path.cost);
            assert_eq!(
                replay(&grid, short).unwrap().cost,
                best,
                "trial {trial}: {done:?}"
            );
            shortened += usize::from(best < path.cost);
        }
        assert!(shortened >= 5, "only {shortened} greedy paths were longer");
    }

    /// On a maze whose cells cost 1 to 9 to enter (a move back costs
    /// another amount), shortened paths are still paths, never dearer and
    /// never below the optimum.
    fn check_never_worse(grid: &Grid, trial: usize) {
        let Some((best, path)) = optimum_and_greedy(grid) else {
            return;
        };
        for radius in [4, 12, path.cost] {
            let (short, _) = shorten(grid, path.states.clone(), radius);
            let cost = replay(grid, short).unwrap().cost;
            assert!(cost <= path.cost && cost >= best, "weighted trial {trial}");
        }
    }

    /// The maze's optimum and a greedy solution, if it has a path.
    fn optimum_and_greedy(
        grid: &Grid,
    ) -> Option<(Cost, crate::Solution<crate::grid::Cell, crate::grid::Step>)> {
        let best = astar(grid, &Manhattan, &SearchOptions::default())
            .unwrap()
            .solution()?
            .cost;
        let options = SearchOptions {
            order: Order {
                weight: Weight::Greedy,
                ..Order::default()
            },
            ..SearchOptions::default()
        };
        let greedy = astar(grid, &Manhattan, &options).unwrap();
        Some((best, greedy.solution()?.clone()))
    }
}
