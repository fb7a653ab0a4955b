//! Heuristics: Manhattan distance (incremental) and additive pattern
//! databases with the optional diagonal reflection lookup.

use std::sync::Arc;

use frontier_core::{children_one_by_one, Cost, Edge, Heuristic, InPlaceHeuristic, Parent};

use crate::board::{Board, Dir, Goal, TileState, Tiles, MAX_CELLS};
use crate::conflicts::Conflicts;
use crate::linear_rank::LinearRank;
use crate::network_rank::NetworkRank;
use crate::pdb::{Pattern, PatternDb};
use crate::TilesError;

/// Sum over tiles of the taxicab distance to their goal cell.
#[derive(Clone, Debug)]
pub struct Manhattan {
    /// `distance[tile][cell]`.
    distance: [[u8; MAX_CELLS]; MAX_CELLS],
    cells: usize,
    /// What a beam adds to h to rank a state (see [`Conflicts`]).
    rank_conflicts: Option<Arc<Conflicts>>,
}

impl Manhattan {
    /// The table for `board` and `goal` (a goal board of the same shape:
    /// [`Goal::fits`]; `Tiles::new` checks it for an instance).
    pub fn new(board: &Board, goal: Goal) -> Manhattan {
        let cells = board.cells();
        let mut distance = [[0u8; MAX_CELLS]; MAX_CELLS];
        for tile in 1..cells as u8 {
            let (gr, gc) = board.coords(goal.cell_of(tile, cells));
            for cell in 0..cells as u8 {
                let (r, c) = board.coords(cell);
                distance[usize::from(tile)][usize::from(cell)] = r.abs_diff(gr) + c.abs_diff(gc);
            }
        }
        Manhattan {
            distance,
            cells,
            rank_conflicts: None,
        }
    }

    /// The same heuristic, with beams ranking a state by h plus its linear
    /// conflicts between every two tiles ([`Conflicts::every_pair`]).
    pub fn ranked_by_conflicts(mut self, board: &Board, goal: Goal) -> Manhattan {
        self.rank_conflicts = Some(Arc::new(Conflicts::every_pair(board, goal)));
        self
    }
}

impl Heuristic<Tiles> for Manhattan {
    /// A move shifts one tile by one cell: h changes by exactly 1.
    fn consistent(&self) -> bool {
        true
    }

    fn h(&self, _: &Tiles, state: &TileState) -> Cost {
        state.cells[..self.cells]
            .iter()
            .enumerate()
            .map(|(cell, &tile)| Cost::from(self.distance[usize::from(tile)][cell]))
            .sum()
    }

    #[inline]
    fn rank(&self, _: &Tiles, state: &TileState, h: Cost) -> Cost {
        rank_by(self.rank_conflicts.as_deref(), state, h)
    }

    #[inline]
    fn rank_child(
        &self,
        _: &Tiles,
        parent: &TileState,
        parent_h: Cost,
        parent_rank: Cost,
        child: &TileState,
        h: Cost,
    ) -> Cost {
        rank_child_by(
            self.rank_conflicts.as_deref(),
            parent,
            parent_h,
            parent_rank,
            child,
            h,
        )
    }

    /// One tile moved from the child's blank cell to the parent's.
    #[inline]
    fn h_child(&self, _: &Tiles, parent: &TileState, parent_h: Cost, child: &TileState) -> Cost {
        let tile = usize::from(child.cells[usize::from(parent.blank)]);
        let row = &self.distance[tile];
        parent_h + Cost::from(row[usize::from(parent.blank)])
            - Cost::from(row[usize::from(child.blank)])
    }
}

/// h plus `conflicts`' pairs of `state`; h alone without conflicts.
#[inline]
fn rank_by(conflicts: Option<&Conflicts>, state: &TileState, h: Cost) -> Cost {
    h + conflicts.map_or(0, |c| c.count(state))
}

/// h plus `conflicts`' pairs of `child`, counted from its parent's (its
/// rank less its bound); h alone without conflicts.
#[inline]
fn rank_child_by(
    conflicts: Option<&Conflicts>,
    parent: &TileState,
    parent_h: Cost,
    parent_rank: Cost,
    child: &TileState,
    h: Cost,
) -> Cost {
    h + conflicts.map_or(0, |c| {
        c.count_child(parent, parent_rank.saturating_sub(parent_h), child)
    })
}

/// The reflection about the main diagonal, as a relabelling of cells and
/// tiles. Tile t becomes the goal's tile on the mirror of t's goal cell, so
/// the reflected goal is the goal again; it is a symmetry of the puzzle (the
/// reflected h admissible) when the blank maps to the blank, that is when the
/// goal's blank is on the diagonal, as in both conventions.
#[derive(Clone, Debug)]
struct Reflection {
    cell: [u8; MAX_CELLS],
    tile: [u8; MAX_CELLS],
}

