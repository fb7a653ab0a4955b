//! A beam's rank learned as a small network: the learned linear rank's
//! features ([`crate::AdditivePdb::rank_features`]: each database's value,
//! each on the reflected board, the larger and the smaller sum, the
//! conflicts) weighed linearly, plus one hidden layer of ReLU units over
//! those features and a table of one row per (tile, cell):
//!
//! ```text
//! rank(s) = c + lin·f(s) + Σ_j out_j · relu(bias_j + Σ_cells table[tile][cell]_j + (mix·f(s))_j)
//! ```
//!
//! The table is the shape of an efficiently updatable network (a move
//! changes the rows of two (tile, cell) pairs). It is trained offline on
//! beam paths (`scripts/train-rank-network.py`, docs/RESULTS.md, "The rank
//! learned from the GPU's own paths"), for one partition of one board
//! shape. Like every rank it only orders a beam's layer: the proven lower
//! bound still comes from h alone, so a poor network makes paths longer,
//! never a bound wrong.
//!
//! Every weight is kept in fixed point ([`FRACTION_BITS`] bits of fraction,
//! rounded) and the rank is summed in 64-bit integers, so that the CPU and
//! the GPU kernel (`kernels/tiles.cuh`, `PLUGIN_RANK_NETWORK`) rank alike,
//! bit for bit, whatever order either adds in. [`NetworkRank::parse`]
//! refuses weights whose sums could overflow that.
//!
//! The file is text: the hidden units H and the features F, then the
//! table (cells × cells × H: tile-major, then cell, then unit), the
//! mixing weights (F × H, feature-major), the H biases, the H output
//! weights, and the F linear weights and the constant; numbers separated
//! by white space, `#` to the end of a line a comment.

use crate::linear_rank::{OFFSET, SCALE};
use crate::TilesError;

/// Bits of fraction in the fixed-point weights.
pub const FRACTION_BITS: u32 = 16;

/// Most hidden units (the kernel keeps their sums in registers).
pub const MOST_HIDDEN: usize = 64;

/// Largest magnitude a weight may have.
const MOST_WEIGHT: f64 = 1000.0;

/// The largest magnitude [`NetworkRank`]'s total may reach, in units of
/// 2^-32: well inside an `i64`.
const MOST_TOTAL: f64 = (1u64 << 62) as f64;

/// A network's weights in fixed point ([`FRACTION_BITS`] bits of
/// fraction), in the file's layout.
#[derive(Clone, Copy, Debug)]
pub struct FixedWeights<'a> {
    /// Per (tile, cell), the hidden units' rows.
    pub table: &'a [i32],
    /// Per feature, the hidden units' weights.
    pub mix: &'a [i32],
    /// The hidden units' biases.
    pub bias: &'a [i32],
    /// The hidden units' output weights.
    pub output: &'a [i32],
    /// The features' linear weights.
    pub linear: &'a [i32],
    /// The constant.
    pub constant: i32,
}

/// A small network's rank, in fixed point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkRank {
    hidden: usize,
    cells: usize,
    /// Per (tile, cell), the H units' rows: `table[(tile·cells + cell)·H + j]`.
    table: Vec<i32>,
    /// Per feature, the H units' weights: `mix[k·H + j]`.
    mix: Vec<i32>,
    bias: Vec<i32>,
    output: Vec<i32>,
    linear: Vec<i32>,
    constant: i32,
}

fn error(message: String) -> TilesError {
    TilesError::RankNetwork(message)
}

