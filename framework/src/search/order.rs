//! Beyond optimal search: how a best-first executor ranks its open list and
//! when it may stop before proving the optimum.
//!
//! [`Order`] is an option of every best-first executor (`astar`, `hda`,
//! `gpu`, `multi-gpu`, `mpi-hda`), not an executor of its own:
//!
//! - **weighted** (w > 1): open is ranked by g + w·h. A goal costs at most
//!   w·C\*: the search stops once every open node n has w·f(n) ≥ C for the
//!   incumbent cost C, where f = g + h is unweighted. With an admissible h
//!   some open node lies on an optimal path with its optimal g (the
//!   executors reopen closed nodes reached more cheaply, which keeps that
//!   true), so C\* ≥ min f ≥ C/w.
//! - **greedy** (w = ∞): ranked by h alone; the first goal ends the search.
//! - **anytime**: the search goes on after each goal, pruning nodes with
//!   f ≥ C, and lowers the weight after each improvement (as anytime
//!   repairing A\*, ARA\*, does), re-ranking the open list. Run to the end
//!   it proves the optimum; stopped by a limit it returns its best goal.
//!
//! Every solution comes with a proven lower bound on C\*: the least f of
//! the open nodes and of the nodes pruned, and C itself. Weights are exact
//! ratios of integers (`1.25` is 5/4), so keys are integers and runs are
//! deterministic.

use serde::{Deserialize, Serialize};

use crate::domain::Cost;

/// The weight on h in a best-first executor's ranking, g + w·h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weight {
    /// w = `num` / `den`, at least 1, in lowest terms.
    Ratio {
        /// Numerator.
        num: u32,
        /// Denominator.
        den: u32,
    },
    /// Rank by h alone (ties toward the larger g, as A\*'s are): greedy
    /// best-first search, w = ∞.
    Greedy,
}

/// The largest weight short of greedy; more is `greedy` in all but name.
pub const MOST_WEIGHT: u32 = 1000;

/// Weights below this over 1 are rounded to 1 by the anytime schedule:
/// the last step before proving the optimum.
const LAST_STEP: (u32, u32) = (1, 20);