impl Reflection {
    fn new(board: &Board, goal: Goal) -> Result<Reflection, TilesError> {
        goal.fits(board)?;
        if board.rows() != board.cols() {
            return Err(TilesError::ReflectNeedsSquare);
        }
        let n = board.cells();
        let side = board.cols();
        let mut cell = [0u8; MAX_CELLS];
        for c in 0..n as u8 {
            cell[usize::from(c)] = (c % side) * side + c / side;
        }
        let goal_state = TileState::goal(board, goal);
        let mut tile = [0u8; MAX_CELLS];
        for t in 0..n as u8 {
            tile[usize::from(t)] =
                goal_state.cells[usize::from(cell[usize::from(goal.cell_of(t, n))])];
        }
        if tile[0] != 0 {
            return Err(TilesError::ReflectNeedsDiagonalBlank(goal_state.blank));
        }
        Ok(Reflection { cell, tile })
    }

    /// Tile positions of the reflected state.
    #[inline]
    fn apply(&self, pos: &[u8; MAX_CELLS], cells: usize) -> [u8; MAX_CELLS] {
        let mut out = [0u8; MAX_CELLS];
        for t in 0..cells {
            out[usize::from(self.tile[t])] = self.cell[usize::from(pos[t])];
        }
        out
    }
}

/// A sum of disjoint pattern databases, optionally maxed with the same sum
/// on the state reflected about the main diagonal.
#[derive(Clone, Debug)]
pub struct AdditivePdb {
    dbs: Vec<Arc<PatternDb>>,
    reflection: Option<Reflection>,
    cells: usize,
    /// Each tile's digit in the databases' indices: a move changes that
    /// one database's value only.
    digits: [Digit; MAX_CELLS],
    /// The same for the reflected state, by the unreflected tile's number
    /// (the reflected tile's digit), so that a move reads one table.
    reflected_digits: [Digit; MAX_CELLS],
    /// What a beam adds to h to rank a state (see [`Conflicts`]).
    rank_conflicts: Option<Arc<Conflicts>>,
    /// A learned rank in place of h plus the conflicts, if any.
    linear: Option<Arc<LinearRank>>,
    /// A learned network's rank in place of h plus the conflicts, if any.
    network: Option<Arc<NetworkRank>>,
}

/// Where a tile's digit sits in the databases' indices.
#[derive(Clone, Copy, Debug)]
struct Digit {
    /// The database whose pattern holds the tile ([`NO_DB`] for none).
    db: u8,
    /// The tile's place in its pattern's order.
    order: u8,
    /// The digit's place value ([`PatternDb::digit_weights`]).
    weight: usize,
}

impl Default for Digit {
    fn default() -> Self {
        Digit {
            db: NO_DB,
            order: 0,
            weight: 0,
        }
    }
}

/// No database holds the tile.
const NO_DB: u8 = u8::MAX;

impl AdditivePdb {
    /// Combines databases built for `board` and `goal`. `reflect` needs a
    /// square board.
    pub fn new(
        board: &Board,
        goal: Goal,
        dbs: Vec<Arc<PatternDb>>,
        reflect: bool,
    ) -> Result<AdditivePdb, TilesError> {
        let reflection = if reflect {
            Some(Reflection::new(board, goal)?)
        } else {
            None
        };
        let mut digits = [Digit::default(); MAX_CELLS];
        for (i, db) in dbs.iter().enumerate() {
            for ((order, &t), weight) in db.pattern.tiles.iter().enumerate().zip(db.digit_weights())
            {
                if let Some(digit) = digits.get_mut(usize::from(t)) {
                    *digit = Digit {
                        db: i as u8,
                        order: order as u8,
                        weight,
                    };
                }
            }
        }
        let mut reflected_digits = [Digit::default(); MAX_CELLS];
        if let Some(r) = &reflection {
            for (t, digit) in reflected_digits.iter_mut().enumerate() {
                *digit = digits[usize::from(r.tile[t])];
            }
        }
        Ok(AdditivePdb {
            reflection,
            cells: board.cells(),
            digits,
            reflected_digits,
            dbs,
            rank_conflicts: None,
            linear: None,
            network: None,
        })
    }

    /// The same heuristic, with beams ranking a state by h plus its linear
    /// conflicts between tiles of different databases, which the sum does
    /// not count ([`Conflicts`]); a tile in no database conflicts with
    /// every other.
    pub fn ranked_by_conflicts(mut self, board: &Board, goal: Goal) -> AdditivePdb {
        // Each tile in no database a group of its own, numbered past the
        // databases' (`Conflicts` renumbers them densely).
        let mut alone = self.dbs.len() as u8;
        let groups: Vec<u8> = (0..board.cells())
            .map(|t| match self.digits[t].db {
                NO_DB => {
                    alone += 1;
                    alone - 1
                }
                db => db,
            })
            .collect();
        self.rank_conflicts = Some(Arc::new(Conflicts::new(board, goal, &groups)));
        self
    }

