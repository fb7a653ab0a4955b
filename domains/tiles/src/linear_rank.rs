//! A beam's rank learned as a linear function of what the pattern
//! databases already compute: each database's value, each on the reflected
//! board, the larger and the smaller of the two sums, and the linear
//! conflicts across databases ([`crate::conflicts::Conflicts`]).
//!
//! The weights are fitted offline (least squares of the remaining length
//! along beam paths of random-walk boards: docs/RESULTS.md, "A learned
//! linear rank", and `results/learned-rank/`), so they belong to one
//! partition of one board shape. A rank only orders a beam's layer; the
//! proven lower bound still comes from h alone, so a poor fit makes
//! solutions longer, never a bound wrong.
//!
//! The rank is computed in integers, each weight scaled by [`SCALE`] and
//! rounded, so that the CPU and the GPU kernel rank alike and a child's rank
//! can be updated from its parent's exactly. The smaller sum is the sum of
//! both sums less the larger (which is h), so its weight folds into the
//! per-database weights and the larger sum's: the rank is
//! `OFFSET + Σ d_p·v_p + Σ r_p·v'_p + c_h·h + c_x·conflicts`, each term
//! linear in one database's value, h or the conflicts, and a move changes
//! one database on each board. [`OFFSET`] keeps every rank positive without
//! clamping, which would break that update.

use crate::TilesError;

/// Weights are scaled by this and rounded: a rank is in 64ths of a move.
pub const SCALE: f64 = 64.0;

/// Added to every rank so that none is negative (weights are checked to
/// keep the rest within ±`OFFSET`).
pub const OFFSET: i64 = 1 << 22;

/// Largest magnitude a weight may have.
const MOST_WEIGHT: f64 = 1000.0;

/// The integer coefficients of a linear rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearRank {
    /// Per database, its value on the board.
    pub direct: Vec<i64>,
    /// Per database, its value on the reflected board (empty without the
    /// reflection).
    pub reflected: Vec<i64>,
    /// h: the larger sum (the only sum without the reflection).
    pub h: i64,
    /// The linear conflicts across databases.
    pub conflicts: i64,
}

impl LinearRank {
    /// The rank for `dbs` databases, with or without the reflection, from
    /// weights in the order they are fitted: each database's value, then
    /// (with the reflection) each on the reflected board, then the larger
    /// sum, (with the reflection) the smaller sum, and the conflicts. That
    /// is `2·dbs + 3` weights with the reflection and `dbs + 2` without.
    pub fn new(weights: &[f64], dbs: usize, reflect: bool) -> Result<LinearRank, TilesError> {
        let expected = if reflect { 2 * dbs + 3 } else { dbs + 2 };
        if weights.len() != expected {
            return Err(TilesError::RankWeights(format!(
                "{} weights for {dbs} databases {}: give {expected} (each database's value{}, the {}, the conflicts)",
                weights.len(),
                if reflect { "with the reflection" } else { "without the reflection" },
                if reflect { ", each on the reflected board" } else { "" },
                if reflect { "larger and the smaller sum" } else { "sum" },
            )));
        }
        if let Some(w) = weights
            .iter()
            .find(|w| !w.is_finite() || w.abs() > MOST_WEIGHT)
        {
            return Err(TilesError::RankWeights(format!(
                "weight {w}: each must be a number within ±{MOST_WEIGHT}"
            )));
        }
        // `as` saturates, but every weight is within ±MOST_WEIGHT.
        let scaled = |w: f64| (w * SCALE).round() as i64;
        let rank = if reflect {
            let smaller = scaled(weights[2 * dbs + 1]);
            LinearRank {
                direct: weights[..dbs]
                    .iter()
                    .map(|&w| scaled(w) + smaller)
                    .collect(),
                reflected: weights[dbs..2 * dbs]
                    .iter()
                    .map(|&w| scaled(w) + smaller)
                    .collect(),
                h: scaled(weights[2 * dbs]) - smaller,
                conflicts: scaled(weights[2 * dbs + 2]),
            }
        } else {
            LinearRank {
                direct: weights[..dbs].iter().map(|&w| scaled(w)).collect(),
                reflected: Vec::new(),
                h: scaled(weights[dbs]),
                conflicts: scaled(weights[dbs + 1]),
            }
        };
        Ok(rank)
    }