impl Default for Weight {
    fn default() -> Self {
        Weight::ONE
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Weight {
    /// w = 1: A\*.
    pub const ONE: Weight = Weight::Ratio { num: 1, den: 1 };

    /// The weight `num / den` in lowest terms, if it is 1 to
    /// [`MOST_WEIGHT`].
    pub fn ratio(num: u32, den: u32) -> Result<Weight, String> {
        if den == 0
            || num < den
            || num / den > MOST_WEIGHT
            || (num / den == MOST_WEIGHT && !num.is_multiple_of(den))
        {
            return Err(format!(
                "weight {num}/{den}: give 1 to {MOST_WEIGHT}, or 'greedy'"
            ));
        }
        let d = gcd(num, den);
        Ok(Weight::Ratio {
            num: num / d,
            den: den / d,
        })
    }

    /// Reads `1.5`, `3`, `greedy` (or `inf`): a decimal of at most three
    /// places from 1 to [`MOST_WEIGHT`].
    pub fn parse(text: &str) -> Result<Weight, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("greedy") || text.eq_ignore_ascii_case("inf") {
            return Ok(Weight::Greedy);
        }
        let bad = || {
            format!("weight '{text}': give a number from 1 to {MOST_WEIGHT} with at most three decimals, or 'greedy'")
        };
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        if whole.is_empty()
            || fraction.len() > 3
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || !fraction.bytes().all(|b| b.is_ascii_digit())
            || whole.len() > 4
        {
            return Err(bad());
        }
        let whole: u32 = whole.parse().map_err(|_| bad())?;
        let thousandths: u32 = format!("{fraction:0<3}").parse().map_err(|_| bad())?;
        Weight::ratio(whole * 1000 + thousandths, 1000).map_err(|_| bad())
    }

    /// The weight nearest `w` in thousandths (an experiment's `weight:
    /// 1.5`); infinity is greedy.
    pub fn from_f64(w: f64) -> Result<Weight, String> {
        if w == f64::INFINITY {
            return Ok(Weight::Greedy);
        }
        if !(1.0..=f64::from(MOST_WEIGHT)).contains(&w) {
            return Err(format!("weight {w}: give 1 to {MOST_WEIGHT}, or 'greedy'"));
        }
        Weight::ratio((w * 1000.0).round() as u32, 1000)
    }

    /// Whether this is w = 1.
    pub fn is_one(self) -> bool {
        self == Weight::ONE
    }

    /// The weight as a number (infinity for greedy).
    pub fn value(self) -> f64 {
        match self {
            Weight::Ratio { num, den } => f64::from(num) / f64::from(den),
            Weight::Greedy => f64::INFINITY,
        }
    }

    /// The open-list key of a node: den·g + num·h (h for greedy), and
    /// whether it did not fit a [`Cost`] (then it is `Cost::MAX`, and the
    /// ranking is no longer exact: executors stop trusting it).
    #[inline]
    pub fn key(self, g: Cost, h: Cost) -> (Cost, bool) {
        match self {
            Weight::Ratio { num: 1, den: 1 } => match g.checked_add(h) {
                Some(f) => (f, false),
                None => (Cost::MAX, true),
            },
            Weight::Ratio { num, den } => {
                let key = u64::from(den) * u64::from(g) + u64::from(num) * u64::from(h);
                match Cost::try_from(key) {
                    Ok(key) => (key, false),
                    Err(_) => (Cost::MAX, true),
                }
            }
            Weight::Greedy => (h, false),
        }
    }

    /// The weight as the GPU kernels take it: (num, den, greedy), keys
    /// den·g + num·h, or h when `greedy` is 1; (1, 1, 0) is A\*.
    pub fn device_ratio(self) -> (u32, u32, u32) {
        match self {
            Weight::Ratio { num, den } => (num, den, 0),
            Weight::Greedy => (1, 1, 1),
        }
    }

    /// The least f = g + h that cannot lead to a goal below `incumbent`
    /// over this weight: w·f ≥ C, so f ≥ ⌈C/w⌉. Nodes with such f are
    /// pruned and the search stops when none is left below it. Greedy
    /// prunes everything: its first goal ends the search.
    pub fn cutoff(self, incumbent: Cost) -> Cost {
        match self {
            Weight::Ratio { num, den } => {
                let c = u64::from(incumbent) * u64::from(den);
                Cost::try_from(c.div_ceil(u64::from(num))).unwrap_or(Cost::MAX)
            }
            Weight::Greedy => 0,
        }
    }

    /// The next weight of the anytime schedule: half the way to 1
    /// (greedy goes to 3); within 1/20 of 1 it is 1.
    pub fn lowered(self) -> Weight {
        match self {
            Weight::Greedy => Weight::Ratio { num: 3, den: 1 },
            Weight::Ratio { num, den } => {
                let (num, den) = (u64::from(num) + u64::from(den), 2 * u64::from(den));
                // w - 1 < 1/20  ⟺  20·(num - den) < den
                if LAST_STEP.1 as u64 * (num - den) < LAST_STEP.0 as u64 * den {
                    return Weight::ONE;
                }
                match (u32::try_from(num), u32::try_from(den)) {
                    (Ok(num), Ok(den)) => Weight::ratio(num, den).unwrap_or(Weight::ONE),
                    _ => Weight::ONE,
                }
            }
        }
    }

    /// The next weight of anytime GA*'s restarts (`search::gpu`): three
    /// quarters of the excess over 1, rounded down to a twentieth and at
    /// least a twentieth lower (greedy goes to 3; 1.4 → 1.3 → 1.2 → 1.15 →
    /// 1.1 → 1.05 → 1). Finer than [`Self::lowered`] because each restart
    /// searches anew and the cost of a run grows steeply as w nears 1: on
    /// the 35-puzzle with 5-tile databases a run at 1.3 takes a tenth of a
    /// second and one at 1.2 often seconds. Twentieths keep den·g + num·h
    /// within the GPU's 15-bit heap keys for paths of hundreds of moves.
    pub fn lowered_for_restarts(self) -> Weight {
        match self {
            Weight::Greedy => Weight::Ratio { num: 3, den: 1 },
            Weight::Ratio { num, den } => {
                let (num, den) = (u64::from(num), u64::from(den));
                let excess_twentieths = (20 * (num - den)).div_ceil(den);
                let kept = (15 * (num - den) / den).min(excess_twentieths.saturating_sub(1));
                match u32::try_from(kept) {
                    Ok(0) | Err(_) => Weight::ONE,
                    Ok(kept) => Weight::ratio(20 + kept, 20).unwrap_or(Weight::ONE),
                }
            }
        }
    }

    /// A weight strictly between `self` (a run that found its solution)
    /// and the lower `failed` (a run that ran out of its budget), halfway
    /// on a grid of fortieths; None where no fortieth lies strictly
    /// between, or `self` is greedy (no halfway to infinity).
    pub fn halfway_to(self, failed: Weight) -> Option<Weight> {
        let (Weight::Ratio { num: a, den: da }, Weight::Ratio { num: b, den: db }) = (self, failed)
        else {
            return None;
        };
        // In fortieths, rounded to nearest: (a/da + b/db) / 2 · 40.
        let (a, da, b, db) = (u64::from(a), u64::from(da), u64::from(b), u64::from(db));
        let twice = 40 * (a * db + b * da);
        let mid = (twice + da * db) / (2 * da * db);
        // Strictly between: above `failed`, below `self` (cross-multiplied).
        let above = mid * db > 40 * b;
        let below = mid * da < 40 * a;
        if !(above && below) {
            return None;
        }
        u32::try_from(mid)
            .ok()
            .and_then(|mid| Weight::ratio(mid, 40).ok())
    }
}

impl std::fmt::Display for Weight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Weight::Greedy => f.write_str("greedy"),
            Weight::Ratio { num, den } if num.is_multiple_of(*den) => write!(f, "{}", num / den),
            Weight::Ratio { .. } => {
                let text = format!("{:.3}", self.value());
                f.write_str(text.trim_end_matches('0'))
            }
        }
    }
}