    /// The same heuristic, with beams ranking a state by the learned
    /// linear rank `linear` ([`crate::linear_rank`]) of its databases'
    /// values and its conflicts (as [`AdditivePdb::ranked_by_conflicts`]
    /// counts them); refused where `linear` was made for another count of
    /// databases, the reflection's presence, or a rank that could leave its
    /// range on this board.
    pub fn ranked_linearly(
        self,
        board: &Board,
        goal: Goal,
        linear: LinearRank,
    ) -> Result<AdditivePdb, TilesError> {
        let reflected = if self.reflection.is_some() {
            self.dbs.len()
        } else {
            0
        };
        if linear.direct.len() != self.dbs.len() || linear.reflected.len() != reflected {
            return Err(TilesError::RankWeights(format!(
                "made for {} databases {} the reflection, the heuristic has {} {} it",
                linear.direct.len(),
                if linear.reflected.is_empty() {
                    "without"
                } else {
                    "with"
                },
                self.dbs.len(),
                if reflected == 0 { "without" } else { "with" },
            )));
        }
        linear.check_range(board.cells())?;
        let mut ranked = self.ranked_by_conflicts(board, goal);
        ranked.network = None;
        ranked.linear = Some(Arc::new(linear));
        Ok(ranked)
    }

    /// The learned rank that orders a beam's layers, if any.
    pub fn linear_rank(&self) -> Option<&LinearRank> {
        self.linear.as_deref()
    }

    /// The most each of [`AdditivePdb::rank_features`] can be on this
    /// heuristic's board: 255 a database value, 255 a database in a sum,
    /// one conflict per pair of tiles.
    pub fn most_rank_features(&self) -> Vec<u32> {
        let k = self.dbs.len() as u32;
        let values = if self.reflection.is_some() { 2 * k } else { k };
        let sums = if self.reflection.is_some() { 2 } else { 1 };
        let mut most = vec![255; values as usize];
        most.extend(std::iter::repeat_n(255 * k, sums));
        most.push((self.cells * self.cells) as u32);
        most
    }

    /// The same heuristic, with beams ranking a state by the learned
    /// network `network` ([`crate::network_rank`]) over its databases'
    /// values, sums and conflicts (as [`AdditivePdb::ranked_by_conflicts`]
    /// counts them) and its tiles' cells; refused where `network` was made
    /// for another board or another count of features.
    pub fn ranked_by_network(
        self,
        board: &Board,
        goal: Goal,
        network: NetworkRank,
    ) -> Result<AdditivePdb, TilesError> {
        let features = self.most_rank_features().len();
        if network.features() != features || network.cells() != board.cells() {
            return Err(TilesError::RankNetwork(format!(
                "made for {} features on {} cells, the heuristic ranks {features} on {}",
                network.features(),
                network.cells(),
                board.cells()
            )));
        }
        let mut ranked = self.ranked_by_conflicts(board, goal);
        ranked.linear = None;
        ranked.network = Some(Arc::new(network));
        Ok(ranked)
    }

    /// The learned network that orders a beam's layers, if any.
    pub fn network_rank(&self) -> Option<&NetworkRank> {
        self.network.as_deref()
    }

    /// What a learned rank weighs for `state`, in the order of
    /// [`LinearRank::new`]'s weights: each database's value, with the
    /// reflection each on the reflected board, the larger sum, with the
    /// reflection the smaller sum, and the conflicts across databases (as
    /// [`AdditivePdb::ranked_by_conflicts`] counts them; 0 where the
    /// heuristic was not ranked by them).
    pub fn rank_features(&self, state: &TileState) -> Vec<f64> {
        self.rank_feature_counts(state)
            .into_iter()
            .map(|f| f as f64)
            .collect()
    }

    /// [`AdditivePdb::rank_features`] as the integers they are.
    pub fn rank_feature_counts(&self, state: &TileState) -> Vec<i64> {
        let (direct, reflected, pairs) = self.rank_inputs(state);
        let k = self.dbs.len();
        let mut features = [0i64; FEATURE_SLOTS];
        let n = rank_features_into(
            &direct[..k],
            reflected.as_ref().map(|r| &r[..k]),
            pairs,
            &mut features,
        );
        features[..n].to_vec()
    }

    /// `network`'s rank of `state`, afresh (the network is not linear in its
    /// features, and a beam state keeps only its rank; the GPU's beam makes
    /// a child's from its parent's detail instead, the same integer:
    /// `PLUGIN_RANK_DETAIL` in kernels/tiles.cuh).
    fn rank_by_network(&self, network: &NetworkRank, state: &TileState) -> Cost {
        network.rank(&state.cells[..self.cells], &self.rank_feature_counts(state))
    }

    /// What a learned rank reads of `state`: each database's value, each
    /// on the reflected board (with the reflection), and the conflicts
    /// (0 where the heuristic was not ranked by them).
    fn rank_inputs(&self, state: &TileState) -> ([u8; MAX_CELLS], Option<[u8; MAX_CELLS]>, Cost) {
        let values = |pos: &[u8; MAX_CELLS]| {
            let mut values = [0u8; MAX_CELLS];
            for (value, db) in values.iter_mut().zip(&self.dbs) {
                *value = db.lookup(pos);
            }
            values
        };
        let pos = state.positions(self.cells);
        let reflected = self
            .reflection
            .as_ref()
            .map(|r| values(&r.apply(&pos, self.cells)));
        let pairs = self.rank_conflicts.as_ref().map_or(0, |c| c.count(state));
        (values(&pos), reflected, pairs)
    }