    /// Checks that no state's rank leaves `0..2·OFFSET` on a board of
    /// `cells` cells: each database value and h at most 255 per database,
    /// conflicts at most one per pair of tiles.
    pub fn check_range(&self, cells: usize) -> Result<(), TilesError> {
        let dbs = self.direct.len() as i64;
        let most = self
            .direct
            .iter()
            .chain(&self.reflected)
            .map(|c| c.abs() * 255)
            .sum::<i64>()
            + self.h.abs() * 255 * dbs.max(1)
            + self.conflicts.abs() * (cells * cells) as i64;
        if most >= OFFSET {
            return Err(TilesError::RankWeights(format!(
                "the weights are too large for this board: a rank could reach {most} 64ths of a move, past {OFFSET}"
            )));
        }
        Ok(())
    }

    /// The rank of a state whose databases read `direct` (and `reflected`
    /// on the reflected board), with bound `h` and `conflicts` pairs.
    pub fn rank(&self, direct: &[u8], reflected: &[u8], h: u32, conflicts: u32) -> u32 {
        let dot = |coefficients: &[i64], values: &[u8]| -> i64 {
            coefficients
                .iter()
                .zip(values)
                .map(|(&c, &v)| c * i64::from(v))
                .sum()
        };
        let total = OFFSET
            + dot(&self.direct, direct)
            + dot(&self.reflected, reflected)
            + self.h * i64::from(h)
            + self.conflicts * i64::from(conflicts);
        // check_range keeps the total within 0..2·OFFSET, which fits.
        u32::try_from(total.max(0)).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smaller sum's weight folds into the others: the folded form
    /// equals the features' dot product on any values.
    #[test]
    fn folded_weights_equal_the_fitted_form() {
        let weights = [0.5, -0.25, 0.125, 0.75, 0.9, 0.3, 1.5];
        let rank = LinearRank::new(&weights, 2, true).unwrap();
        for (direct, reflected, pairs) in [([3u8, 9], [5u8, 4], 7u32), ([0, 0], [1, 20], 0)] {
            let (sd, sr) = (
                u32::from(direct[0]) + u32::from(direct[1]),
                u32::from(reflected[0]) + u32::from(reflected[1]),
            );
            let features = [
                f64::from(direct[0]),
                f64::from(direct[1]),
                f64::from(reflected[0]),
                f64::from(reflected[1]),
                f64::from(sd.max(sr)),
                f64::from(sd.min(sr)),
                f64::from(pairs),
            ];
            let expected: i64 = weights
                .iter()
                .zip(features)
                .map(|(w, f)| (w * SCALE).round() as i64 * f as i64)
                .sum();
            assert_eq!(
                i64::from(rank.rank(&direct, &reflected, sd.max(sr), pairs)),
                OFFSET + expected
            );
        }
    }

    #[test]
    fn wrong_counts_and_sizes_are_refused() {
        let e = LinearRank::new(&[1.0; 16], 7, true)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("16 weights for 7 databases") && e.contains("give 17"),
            "{e}"
        );
        let e = LinearRank::new(&[1.0; 17], 7, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("give 9"), "{e}");
        let e = LinearRank::new(&[f64::NAN, 1.0, 1.0], 1, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("NaN"), "{e}");
        let big = LinearRank::new(&[900.0; 9], 7, false).unwrap();
        assert!(big.check_range(36).is_err());
        let fitted = LinearRank::new(&[1.0; 17], 7, true).unwrap();
        assert!(fitted.check_range(49).is_ok());
    }
}