impl NetworkRank {
    /// Reads a network for a board of `cells` cells whose rank has
    /// `features` features (the learned linear rank's count: `2·dbs + 3`
    /// with the reflection, `dbs + 2` without), and the most each feature
    /// can be (`most_feature`), which bounds the sums.
    pub fn parse(
        text: &str,
        cells: usize,
        most_feature: &[u32],
    ) -> Result<NetworkRank, TilesError> {
        let mut numbers = Vec::new();
        for (line_no, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            for word in line.split_whitespace() {
                let value: f64 = word.parse().map_err(|_| {
                    error(format!("line {}: '{word}' is not a number", line_no + 1))
                })?;
                numbers.push(value);
            }
        }
        let whole = |i: usize, what: &str| -> Result<usize, TilesError> {
            match numbers.get(i) {
                Some(&v) if v.fract() == 0.0 && (1.0..=1e6).contains(&v) => Ok(v as usize),
                Some(v) => Err(error(format!("{what} is {v}: a count of at least 1"))),
                None => Err(error(format!(
                    "the file ends before {what} (it starts with the hidden units and the features)"
                ))),
            }
        };
        let hidden = whole(0, "the count of hidden units")?;
        let features = whole(1, "the count of features")?;
        if hidden > MOST_HIDDEN {
            return Err(error(format!(
                "{hidden} hidden units: at most {MOST_HIDDEN}"
            )));
        }
        if features != most_feature.len() {
            return Err(error(format!(
                "made for {features} features, the heuristic's rank has {} (each database's value, with the reflection each on the reflected board, the sums, the conflicts)",
                most_feature.len()
            )));
        }
        let weights = &numbers[2..];
        let table_len = cells * cells * hidden;
        let expected = table_len + features * hidden + 2 * hidden + features + 1;
        if weights.len() != expected {
            let rest = weights
                .len()
                .checked_sub(features * hidden + 2 * hidden + features + 1);
            let made_for = rest
                .filter(|r| r % hidden == 0)
                .map(|r| r / hidden)
                .and_then(|square| {
                    let side = (square as f64).sqrt().round() as usize;
                    (side * side == square).then_some(side)
                });
            return Err(error(match made_for {
                Some(other) => format!(
                    "made for a board of {other} cells, this board has {cells}"
                ),
                None => format!(
                    "{} weights after the counts; {hidden} hidden units and {features} features on {cells} cells take {expected}",
                    weights.len()
                ),
            }));
        }
        if let Some(w) = weights
            .iter()
            .find(|w| !w.is_finite() || w.abs() > MOST_WEIGHT)
        {
            return Err(error(format!(
                "weight {w}: each must be a number within ±{MOST_WEIGHT}"
            )));
        }
        // Every weight is within ±MOST_WEIGHT, so its fixed point fits an i32.
        let fixed = |w: &f64| (w * f64::from(1u32 << FRACTION_BITS)).round() as i32;
        let mut parts = weights.iter().map(fixed);
        let mut take = |n: usize| parts.by_ref().take(n).collect::<Vec<i32>>();
        let network = NetworkRank {
            hidden,
            cells,
            table: take(table_len),
            mix: take(features * hidden),
            bias: take(hidden),
            output: take(hidden),
            linear: take(features),
            // The count was checked above: the constant is there.
            constant: take(1)[0],
        };
        network.check_range(most_feature)?;
        Ok(network)
    }

    /// Refuses weights whose total (in units of 2^-32) could leave
    /// ±[`MOST_TOTAL`] for features within `most_feature`.
    fn check_range(&self, most_feature: &[u32]) -> Result<(), TilesError> {
        let h = self.hidden;
        let unit = f64::from(1u32 << FRACTION_BITS);
        let mut most = f64::from(self.constant.unsigned_abs())
            + self
                .linear
                .iter()
                .zip(most_feature)
                .map(|(&w, &m)| f64::from(w.unsigned_abs()) * f64::from(m))
                .sum::<f64>();
        most *= unit;
        for j in 0..h {
            let rows: f64 = (0..self.cells)
                .map(|cell| {
                    (0..self.cells)
                        .map(|tile| self.table[(tile * self.cells + cell) * h + j].unsigned_abs())
                        .max()
                        .map_or(0.0, f64::from)
                })
                .sum();
            let mixed: f64 = most_feature
                .iter()
                .enumerate()
                .map(|(k, &m)| f64::from(self.mix[k * h + j].unsigned_abs()) * f64::from(m))
                .sum();
            let unit_most = f64::from(self.bias[j].unsigned_abs()) + rows + mixed;
            most += f64::from(self.output[j].unsigned_abs()) * unit_most;
        }
        if most >= MOST_TOTAL {
            return Err(error(format!(
                "the weights are too large: a rank's sum could reach {:.3e} moves",
                most / unit / unit
            )));
        }
        Ok(())
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Features the rank reads.
    pub fn features(&self) -> usize {
        self.linear.len()
    }

    /// The board's cells the network was made for.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The fixed-point weights, for the GPU plugin.
    pub fn fixed_weights(&self) -> FixedWeights<'_> {
        FixedWeights {
            table: &self.table,
            mix: &self.mix,
            bias: &self.bias,
            output: &self.output,
            linear: &self.linear,
            constant: self.constant,
        }
    }

