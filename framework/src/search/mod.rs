//! Executors and the types they share: limits, progress reports, outcomes.
//!
//! Every executor takes a domain, a heuristic and [`SearchOptions`] and
//! returns an [`Outcome`]. Running into a limit is an outcome, not an error.

pub mod astar;
pub mod beam;
pub(crate) mod donation;
pub mod dual;
pub mod gaps;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod hda;
pub mod ida;
pub mod incumbent;
pub mod move_pruning;
pub mod mpi;
pub mod order;
pub mod shortcut;
pub mod walk;
pub mod windows;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::domain::{Cost, Domain};
use crate::stats::SearchStats;

pub use astar::astar;
pub use hda::{hda, HdaConfig};
pub use ida::{ida, ida_in_place, IdaConfig};
pub use mpi::{mpi_hda, MpiHdaConfig};
pub use order::{Improvement, Order, Weight};
pub use walk::{walk, walk_in_place, Visit, WalkEnd};

/// Resource limits. `None` means unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Stop after this many expansions. Executors with several workers
    /// (threads, GPUs, ranks) and IDA\* count in blocks (an IDA\* thread
    /// publishes every 4,096 expansions, a GPU a launch at a time), so they
    /// may pass it by up to a block per worker; the reported `expanded` is
    /// the true count.
    pub max_expanded: Option<u64>,
    /// Stop when the estimated bytes held by open and closed exceed this.
    pub max_memory_bytes: Option<u64>,
    /// Stop after this many seconds of wall time.
    #[serde(deserialize_with = "deserialize_seconds")]
    pub max_seconds: Option<f64>,
}

impl Limits {
    /// Refuses a time limit that is not finite or is negative (a program
    /// that builds `Limits` by hand, not through [`parse_seconds`]): as a
    /// limit `inf` never stops, `NaN` and negatives stop at once.
    pub fn check(&self) -> Result<(), crate::Error> {
        match self.max_seconds {
            Some(s) if !(s.is_finite() && s >= 0.0) => Err(crate::Error::BadConfig(format!(
                "max_seconds {s}: give a finite number of seconds, 0 or more"
            ))),
            _ => Ok(()),
        }
    }
}

/// Reads a number of seconds given on a command line (a clap value
/// parser): finite and not negative. `inf` and `NaN` parse as floats, but
/// as a limit one never stops and the other stops at once.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    check_seconds(seconds)
}

/// `seconds` when it is finite and not negative, or why not.
pub fn check_seconds(seconds: f64) -> Result<f64, String> {
    if seconds.is_finite() && seconds >= 0.0 {
        Ok(seconds)
    } else {
        Err(format!(
            "{seconds} is not a number of seconds (finite, 0 or more)"
        ))
    }
}

/// Reads a number of bytes given on a command line (a clap value parser):
/// a whole number, or a number with a unit, `K`, `M`, `G` or `T` (also
/// `KiB` … `TiB`) for powers of 1024, `KB` … `TB` for powers of 1000, so
/// `4G` and `4GiB` are 4 · 2^30 and `4GB` is 4 · 10^9. Units are read
/// without regard to case, since nobody means millibytes.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let bad =
        || format!("'{text}' is not a number of bytes (e.g. 4000000000, 512M, 4G, 4GiB or 4GB)");
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let unit = unit.trim().to_ascii_uppercase();
    let scale: u64 = match unit.as_str() {
        "" | "B" => 1,
        "K" | "KIB" => 1 << 10,
        "M" | "MIB" => 1 << 20,
        "G" | "GIB" => 1 << 30,
        "T" | "TIB" => 1 << 40,
        "KB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        _ => return Err(bad()),
    };
    if let Ok(whole) = number.parse::<u64>() {
        return whole.checked_mul(scale).ok_or_else(bad);
    }
    // A fraction (`1.5G`) is taken in whole bytes, rounded down.
    let fraction: f64 = number.parse().map_err(|_| bad())?;
    let bytes = fraction * scale as f64;
    if unit.is_empty() || !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

/// Deserializes an optional number of seconds checked as
/// [`parse_seconds`] checks one (`#[serde(deserialize_with = …)]`).
pub fn deserialize_seconds<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<f64>, D::Error> {
    Option::<f64>::deserialize(deserializer)?
        .map(check_seconds)
        .transpose()
        .map_err(serde::de::Error::custom)
}