    /// `linear`'s rank of `state`, every database looked up afresh (the
    /// GPU kernel updates it from the parent's: the two agree exactly, as
    /// the rank is in integers).
    fn rank_linearly(&self, linear: &LinearRank, state: &TileState, h: Cost) -> Cost {
        let (direct, reflected, pairs) = self.rank_inputs(state);
        let k = self.dbs.len();
        let reflected = reflected.as_ref().map_or(&[][..], |r| &r[..k]);
        linear.rank(&direct[..k], reflected, h, pairs)
    }

    /// The databases, in sum order.
    pub fn dbs(&self) -> &[Arc<PatternDb>] {
        &self.dbs
    }

    /// The reflection as (cell map, tile map), if enabled.
    pub fn reflection_maps(&self) -> Option<([u8; MAX_CELLS], [u8; MAX_CELLS])> {
        self.reflection.as_ref().map(|r| (r.cell, r.tile))
    }

    #[inline]
    fn sum(&self, pos: &[u8; MAX_CELLS]) -> Cost {
        self.dbs.iter().map(|db| Cost::from(db.lookup(pos))).sum()
    }
}

/// Room for a learned rank's features: each database's value on both
/// boards, two sums and the conflicts.
const FEATURE_SLOTS: usize = 2 * MAX_CELLS + 3;

/// [`AdditivePdb::rank_feature_counts`]' layout, written to the front of
/// `out` from the databases' values on the board (`direct`) and, with the
/// reflection, on the reflected board, and the conflicts `pairs`; returns
/// how many. The afresh rank and a beam's children made from their
/// parent's detail both lay their features out here, so they agree.
fn rank_features_into(
    direct: &[u8],
    reflected: Option<&[u8]>,
    pairs: Cost,
    out: &mut [i64; FEATURE_SLOTS],
) -> usize {
    let mut n = 0;
    let mut push = |value: i64| {
        out[n] = value;
        n += 1;
    };
    let sum = |values: &[u8]| values.iter().map(|&v| i64::from(v)).sum::<i64>();
    direct.iter().for_each(|&v| push(i64::from(v)));
    match reflected {
        Some(reflected) => {
            reflected.iter().for_each(|&v| push(i64::from(v)));
            let (a, b) = (sum(direct), sum(reflected));
            push(a.max(b));
            push(a.min(b));
        }
        None => push(sum(direct)),
    }
    push(i64::from(pairs));
    n
}

impl Heuristic<Tiles> for AdditivePdb {
    #[inline]
    fn h(&self, _: &Tiles, state: &TileState) -> Cost {
        let pos = state.positions(self.cells);
        let direct = self.sum(&pos);
        match &self.reflection {
            Some(r) => direct.max(self.sum(&r.apply(&pos, self.cells))),
            None => direct,
        }
    }

    #[inline]
    fn rank(&self, _: &Tiles, state: &TileState, h: Cost) -> Cost {
        if let Some(network) = &self.network {
            return self.rank_by_network(network, state);
        }
        match &self.linear {
            Some(linear) => self.rank_linearly(linear, state, h),
            None => rank_by(self.rank_conflicts.as_deref(), state, h),
        }
    }

    #[inline]
    fn rank_child(
        &self,
        _: &Tiles,
        parent: &TileState,
        parent_h: Cost,
        parent_rank: Cost,
        child: &TileState,
        h: Cost,
    ) -> Cost {
        if let Some(network) = &self.network {
            return self.rank_by_network(network, child);
        }
        match &self.linear {
            Some(linear) => self.rank_linearly(linear, child, h),
            None => rank_child_by(
                self.rank_conflicts.as_deref(),
                parent,
                parent_h,
                parent_rank,
                child,
                h,
            ),
        }
    }

    /// The parent's detail (each database's index and value, as IDA*'s
    /// in-place path keeps it) is made once, and each child's h from it
    /// with the moved tile's database alone, on each board. With a
    /// learned network the parent's table sums and conflicts are made once
    /// too, and a child's rank takes four table rows and the child's
    /// detail's values. The same integers as [`Heuristic::h_child`] and
    /// [`Heuristic::rank_child`] (the test
    /// `children_at_once_equal_children_one_by_one`); the linear rank is
    /// still made one child at a time.
    fn children_h_and_rank(
        &self,
        puzzle: &Tiles,
        of: Parent<'_, TileState>,
        children: &[Edge<TileState, Dir>],
        out: &mut Vec<(Cost, Cost)>,
    ) {
        if self.linear.is_some() {
            children_one_by_one(self, puzzle, of, children, out);
            return;
        }
        let parent = of.state;
        let mut parent_detail = TilesDetail::default();
        self.root_detail(parent, &mut parent_detail);
        let network = self.network.as_deref().map(|network| {
            let pairs = self.rank_conflicts.as_ref().map_or(0, |c| c.count(parent));
            let units = network.table_units(&parent.cells[..self.cells]);
            (network, units, pairs)
        });
        let mut child_detail = TilesDetail::default();
        let mut features = [0i64; FEATURE_SLOTS];
        let k = self.dbs.len();
        for edge in children {
            let child = &edge.state;
            // The tile moved from the child's blank cell to the parent's.
            let h = self.after_move(
                child,
                parent.blank,
                &parent_detail,
                &mut child_detail,
                Cost::MAX,
            );
            let rank = match &network {
                Some((network, units, parent_pairs)) => {
                    let pairs = self
                        .rank_conflicts
                        .as_ref()
                        .map_or(0, |c| c.count_child(parent, *parent_pairs, child));
                    let tile = child.cells[usize::from(parent.blank)];
                    let units = network.units_after_move(
                        units,
                        tile,
                        usize::from(child.blank),
                        usize::from(parent.blank),
                    );
                    let reflected = self
                        .reflection
                        .as_ref()
                        .map(|_| &child_detail.reflected.values[..k]);
                    let n = rank_features_into(
                        &child_detail.direct.values[..k],
                        reflected,
                        pairs,
                        &mut features,
                    );
                    network.rank_from_units(units, &features[..n])
                }
                None => rank_child_by(
                    self.rank_conflicts.as_deref(),
                    parent,
                    of.h,
                    of.rank,
                    child,
                    h,
                ),
            };
            out.push((h, rank));
        }
    }