impl Serialize for Weight {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Weight::Greedy => serializer.serialize_str("greedy"),
            Weight::Ratio { .. } => serializer.serialize_f64(self.value()),
        }
    }
}

impl<'de> Deserialize<'de> for Weight {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Given {
            Number(f64),
            Text(String),
        }
        match Given::deserialize(deserializer)? {
            Given::Number(w) => Weight::from_f64(w),
            Given::Text(t) => Weight::parse(&t),
        }
        .map_err(serde::de::Error::custom)
    }
}

/// A shortcut radius as given ([`Order::shortcut`]): a cost from 1 up, the
/// one check for flags, grids and configs alike.
pub fn shortcut_radius(given: u64) -> Result<u32, crate::Error> {
    positive_cost("shortcut", given)
}

/// A window length as given ([`Order::window`]): a cost from 1 up, the
/// one check for flags, grids and configs alike.
pub fn window_length(given: u64) -> Result<u32, crate::Error> {
    positive_cost("window", given)
}

/// `given` as a cost from 1 up, or an error naming option `key`.
fn positive_cost(key: &str, given: u64) -> Result<u32, crate::Error> {
    match u32::try_from(given) {
        Ok(0) | Err(_) => Err(crate::Error::BadConfig(format!(
            "{key} must be a cost from 1 to 4294967295 (leave it out for none)"
        ))),
        Ok(cost) => Ok(cost),
    }
}

/// How a best-first executor ranks and stops (see the module docs).
/// The default is A\*: w = 1, one optimal solution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Order {
    /// The weight on h (for anytime: the first weight).
    pub weight: Weight,
    /// Go on after each solution, lowering the weight, until the optimum
    /// is proven or a limit stops the search.
    pub anytime: bool,
    /// Beam search of this width instead of best-first: layer by layer,
    /// the `beam` best states of each layer by g + w·h are kept.
    pub beam: Option<u64>,
    /// After the search, shorten its solution by shortcuts of up to this
    /// cost between states of its path ([`crate::search::shortcut`]).
    /// Applied where a best-first domain turns an outcome into its row
    /// (`frontier_app::plugin::report`); the executors ignore it.
    pub shortcut: Option<u32>,
    /// After the search (and the shortcuts), re-solve the solution's path
    /// in windows of up to this cost, each optimally between its two ends
    /// ([`crate::search::windows`]; domains with
    /// [`crate::Domain::estimate_between`]). Applied where the shortcuts
    /// are; the executors ignore it.
    pub window: Option<u32>,
}

impl Order {
    /// A\*: one optimal solution (a shortcut or window, applied after the
    /// search, changes nothing of it: both leave optimal solutions alone).
    pub fn is_optimal(&self) -> bool {
        Order {
            shortcut: None,
            window: None,
            ..*self
        } == Order::default()
    }

    /// Added to an executor's row name: `-w1.5`, `-greedy`, `-anytime`,
    /// `-beam1000`, `-sc12`, `-win40`; empty for A\*.
    pub fn suffix(&self) -> String {
        let mut suffix = String::new();
        if let Some(width) = self.beam {
            suffix += &format!("-beam{width}");
        }
        match self.weight {
            Weight::Greedy => suffix += "-greedy",
            w if !w.is_one() => suffix += &format!("-w{w}"),
            _ => {}
        }
        if self.anytime {
            suffix += "-anytime";
        }
        if let Some(radius) = self.shortcut {
            suffix += &format!("-sc{radius}");
        }
        if let Some(length) = self.window {
            suffix += &format!("-win{length}");
        }
        suffix
    }