/// The instant `seconds` after `started`, or `None` (no deadline) when it
/// lies beyond what an [`Instant`] holds. Negative and NaN seconds mean
/// now, as a limit already reached.
pub fn deadline_after(started: Instant, seconds: f64) -> Option<Instant> {
    if seconds.is_nan() {
        return Some(started);
    }
    Duration::try_from_secs_f64(seconds.max(0.0))
        .ok()
        .and_then(|wait| started.checked_add(wait))
}

impl Limits {
    /// The first limit that `expanded` expansions, `bytes` held and
    /// `seconds` elapsed exceed, checked in that order. Every executor
    /// decides with this, so the limits mean the same everywhere.
    pub fn exceeded(&self, expanded: u64, bytes: u64, seconds: f64) -> Option<Limit> {
        if self.max_expanded.is_some_and(|m| expanded >= m) {
            Some(Limit::Expansions)
        } else if self.max_memory_bytes.is_some_and(|m| bytes > m) {
            Some(Limit::Memory)
        } else if self.max_seconds.is_some_and(|m| seconds >= m) {
            Some(Limit::Time)
        } else {
            None
        }
    }

    /// What is left of these limits for a search that follows others
    /// which expanded `expanded` nodes since `started`, or the limit they
    /// already reached. Memory is not shared out: each search holds its
    /// own.
    pub fn left_after(&self, expanded: u64, started: Instant) -> Result<Limits, Limit> {
        let seconds = started.elapsed().as_secs_f64();
        if let Some(limit) = self.exceeded(expanded, 0, seconds) {
            return Err(limit);
        }
        Ok(Limits {
            max_expanded: self.max_expanded.map(|m| m - expanded),
            max_memory_bytes: self.max_memory_bytes,
            max_seconds: self.max_seconds.map(|m| m - seconds),
        })
    }
}

/// The limit that ended a search early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// `max_expanded` was reached.
    Expansions,
    /// `max_memory_bytes` was reached.
    Memory,
    /// `max_seconds` was reached.
    Time,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Expansions => "expansion limit",
            Limit::Memory => "memory limit",
            Limit::Time => "time limit",
        })
    }
}

/// A snapshot handed to the progress callback about four times a second.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Expansions so far.
    pub expanded: u64,
    /// Entries on the open list(s) now.
    pub open: u64,
    /// The f-value most recently expanded (the current lower bound for A*).
    pub f: Cost,
    /// Seconds since the search started.
    pub seconds: f64,
}

/// Receives progress snapshots; the CLI draws them as a progress bar.
pub type ProgressSink = Arc<dyn Fn(&Progress) + Send + Sync>;

/// What every executor takes besides the domain and heuristic.
#[derive(Clone, Default)]
pub struct SearchOptions {
    /// Resource limits.
    pub limits: Limits,
    /// Called periodically while searching, if set.
    pub progress: Option<ProgressSink>,
    /// How best-first executors rank and when they stop (default: A\*,
    /// optimal); executors that search only for the optimum refuse others.
    pub order: Order,
}

impl SearchOptions {
    /// Options with the given limits and no progress reporting.
    pub fn with_limits(limits: Limits) -> Self {
        SearchOptions {
            limits,
            ..SearchOptions::default()
        }
    }
}

/// A path from the start to a goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<S, M> {
    /// Total edge cost.
    pub cost: Cost,
    /// The states visited, start first, goal last (`moves.len() + 1` states).
    pub states: Vec<S>,
    /// The moves taken.
    pub moves: Vec<M>,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status<S, M> {
    /// A solution: optimal (with an admissible heuristic) unless the
    /// search ran with a weight or was stopped early by a limit, when
    /// [`SearchStats::lower_bound`] is the proven bound on the optimum.
    Solved(Solution<S, M>),
    /// The whole reachable space was searched and no goal exists.
    NoSolution,
    /// A limit stopped the search first.
    LimitReached(Limit),
}

/// The result of running an executor.
#[derive(Clone, Debug)]
pub struct Outcome<S, M> {
    /// How it ended.
    pub status: Status<S, M>,
    /// What it did.
    pub stats: SearchStats,
}

impl<S, M> Outcome<S, M> {
    /// The solution, if one was found.
    pub fn solution(&self) -> Option<&Solution<S, M>> {
        match &self.status {
            Status::Solved(s) => Some(s),
            _ => None,
        }
    }