    /// The max of two admissible sums is admissible but can be inconsistent.
    fn consistent(&self) -> bool {
        self.reflection.is_none()
    }
}

/// Either heuristic, chosen at run time.
// Built once per board shape and read on every expansion: boxing the large
// Manhattan table would only add an indirection to the hot path.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum TilesHeuristic {
    /// Manhattan distance.
    Manhattan(Manhattan),
    /// Additive pattern databases.
    Pdb(AdditivePdb),
    /// The largest of several additive partitions (`A|B|…`). Each is
    /// admissible, so their max is; it is consistent where each is (no
    /// reflection). A tighter bound prunes more in A* and IDA*; a beam
    /// ranks by it too, but three 35-puzzle partitions gained nothing on
    /// DeepCubeA's own boards (docs/RESULTS.md, "The largest of several
    /// partitions"). Each partition keeps its own reflection setting, on
    /// the GPU too (the CLI builds all with the same `--reflect`).
    Max(Vec<AdditivePdb>),
}

impl TilesHeuristic {
    /// The conflicts a beam adds to h to rank a state, if any (a `Max`
    /// takes its first partition's).
    pub fn rank_conflicts(&self) -> Option<&Conflicts> {
        match self {
            TilesHeuristic::Manhattan(m) => m.rank_conflicts.as_deref(),
            TilesHeuristic::Pdb(p) => p.rank_conflicts.as_deref(),
            TilesHeuristic::Max(ps) => ps.first().and_then(|p| p.rank_conflicts.as_deref()),
        }
    }

    /// The learned rank that orders a beam's layers, if any: one
    /// partition's only (a `Max` ranks by its first partition's conflicts,
    /// as the CLI, which refuses `--rank-weights` with several partitions,
    /// never builds it otherwise).
    pub fn linear_rank(&self) -> Option<&LinearRank> {
        match self {
            TilesHeuristic::Pdb(p) => p.linear_rank(),
            _ => None,
        }
    }

    /// The learned network that orders a beam's layers, if any (one
    /// partition's only, as [`TilesHeuristic::linear_rank`]).
    pub fn network_rank(&self) -> Option<&NetworkRank> {
        match self {
            TilesHeuristic::Pdb(p) => p.network_rank(),
            _ => None,
        }
    }
}

impl Heuristic<Tiles> for TilesHeuristic {
    #[inline]
    fn h(&self, d: &Tiles, s: &TileState) -> Cost {
        match self {
            TilesHeuristic::Manhattan(m) => m.h(d, s),
            TilesHeuristic::Pdb(p) => p.h(d, s),
            TilesHeuristic::Max(ps) => ps.iter().map(|p| p.h(d, s)).max().unwrap_or(0),
        }
    }
    #[inline]
    fn h_child(&self, d: &Tiles, parent: &TileState, parent_h: Cost, child: &TileState) -> Cost {
        match self {
            TilesHeuristic::Manhattan(m) => m.h_child(d, parent, parent_h, child),
            TilesHeuristic::Pdb(p) => p.h(d, child),
            TilesHeuristic::Max(_) => self.h(d, child),
        }
    }
    /// The first partition's conflicts rank a `Max`.
    #[inline]
    fn rank(&self, d: &Tiles, s: &TileState, h: Cost) -> Cost {
        match self {
            TilesHeuristic::Pdb(p) => p.rank(d, s, h),
            _ => rank_by(self.rank_conflicts(), s, h),
        }
    }
    #[inline]
    fn rank_child(
        &self,
        d: &Tiles,
        parent: &TileState,
        parent_h: Cost,
        parent_rank: Cost,
        child: &TileState,
        h: Cost,
    ) -> Cost {
        if let TilesHeuristic::Pdb(p) = self {
            return p.rank_child(d, parent, parent_h, parent_rank, child, h);
        }
        rank_child_by(
            self.rank_conflicts(),
            parent,
            parent_h,
            parent_rank,
            child,
            h,
        )
    }
    fn children_h_and_rank(
        &self,
        d: &Tiles,
        of: Parent<'_, TileState>,
        children: &[Edge<TileState, Dir>],
        out: &mut Vec<(Cost, Cost)>,
    ) {
        match self {
            TilesHeuristic::Pdb(p) => p.children_h_and_rank(d, of, children, out),
            _ => children_one_by_one(self, d, of, children, out),
        }
    }
    fn consistent(&self) -> bool {
        match self {
            TilesHeuristic::Manhattan(_) => true,
            TilesHeuristic::Pdb(p) => Heuristic::<Tiles>::consistent(p),
            TilesHeuristic::Max(ps) => ps.iter().all(Heuristic::<Tiles>::consistent),
        }
    }
}