    /// Refuses what `executor` does not run: anything but A\*'s order.
    pub fn only_optimal(&self, executor: &str) -> Result<(), crate::Error> {
        if self.is_optimal() {
            Ok(())
        } else {
            Err(crate::Error::BadConfig(format!(
                "{executor} searches for the optimum only: weight, greedy, anytime and beam \
                 are options of astar, hda, gpu, multi-gpu and mpi-hda (beams: astar, hda, gpu)"
            )))
        }
    }

    /// Refuses, before any search, what `domain` cannot do after one: a
    /// window needs [`crate::Domain::estimate_between`] to re-solve its
    /// stretches of the path.
    pub fn check_domain<D: crate::Domain>(&self, domain: &D) -> Result<(), crate::Error> {
        if self.window.is_some() {
            let start = domain.start();
            if domain.estimate_between(&start, &start).is_none() {
                return Err(crate::Error::BadConfig(
                    "window: this domain has no estimate of the cost between two states \
                     (Domain::estimate_between), which re-solving a window needs"
                        .into(),
                ));
            }
        }
        Ok(())
    }

    /// Refuses anything but A\*'s order on a best-first executor that
    /// does not run the others yet.
    pub fn not_yet(&self, executor: &str) -> Result<(), crate::Error> {
        if self.is_optimal() {
            Ok(())
        } else {
            Err(crate::Error::BadConfig(format!(
                "{executor} runs A*'s order only so far: weight, greedy, anytime and beam \
                 run on astar and hda, weights, anytime and beams on gpu, weights and anytime on \
                 multi-gpu and mpi-hda"
            )))
        }
    }

    /// Refuses a beam (for executors that rank but do not run beams) and a
    /// beam of width 0 or with anytime.
    pub fn check(&self, executor: &str, beams: bool) -> Result<(), crate::Error> {
        match self.beam {
            Some(_) if !beams => Err(crate::Error::BadConfig(format!(
                "{executor} has no beam search: run it with astar, hda or gpu"
            ))),
            Some(0) => Err(crate::Error::BadConfig(
                "beam 0: give a width of 1 or more".into(),
            )),
            Some(_) if self.anytime => Err(crate::Error::BadConfig(
                "beam search is not anytime: give beam or anytime, not both".into(),
            )),
            _ => Ok(()),
        }
    }

    /// The least f pruned once a goal of cost `incumbent` is known, with
    /// the weight in force: anytime keeps everything below the incumbent.
    pub fn cutoff(&self, weight: Weight, incumbent: Cost) -> Cost {
        if self.anytime {
            incumbent
        } else {
            weight.cutoff(incumbent)
        }
    }
}