    /// The rank of a state with tile `tiles[cell]` on each cell and
    /// features `features`, in 64ths of a move plus [`OFFSET`], clamped to
    /// `0..=2·OFFSET`.
    pub fn rank(&self, tiles: &[u8], features: &[i64]) -> u32 {
        self.rank_from_units(self.table_units(tiles), features)
    }

    /// The hidden units' biases plus the table's rows of tile `tiles[cell]`
    /// on each cell: the part of [`NetworkRank::rank`] that a move changes
    /// in four rows ([`NetworkRank::units_after_move`]).
    pub fn table_units(&self, tiles: &[u8]) -> [i64; MOST_HIDDEN] {
        let h = self.hidden;
        let mut all = [0i64; MOST_HIDDEN];
        let units = &mut all[..h];
        for (unit, &b) in units.iter_mut().zip(&self.bias) {
            *unit = i64::from(b);
        }
        for (cell, &tile) in tiles.iter().enumerate().take(self.cells) {
            let row = self.row(tile, cell);
            for (unit, &w) in units.iter_mut().zip(row) {
                *unit += i64::from(w);
            }
        }
        all
    }

    /// [`NetworkRank::table_units`] of a child whose `tile` moved from cell
    /// `from` to cell `to` (the blank the other way), from its parent's
    /// `units`: the same integers, in four rows instead of every cell's.
    pub fn units_after_move(
        &self,
        units: &[i64; MOST_HIDDEN],
        tile: u8,
        from: usize,
        to: usize,
    ) -> [i64; MOST_HIDDEN] {
        let mut child = *units;
        let rows = [
            (self.row(tile, from), -1),
            (self.row(tile, to), 1),
            (self.row(0, to), -1),
            (self.row(0, from), 1),
        ];
        for (row, sign) in rows {
            for (unit, &w) in child.iter_mut().zip(row) {
                *unit += sign * i64::from(w);
            }
        }
        child
    }

    /// The table's row of `tile` on `cell`: one weight per hidden unit.
    fn row(&self, tile: u8, cell: usize) -> &[i32] {
        let h = self.hidden;
        &self.table[(usize::from(tile) * self.cells + cell) * h..][..h]
    }

