//! Heuristics: Manhattan distance (incremental) and additive pattern
//! databases with the optional diagonal reflection lookup.

use std::sync::Arc;

use frontier_core::{Cost, Heuristic};

use crate::board::{Board, Goal, TileState, Tiles, MAX_CELLS};
use crate::pdb::{Pattern, PatternDb};
use crate::TilesError;

/// Sum over tiles of the taxicab distance to their goal cell.
#[derive(Clone, Debug)]
pub struct Manhattan {
    /// `distance[tile][cell]`.
    distance: [[u8; MAX_CELLS]; MAX_CELLS],
    cells: usize,
}

impl Manhattan {
    /// The table for `board` and `goal`.
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
        Manhattan { distance, cells }
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

    /// One tile moved from the child's blank cell to the parent's.
    #[inline]
    fn h_child(&self, _: &Tiles, parent: &TileState, parent_h: Cost, child: &TileState) -> Cost {
        let tile = usize::from(child.cells[usize::from(parent.blank)]);
        let row = &self.distance[tile];
        parent_h + Cost::from(row[usize::from(parent.blank)])
            - Cost::from(row[usize::from(child.blank)])
    }
}

/// The reflection about the main diagonal, as a relabelling of cells and
/// tiles; it maps the goal onto itself for both goal conventions.
#[derive(Clone, Debug)]
struct Reflection {
    cell: [u8; MAX_CELLS],
    tile: [u8; MAX_CELLS],
}

impl Reflection {
    fn new(board: &Board, goal: Goal) -> Option<Reflection> {
        if board.rows() != board.cols() {
            return None;
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
        Some(Reflection { cell, tile })
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
}

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
            Some(Reflection::new(board, goal).ok_or(TilesError::ReflectNeedsSquare)?)
        } else {
            None
        };
        Ok(AdditivePdb {
            dbs,
            reflection,
            cells: board.cells(),
        })
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
}

impl Heuristic<Tiles> for TilesHeuristic {
    #[inline]
    fn h(&self, d: &Tiles, s: &TileState) -> Cost {
        match self {
            TilesHeuristic::Manhattan(m) => m.h(d, s),
            TilesHeuristic::Pdb(p) => p.h(d, s),
        }
    }
    #[inline]
    fn h_child(&self, d: &Tiles, parent: &TileState, parent_h: Cost, child: &TileState) -> Cost {
        match self {
            TilesHeuristic::Manhattan(m) => m.h_child(d, parent, parent_h, child),
            TilesHeuristic::Pdb(p) => p.h(d, child),
        }
    }
    fn consistent(&self) -> bool {
        match self {
            TilesHeuristic::Manhattan(_) => true,
            TilesHeuristic::Pdb(p) => Heuristic::<Tiles>::consistent(p),
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
];

/// Names of the preset partitions.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.0).collect()
}

/// The patterns of a partition spec for `board` and `goal`: a preset name,
/// or tile numbers with `,` between tiles and `/` between patterns
/// (`1,2,3,4/5,6,7,8`).
pub fn partition(spec: &str, board: &Board, goal: Goal) -> Result<Vec<Pattern>, TilesError> {
    let n = board.cells();
    let goal_state = TileState::goal(board, goal);
    let tile_sets: Vec<Vec<u8>> =
        if let Some((_, side, sets)) = PRESETS.iter().find(|p| p.0 == spec) {
            if board.rows() != *side || board.cols() != *side {
                return Err(TilesError::PresetShape {
                    preset: spec.to_string(),
                    side: *side,
                });
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
                            t.trim()
                                .parse::<u8>()
                                .map_err(|_| TilesError::BadPartition(spec.to_string()))
                        })
                        .collect()
                })
                .collect::<Result<_, _>>()?
        };
    let mut seen = [false; MAX_CELLS];
    for &t in tile_sets.iter().flatten() {
        if t == 0 || usize::from(t) >= n || std::mem::replace(&mut seen[usize::from(t)], true) {
            return Err(TilesError::BadPartition(spec.to_string()));
        }
    }
    if tile_sets.iter().any(|s| s.is_empty() || s.len() + 1 >= n) {
        return Err(TilesError::BadPartition(spec.to_string()));
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