/// What a tiles state's bound is made of on the in-place path: each
/// database's index and value and their sum, directly and (with
/// reflection) on the reflected state. Manhattan needs none of it.
#[derive(Clone, Debug, Default)]
pub struct TilesDetail {
    direct: Side,
    reflected: Side,
}

/// One orientation's databases: index, value, and the values' sum.
#[derive(Clone, Debug)]
struct Side {
    index: [usize; MAX_CELLS],
    values: [u8; MAX_CELLS],
    sum: Cost,
}

impl Default for Side {
    fn default() -> Self {
        Side {
            index: [0; MAX_CELLS],
            values: [0; MAX_CELLS],
            sum: 0,
        }
    }
}

impl Side {
    /// Copies the first `k` databases' entries and the sum: a move's
    /// detail starts from its parent's, and copying all `MAX_CELLS` slots
    /// would cost more than the update itself.
    #[inline]
    fn copy_from(&mut self, parent: &Side, k: usize) {
        for i in 0..k.min(MAX_CELLS) {
            self.index[i] = parent.index[i];
            self.values[i] = parent.values[i];
        }
        self.sum = parent.sum;
    }
}

/// A tile's one-cell move, in the numbering of one orientation: the tile
/// went from cell `from` to cell `to`; `tile_at` reads the tiles on the
/// cells between (unchanged by the move).
struct IndexStep<F: Fn(u8) -> u8> {
    tile: u8,
    from: u8,
    to: u8,
    tile_at: F,
}

impl AdditivePdb {
    /// Every database's index and value on tile positions `pos`.
    fn fill(&self, pos: &[u8; MAX_CELLS], side: &mut Side) {
        side.sum = 0;
        for (i, db) in self.dbs.iter().enumerate() {
            side.index[i] = db.index(pos);
            side.values[i] = db.at(side.index[i]);
            side.sum += Cost::from(side.values[i]);
        }
    }

    /// Updates the index and value of the database holding the moved tile,
    /// without ranking again. [`rank`](crate::pdb::rank)'s digit of tile
    /// `t` is its cell less the cells of the pattern's earlier tiles below
    /// it. When `t` moves up from `a` to `b` (`b > a`) over no other tile
    /// of its pattern (a sideways move: the cells are adjacent), its digit
    /// grows by `b - a` and no other digit changes. Over cells `a+1..b` (a
    /// move between rows): each earlier tile there takes one off `t`'s
    /// digit's growth, and each later tile there now has `t` below it no
    /// more, so its own digit grows by one. Moving down negates all of it.
    /// `digits` are by the numbers `step` uses for tiles.
    #[inline]
    fn step<F: Fn(u8) -> u8>(
        &self,
        step: IndexStep<F>,
        digits: &[Digit; MAX_CELLS],
        side: &mut Side,
    ) {
        let Digit { db, order, weight } = digits[usize::from(step.tile)];
        if db == NO_DB {
            return;
        }
        let (lo, hi) = if step.to > step.from {
            (step.from, step.to)
        } else {
            (step.to, step.from)
        };
        let mut grow = usize::from(hi - lo) * weight;
        let mut shrink = 0;
        for cell in lo + 1..hi {
            let other = digits[usize::from((step.tile_at)(cell))];
            if other.db == db {
                if other.order < order {
                    shrink += weight;
                } else {
                    grow += other.weight;
                }
            }
        }
        let db = usize::from(db);
        let index = &mut side.index[db];
        // `grow >= shrink`: each earlier tile counted sits on one of the
        // `hi - lo - 1` cells between, each worth `weight`.
        *index = if step.to > step.from {
            *index + (grow - shrink)
        } else {
            *index - (grow - shrink)
        };
        let value = self.dbs[db].at(*index);
        side.sum = side.sum + Cost::from(value) - Cost::from(side.values[db]);
        side.values[db] = value;
    }

    /// The bound: the direct sum, maxed with the reflected one.
    #[inline]
    fn bound(&self, detail: &TilesDetail) -> Cost {
        match self.reflection {
            Some(_) => detail.direct.sum.max(detail.reflected.sum),
            None => detail.direct.sum,
        }
    }

    fn root_detail(&self, state: &TileState, detail: &mut TilesDetail) -> Cost {
        let pos = state.positions(self.cells);
        self.fill(&pos, &mut detail.direct);
        if let Some(r) = &self.reflection {
            self.fill(&r.apply(&pos, self.cells), &mut detail.reflected);
        }
        self.bound(detail)
    }