    /// Whether the solution is proven optimal: its cost no more than the
    /// reported lower bound, or no bound at all (an optimal order's
    /// solution needs none). A row's "optimal", and what ends `--dual`.
    pub fn proven_optimal(&self) -> bool {
        self.solution()
            .is_some_and(|s| self.stats.lower_bound.is_none_or(|lower| lower >= s.cost))
    }
}

/// The outcome type of an executor run on domain `D`.
pub type DomainOutcome<D> = Outcome<<D as Domain>::State, <D as Domain>::Move>;

/// How a search ends that stopped (at a limit, or out of nodes below its
/// cutoff): with its best solution if it has one (its bound says how
/// good, and `stopped_by` which limit stopped it), else as `otherwise`.
/// Shared by A\*, anytime GA\* and IDA\* below a beam.
pub(crate) fn or_best<S, M>(
    best: &mut Option<Solution<S, M>>,
    stats: &mut SearchStats,
    otherwise: Status<S, M>,
) -> Status<S, M> {
    match (best.take(), otherwise) {
        (Some(solution), Status::LimitReached(limit)) => {
            stats.stopped_by = Some(limit);
            Status::Solved(solution)
        }
        (Some(solution), _) => Status::Solved(solution),
        (None, otherwise) => otherwise,
    }
}

/// Follows parent links from `goal` to the node whose parent is `root`.
/// `node_at` gives a node's state, move, parent and g; the goal's g is the cost.
pub(crate) fn trace<'a, R: Copy + PartialEq, S: Clone + 'a, M: Clone + 'a>(
    goal: R,
    root: R,
    node_at: impl Fn(R) -> (&'a S, Option<&'a M>, R, Cost),
) -> Solution<S, M> {
    let cost = node_at(goal).3;
    let (mut states, mut moves) = (Vec::new(), Vec::new());
    let mut at = goal;
    while at != root {
        let (state, mv, parent, _) = node_at(at);
        states.push(state.clone());
        moves.extend(mv.cloned());
        at = parent;
    }
    states.reverse();
    moves.reverse();
    Solution {
        cost,
        states,
        moves,
    }
}

/// Checks limits and emits progress without touching the clock on every
/// expansion.
pub(crate) struct Watch {
    started: Instant,
    limits: Limits,
    progress: Option<ProgressSink>,
    next_report: Duration,
}

/// Expansions between clock reads; a power of two so the test is a mask.
pub(crate) const CHECK_EVERY: u64 = 1 << 12;

impl Watch {
    pub(crate) fn new(options: &SearchOptions) -> Self {
        Watch {
            started: Instant::now(),
            limits: options.limits,
            progress: options.progress.clone(),
            next_report: Duration::from_millis(250),
        }
    }

    pub(crate) fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Whether the expansion limit is reached; cheap enough for every
    /// expansion.
    #[inline]
    pub(crate) fn out_of_expansions(&self, expanded: u64) -> bool {
        self.limits.max_expanded.is_some_and(|m| expanded >= m)
    }

    /// Checks memory and time and reports progress; call every
    /// [`CHECK_EVERY`] expansions.
    pub(crate) fn check(&mut self, expanded: u64, bytes: u64, open: u64, f: Cost) -> Option<Limit> {
        let elapsed = self.started.elapsed();
        if let Some(limit) = self.limits.exceeded(expanded, bytes, elapsed.as_secs_f64()) {
            return Some(limit);
        }
        if elapsed >= self.next_report {
            self.next_report = elapsed + Duration::from_millis(250);
            if let Some(sink) = &self.progress {
                sink(&Progress {
                    expanded,
                    open,
                    f,
                    seconds: elapsed.as_secs_f64(),
                });
            }
        }
        None
    }
}

/// Turns a path of states into a solution: each step must be an edge of
/// the domain, whose move and cost it takes. Returns the first step that
/// is not an edge otherwise.
pub fn replay<D: Domain>(
    domain: &D,
    states: Vec<D::State>,
) -> Result<Solution<D::State, D::Move>, usize> {
    let mut cost = 0;
    let mut moves = Vec::with_capacity(states.len().saturating_sub(1));
    let mut edges = Vec::new();
    for (i, pair) in states.windows(2).enumerate() {
        edges.clear();
        domain.expand(&pair[0], &mut edges);
        // The cheapest edge: parallel edges of different cost may exist.
        let edge = edges
            .iter()
            .filter(|e| e.state == pair[1])
            .min_by_key(|e| e.cost)
            .ok_or(i)?;
        cost += edge.cost;
        moves.push(edge.mv.clone());
    }
    Ok(Solution {
        cost,
        states,
        moves,
    })
}