    /// [`NetworkRank::rank`] from the table's part (`units`, as
    /// [`NetworkRank::table_units`] makes it) and the features.
    pub fn rank_from_units(&self, mut all: [i64; MOST_HIDDEN], features: &[i64]) -> u32 {
        let h = self.hidden;
        let units = &mut all[..h];
        for (k, &f) in features.iter().enumerate() {
            let row = &self.mix[k * h..][..h];
            for (unit, &w) in units.iter_mut().zip(row) {
                *unit += i64::from(w) * f;
            }
        }
        let linear: i64 = self
            .linear
            .iter()
            .zip(features)
            .map(|(&w, &f)| i64::from(w) * f)
            .sum();
        let mut total = (i64::from(self.constant) + linear) << FRACTION_BITS;
        for (&unit, &w) in units.iter().zip(&self.output) {
            total += i64::from(w) * unit.max(0);
        }
        // From 2^-32 moves to 64ths: SCALE is 2^6.
        debug_assert_eq!(SCALE, 64.0);
        let rank = OFFSET + (total >> (2 * FRACTION_BITS - 6));
        // The clamp keeps a rank of a wild network ordered, not wrapped.
        rank.clamp(0, 2 * OFFSET) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network file for `cells` cells, `features` features and `hidden`
    /// units, each weight `weight(i)` (i counts from the table's first).
    fn file(cells: usize, features: usize, hidden: usize, weight: impl Fn(usize) -> f64) -> String {
        let n = cells * cells * hidden + features * hidden + 2 * hidden + features + 1;
        let body: Vec<String> = (0..n).map(|i| format!("{}", weight(i))).collect();
        format!(
            "# a test network\n{hidden} {features}\n{}\n",
            body.join(" ")
        )
    }

    /// The fixed-point rank equals the network's real-valued formula, to
    /// within the rounding of its weights.
    #[test]
    fn the_rank_is_the_networks_formula() {
        let (cells, features, hidden) = (9, 4, 3);
        let weight = |i: usize| ((i * 37 % 23) as f64 - 11.0) / 16.0;
        let network =
            NetworkRank::parse(&file(cells, features, hidden, weight), cells, &[60; 4]).unwrap();
        let tiles = [3u8, 1, 0, 8, 5, 2, 7, 4, 6];
        let f = [7i64, 12, 19, 2];
        let at = |i: usize| weight(i);
        let table = cells * cells * hidden;
        let (mix, bias) = (table, table + features * hidden);
        let (output, linear) = (bias + hidden, bias + 2 * hidden);
        let mut expected = at(linear + features);
        for (k, &fk) in f.iter().enumerate() {
            expected += at(linear + k) * fk as f64;
        }
        for j in 0..hidden {
            let mut unit = at(bias + j);
            for (cell, &tile) in tiles.iter().enumerate() {
                unit += at((usize::from(tile) * cells + cell) * hidden + j);
            }
            for (k, &fk) in f.iter().enumerate() {
                unit += at(mix + k * hidden + j) * fk as f64;
            }
            expected += at(output + j) * unit.max(0.0);
        }
        let got = f64::from(network.rank(&tiles, &f)) - OFFSET as f64;
        assert!(
            (got - expected * 64.0).abs() <= 1.0,
            "rank {got} against {}",
            expected * 64.0
        );
        assert_eq!(
            (network.hidden(), network.features(), network.cells()),
            (3, 4, 9)
        );
    }

    #[test]
    fn bad_files_are_refused_with_their_reason() {
        let refuse = |text: &str, cells: usize, features: usize| {
            NetworkRank::parse(text, cells, &vec![60; features])
                .unwrap_err()
                .to_string()
        };
        let good = file(9, 4, 3, |_| 0.25);
        assert!(NetworkRank::parse(&good, 9, &[60; 4]).is_ok());
        let e = refuse(&good, 16, 4);
        assert!(
            e.contains("made for a board of 9 cells, this board has 16"),
            "{e}"
        );
        let e = refuse(&good, 9, 5);
        assert!(
            e.contains("made for 4 features") && e.contains("has 5"),
            "{e}"
        );
        let e = refuse(&good.replace("0.25 0.25", "0.25 x"), 9, 4);
        assert!(e.contains("'x' is not a number"), "{e}");
        let e = refuse(&good.replacen("0.25 ", "", 1), 9, 4);
        assert!(e.contains("weights after the counts"), "{e}");
        let e = refuse("", 9, 4);
        assert!(e.contains("the file ends before"), "{e}");
        let e = refuse(&file(9, 4, 65, |_| 0.0), 9, 4);
        assert!(e.contains("at most 64"), "{e}");
        let e = refuse(&good.replacen("0.25", "nan", 1), 9, 4);
        assert!(e.contains("NaN"), "{e}");
        // Sums of about 3·10^9 moves: past 2^62 units of 2^-32.
        let e = NetworkRank::parse(&file(9, 4, 3, |_| 1000.0), 9, &[255; 4])
            .unwrap_err()
            .to_string();
        assert!(e.contains("too large"), "{e}");
        let e = refuse("2.5 4", 9, 4);
        assert!(e.contains("a count of at least 1"), "{e}");
    }
}