    /// One move: the tile the blank passed moved from the blank's new cell
    /// to its old one (`from`). Only that tile's database is updated,
    /// directly and reflected.
    ///
    /// The bound is the larger of the two sums: where the direct sum alone
    /// reaches `cap`, the reflected side is not looked up (its detail is
    /// left stale), as [`InPlaceHeuristic::after_below`] allows.
    #[inline]
    fn after_move(
        &self,
        state: &TileState,
        from: u8,
        parent: &TilesDetail,
        child: &mut TilesDetail,
        cap: Cost,
    ) -> Cost {
        let tile = state.cells[usize::from(from)];
        let k = self.dbs.len();
        child.direct.copy_from(&parent.direct, k);
        let step = IndexStep {
            tile,
            from: state.blank,
            to: from,
            tile_at: |cell: u8| state.cells[usize::from(cell)],
        };
        self.step(step, &self.digits, &mut child.direct);
        if child.direct.sum >= cap {
            return child.direct.sum;
        }
        if let Some(r) = &self.reflection {
            child.reflected.copy_from(&parent.reflected, k);
            // The reflection's cell map is its own inverse, so reflected
            // cell `c` holds the reflection of the tile on cell `r.cell[c]`;
            // `reflected_digits` takes the unreflected tile's number.
            let step = IndexStep {
                tile,
                from: r.cell[usize::from(state.blank)],
                to: r.cell[usize::from(from)],
                tile_at: |cell: u8| state.cells[usize::from(r.cell[usize::from(cell)])],
            };
            self.step(step, &self.reflected_digits, &mut child.reflected);
        }
        self.bound(child)
    }
}

/// Manhattan takes one table difference a move; the databases keep each
/// tile's cell and each database's value, and look up again only the
/// database of the tile that moved (and its reflection's).
impl InPlaceHeuristic<Tiles> for TilesHeuristic {
    type Detail = TilesDetail;

    fn root(&self, puzzle: &Tiles, state: &TileState, detail: &mut TilesDetail) -> Cost {
        match self {
            TilesHeuristic::Manhattan(m) => m.h(puzzle, state),
            TilesHeuristic::Pdb(p) => p.root_detail(state, detail),
            // The detail follows one partition; several are looked up whole.
            TilesHeuristic::Max(_) => self.h(puzzle, state),
        }
    }

    #[inline]
    fn after(
        &self,
        puzzle: &Tiles,
        state: &TileState,
        dir: Dir,
        parent: &TilesDetail,
        parent_h: Cost,
        child: &mut TilesDetail,
    ) -> Cost {
        self.after_below(puzzle, state, dir, parent, parent_h, child, Cost::MAX)
    }

    #[inline]
    fn after_below(
        &self,
        puzzle: &Tiles,
        state: &TileState,
        dir: Dir,
        parent: &TilesDetail,
        parent_h: Cost,
        child: &mut TilesDetail,
        cap: Cost,
    ) -> Cost {
        // The cell the blank left, where the moved tile now is.
        let Some(from) = puzzle.board().neighbour(state.blank, dir.opposite()) else {
            return self.h(puzzle, state);
        };
        match self {
            TilesHeuristic::Manhattan(m) => {
                let row = &m.distance[usize::from(state.cells[usize::from(from)])];
                parent_h + Cost::from(row[usize::from(from)])
                    - Cost::from(row[usize::from(state.blank)])
            }
            TilesHeuristic::Pdb(p) => p.after_move(state, from, parent, child, cap),
            TilesHeuristic::Max(_) => self.h(puzzle, state),
        }
    }
}