/// Turns a path of packed states that an executor traced back from a goal
/// (goal first) into a checked solution: every state decodes, the path runs
/// from the start to a goal, each step is an edge (see [`replay`]) and the
/// path costs `cost`, the cost the executor reported. On failure, what is
/// wrong with the path, as the end of a sentence about it ("the GPU path
/// …"), for the executor's own error.
#[cfg_attr(not(any(feature = "gpu", feature = "mpi")), allow(dead_code))]
pub(crate) fn replay_traced<D: crate::PackedState>(
    domain: &D,
    packed: &[u32],
    cost: Cost,
) -> Result<Solution<D::State, D::Move>, String> {
    checked_trace(domain, packed, cost, true)
}

/// [`replay_traced`] for searches that reopen states (weighted orders): a
/// state on the path may have been reached more cheaply after the goal was
/// recorded, so the path may cost less than `cost`, never more.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) fn replay_traced_within<D: crate::PackedState>(
    domain: &D,
    packed: &[u32],
    cost: Cost,
) -> Result<Solution<D::State, D::Move>, String> {
    checked_trace(domain, packed, cost, false)
}

/// [`replay_traced`] (`exact`) or [`replay_traced_within`].
#[cfg_attr(not(any(feature = "gpu", feature = "mpi")), allow(dead_code))]
fn checked_trace<D: crate::PackedState>(
    domain: &D,
    packed: &[u32],
    cost: Cost,
    exact: bool,
) -> Result<Solution<D::State, D::Move>, String> {
    let mut states = packed
        .chunks_exact(domain.packed_words())
        .map(|w| domain.unpack(w))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("holds an invalid state: {e}"))?;
    states.reverse();
    if states.first() != Some(&domain.start()) || !states.last().is_some_and(|s| domain.is_goal(s))
    {
        return Err("does not run from the start to a goal".into());
    }
    let solution =
        replay(domain, states).map_err(|step| format!("has a step {step} that is not a move"))?;
    if solution.cost > cost || (exact && solution.cost != cost) {
        return Err(format!(
            "costs {}, but the search reported cost {cost}",
            solution.cost
        ));
    }
    Ok(solution)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_must_be_finite_and_not_negative() {
        assert_eq!(parse_seconds(" 2.5 "), Ok(2.5));
        assert_eq!(parse_seconds("0"), Ok(0.0));
        for bad in ["-1", "inf", "NaN", "ten", ""] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
        let limits: Limits = serde_json::from_str(r#"{"max_seconds": 3.0}"#).unwrap();
        assert_eq!(limits.max_seconds, Some(3.0));
        let limits: Limits = serde_json::from_str("{}").unwrap();
        assert_eq!(limits.max_seconds, None);
        let err = serde_json::from_str::<Limits>(r#"{"max_seconds": -3.0}"#).unwrap_err();
        assert!(err.to_string().contains("not a number of seconds"), "{err}");
    }

    #[test]
    fn bytes_take_units_and_refuse_what_is_not_a_size() {
        for (text, bytes) in [
            ("4000000000", 4_000_000_000),
            ("0", 0),
            ("512M", 512 << 20),
            ("4G", 4 << 30),
            ("4gib", 4 << 30),
            (" 4 GiB ", 4 << 30),
            ("4GB", 4_000_000_000),
            ("1.5K", 1536),
            ("2T", 2 << 40),
            ("100b", 100),
        ] {
            assert_eq!(parse_bytes(text), Ok(bytes), "{text}");
        }
        for bad in [
            "",
            "G",
            "-5",
            "1.5",
            "4X",
            "4 G B",
            "1e3",
            "99999999999T",
            "NaN",
            ".G",
        ] {
            let err = parse_bytes(bad).unwrap_err();
            assert!(err.contains("is not a number of bytes"), "{bad}: {err}");
        }
    }

    #[test]
    fn deadlines_beyond_an_instant_are_none_and_nan_is_now() {
        let now = Instant::now();
        assert_eq!(deadline_after(now, 1e300), None);
        assert_eq!(deadline_after(now, f64::INFINITY), None);
        assert_eq!(deadline_after(now, f64::NAN), Some(now));
        assert_eq!(deadline_after(now, -5.0), Some(now));
        assert_eq!(
            deadline_after(now, 1.5),
            Some(now + Duration::from_millis(1500))
        );
    }
}