/// One improved solution of an anytime (or weighted) search.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Improvement {
    /// Seconds since the search started.
    pub seconds: f64,
    /// The solution's cost.
    pub cost: Cost,
    /// The proven lower bound on the optimum when it was found.
    pub lower_bound: Cost,
    /// Expansions until then.
    pub expanded: u64,
    /// The weight in force.
    pub weight: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_parse_as_exact_ratios() {
        assert_eq!(Weight::parse("1.5"), Ok(Weight::Ratio { num: 3, den: 2 }));
        assert_eq!(Weight::parse("1.25"), Ok(Weight::Ratio { num: 5, den: 4 }));
        assert_eq!(Weight::parse("3"), Ok(Weight::Ratio { num: 3, den: 1 }));
        assert_eq!(Weight::parse("greedy"), Ok(Weight::Greedy));
        assert_eq!(Weight::parse("1"), Ok(Weight::ONE));
        for bad in ["0.5", "1.0001", "-2", "", "x", "1e3", "1001", ".5", "99999"] {
            let e = Weight::parse(bad).unwrap_err();
            assert!(e.contains("weight"), "{bad}: {e}");
        }
        assert_eq!(Weight::from_f64(1.5), Ok(Weight::Ratio { num: 3, den: 2 }));
        assert!(Weight::from_f64(0.9).is_err());
        assert!(Weight::from_f64(f64::NAN).is_err());
        assert_eq!(Weight::parse("1.125").unwrap().to_string(), "1.125");
        assert_eq!(Weight::parse("2.000").unwrap().to_string(), "2");
    }

    #[test]
    fn keys_rank_by_g_plus_w_h_and_report_overflow() {
        let w = Weight::parse("1.5").unwrap();
        // 2·g + 3·h ranks as g + 1.5·h.
        assert_eq!(w.key(10, 4), (32, false));
        assert_eq!(Weight::ONE.key(10, 4), (14, false));
        assert_eq!(Weight::Greedy.key(10, 4), (4, false));
        assert_eq!(w.key(Cost::MAX, 1), (Cost::MAX, true));
    }

    #[test]
    fn cutoff_is_the_least_f_that_w_times_f_puts_at_the_incumbent() {
        let w = Weight::parse("1.5").unwrap();
        for c in 0..200u32 {
            let cut = w.cutoff(c);
            // 1.5·f ≥ c exactly from f = cut on.
            assert!(3 * cut >= 2 * c, "{c}");
            assert!(cut == 0 || 3 * (cut - 1) < 2 * c, "{c}");
        }
        assert_eq!(Weight::ONE.cutoff(42), 42);
        assert_eq!(Weight::Greedy.cutoff(42), 0);
    }

    #[test]
    fn the_restart_schedule_steps_by_three_quarters_in_twentieths() {
        let mut w = Weight::parse("1.4").unwrap();
        let mut seen = vec![w.to_string()];
        while !w.is_one() {
            w = w.lowered_for_restarts();
            seen.push(w.to_string());
        }
        assert_eq!(seen, ["1.4", "1.3", "1.2", "1.15", "1.1", "1.05", "1"]);
        let mut w = Weight::Greedy;
        let mut steps = 0;
        while !w.is_one() {
            let next = w.lowered_for_restarts();
            assert!(next.value() < w.value(), "{w}");
            if let Weight::Ratio { den, .. } = next {
                assert!(20 % den == 0, "{next}");
            }
            w = next;
            steps += 1;
        }
        assert!((8..16).contains(&steps), "{steps}");
        assert_eq!(
            Weight::parse("1.001").unwrap().lowered_for_restarts(),
            Weight::ONE
        );
    }

    #[test]
    fn the_anytime_schedule_reaches_one() {
        let mut w = Weight::Greedy;
        let mut steps = 0;
        while !w.is_one() {
            let next = w.lowered();
            assert!(next.value() < w.value());
            w = next;
            steps += 1;
        }
        assert!((3..12).contains(&steps), "{steps}");
    }

    #[test]
    fn halfway_weights_lie_strictly_between_on_fortieths() {
        let w = |t: &str| Weight::parse(t).unwrap();
        assert_eq!(w("1.55").halfway_to(w("1.4")), Some(w("1.475")));
        assert_eq!(w("2").halfway_to(w("1.75")), Some(w("1.875")));
        // 1.5 and 1.45: 59/40 rounds to 1.475, strictly between.
        assert_eq!(w("1.5").halfway_to(w("1.45")), Some(w("1.475")));
        // No fortieth strictly between 1.5 and 1.475, nor in reverse order.
        assert_eq!(w("1.5").halfway_to(w("1.475")), None);
        assert_eq!(w("1.4").halfway_to(w("1.55")), None);
        assert_eq!(Weight::Greedy.halfway_to(w("3")), None);
        assert_eq!(w("3").halfway_to(Weight::Greedy), None);
        // Repeated halving toward a failed weight ends.
        let (mut ok, failed) = (w("1.55"), w("1.4"));
        let mut steps = 0;
        while let Some(next) = ok.halfway_to(failed) {
            assert!(next.value() < ok.value() && next.value() > failed.value());
            ok = next;
            steps += 1;
        }
        assert!((1..=6).contains(&steps), "{steps}");
    }

    #[test]
    fn orders_name_their_rows() {
        assert_eq!(Order::default().suffix(), "");
        let order = Order {
            weight: Weight::parse("1.5").unwrap(),
            anytime: true,
            beam: None,
            shortcut: None,
            window: None,
        };
        assert_eq!(order.suffix(), "-w1.5-anytime");
        let shortened = Order {
            shortcut: Some(12),
            ..order
        };
        assert_eq!(shortened.suffix(), "-w1.5-anytime-sc12");
        let windowed = Order {
            window: Some(40),
            ..shortened
        };
        assert_eq!(windowed.suffix(), "-w1.5-anytime-sc12-win40");
        // A shortcut or window leaves optimal solutions alone: A* stays A*.
        let astar = Order {
            shortcut: Some(12),
            window: Some(40),
            ..Order::default()
        };
        assert!(astar.is_optimal() && !shortened.is_optimal());
        let beam = Order {
            beam: Some(100),
            ..Order::default()
        };
        assert_eq!(beam.suffix(), "-beam100");
        assert!(beam.check("ida", false).is_err());
        assert!(order.only_optimal("ida").is_err());
    }
}