/// Named partitions, as goal cells of Korf's goal (blank on cell 0). For the
/// standard goal they are rotated by 180°, which maps one goal onto the
/// other, so both conventions get the same heuristic up to symmetry.
const PRESETS: &[(&str, u8, &[&[u8]])] = &[
    ("4-4", 3, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]),
    (
        "5-5-5",
        4,
        &[&[1, 2, 3, 6, 7], &[4, 5, 8, 9, 12], &[10, 11, 13, 14, 15]],
    ),
    (
        "6-6-3",
        4,
        &[&[1, 2, 3], &[4, 5, 8, 9, 12, 13], &[6, 7, 10, 11, 14, 15]],
    ),
    (
        "7-8",
        4,
        &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    ),
    (
        "6-6-6-6",
        5,
        &[
            &[1, 2, 5, 6, 7, 12],
            &[3, 4, 8, 9, 13, 14],
            &[10, 11, 15, 16, 20, 21],
            &[17, 18, 19, 22, 23, 24],
        ],
    ),
    // 6×6: seven compact blocks of five tiles (a six-tile database of 36
    // cells would take 1.4 GB each).
    (
        "5-5-5-5-5-5-5",
        6,
        &[
            &[1, 2, 6, 7, 8],
            &[3, 4, 5, 9, 10],
            &[11, 16, 17, 22, 23],
            &[12, 13, 14, 18, 19],
            &[15, 20, 21, 26, 27],
            &[24, 25, 30, 31, 32],
            &[28, 29, 33, 34, 35],
        ],
    ),
    // 6×6: two other groupings into seven blocks of five, to take the
    // largest of several partitions (`5-5-5-5-5-5-5|alt-…|strips-…`).
    (
        "alt-5-5-5-5-5-5-5",
        6,
        &[
            &[1, 2, 3, 8, 9],
            &[4, 5, 10, 11, 17],
            &[6, 7, 12, 13, 18],
            &[14, 15, 16, 21, 22],
            &[19, 20, 24, 25, 26],
            &[23, 28, 29, 34, 35],
            &[27, 30, 31, 32, 33],
        ],
    ),
    (
        "strips-5-5-5-5-5-5-5",
        6,
        &[
            &[1, 2, 3, 4, 5],
            &[6, 7, 8, 9, 10],
            &[11, 15, 16, 17, 23],
            &[12, 13, 14, 18, 19],
            &[20, 21, 22, 27, 28],
            &[24, 25, 26, 30, 31],
            &[29, 32, 33, 34, 35],
        ],
    ),
    // 6×6: five blocks of six tiles and one of five, 1.41 G entries (bytes)
    // each, 7.1 GB in all: h a few moves higher than seven blocks of five
    // on a typical 35-puzzle, for anytime GA* on a GPU with the memory.
    (
        "6-6-6-6-6-5",
        6,
        &[
            &[1, 2, 3, 7, 8, 9],
            &[4, 5, 10, 11, 16, 17],
            &[6, 12, 13, 18, 19, 24],
            &[14, 15, 20, 21, 26, 27],
            &[22, 23, 28, 29, 34, 35],
            &[25, 30, 31, 32, 33],
        ],
    ),
    // 7×7: nine compact blocks of five tiles and the three left over
    // (229 M entries each, 2.1 GB in all).
    (
        "5-5-5-5-5-5-5-5-5-3",
        7,
        &[
            &[1, 2, 7, 8, 9],
            &[3, 4, 10, 11, 17],
            &[5, 6, 12, 13, 20],
            &[14, 15, 16, 21, 22],
            &[18, 19, 25, 26, 27],
            &[23, 24, 30, 31, 32],
            &[28, 29, 35, 36, 42],
            &[33, 34, 40, 41, 48],
            &[37, 38, 39, 44, 45],
            &[43, 46, 47],
        ],
    ),
];

/// Names of the preset partitions.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.0).collect()
}

/// The patterns of a partition spec for `board` and `goal`: a preset name,
/// or tile numbers with `,` between tiles and `/` between patterns
/// (`1,2,3,4/5,6,7,8`).
pub fn partition(spec: &str, board: &Board, goal: Goal) -> Result<Vec<Pattern>, TilesError> {
    goal.fits(board)?;
    let n = board.cells();
    let goal_state = TileState::goal(board, goal);
    let bad = |reason: String| TilesError::BadPartition {
        spec: spec.to_string(),
        reason,
    };
    let tile_sets: Vec<Vec<u8>> =
        if let Some((_, side, sets)) = PRESETS.iter().find(|p| p.0 == spec) {
            if board.rows() != *side || board.cols() != *side {
                return Err(TilesError::PresetShape {
                    preset: spec.to_string(),
                    side: *side,
                });
            }
            if let Goal::Layout(_) = goal {
                return Err(TilesError::PresetNeedsConvention(spec.to_string()));
            }
            sets.iter()
                .map(|cells| {
                    cells
                        .iter()
                        .map(|&c| {
                            let cell = if goal == Goal::Korf {
                                c
                            } else {
                                (n - 1) as u8 - c
                            };
                            goal_state.cells[usize::from(cell)]
                        })
                        .collect()
                })
                .collect()
        } else {
            spec.split('/')
                .map(|set| {
                    set.split(',')
                        .map(|t| {
                            let t = t.trim();
                            t.parse::<u8>().map_err(|_| {
                                bad(if t.is_empty() {
                                    "an empty tile list or number".into()
                                } else {
                                    format!("'{t}' is not a tile number")
                                })
                            })
                        })
                        .collect()
                })
                .collect::<Result<_, _>>()?
        };
    // Additive databases are admissible only when no tile counts twice, so
    // a tile in two lists is refused, not summed.
    let mut seen = [false; MAX_CELLS];
    for &t in tile_sets.iter().flatten() {
        if t == 0 {
            return Err(bad("0 is the blank: the lists hold tiles".into()));
        }
        if usize::from(t) >= n {
            return Err(bad(format!(
                "tile {t} is not on a {}x{} board (tiles 1 to {})",
                board.rows(),
                board.cols(),
                n - 1
            )));
        }
        if std::mem::replace(&mut seen[usize::from(t)], true) {
            return Err(bad(format!("tile {t} is in two lists")));
        }
    }
    if let Some(set) = tile_sets.iter().find(|s| s.len() + 1 >= n) {
        return Err(bad(format!(
            "a list of {} tiles leaves fewer than two cells free",
            set.len()
        )));
    }
    Ok(tile_sets
        .into_iter()
        .map(|tiles| Pattern {
            goal_cells: tiles.iter().map(|&t| goal.cell_of(t, n)).collect(),
            tiles,
            blank_goal: goal.cell_of(0, n),
        })
        .collect())
}
