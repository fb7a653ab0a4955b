//! The tiles GPU plugin: `domains/tiles/kernels/tiles.cuh` plus the instance's constants,
//! and the pattern databases as the plugin's tables.

use std::fmt::Write;
use std::sync::Arc;

use frontier_core::search::gpu::GpuPlugin;
use frontier_core::PackedState;

use crate::board::{Tiles, MAX_CELLS};
use crate::heuristic::TilesHeuristic;
use crate::pdb::PatternDb;

const PLUGIN: &str = include_str!("../kernels/tiles.cuh");

fn array(name: &str, ty: &str, values: impl IntoIterator<Item = u64>) -> String {
    let values: Vec<String> = values.into_iter().map(|v| v.to_string()).collect();
    format!(
        "__device__ const {ty} {name}[{}] = {{{}}};\n",
        values.len().max(1),
        if values.is_empty() {
            "0".into()
        } else {
            values.join(", ")
        }
    )
}

impl GpuPlugin<Tiles> for TilesHeuristic {
    fn source(&self, puzzle: &Tiles) -> String {
        let board = puzzle.board();
        let n = board.cells();
        let goal = puzzle.goal_state();
        let mut goal_words = vec![0u32; puzzle.packed_words()];
        puzzle.pack(goal, &mut goal_words);
        let goal_pos = goal.positions(n);
        let mut src = String::new();
        let _ = write!(
            src,
            "#define N_CELLS {n}\n#define COLS {}\n#define BITS {}\n#define STATE_WORDS {}\n#define MAX_SUCC 4\n",
            board.cols(),
            crate::board::packed_bits(n),
            puzzle.packed_words()
        );
        src += &array(
            "GOAL_CELL",
            "unsigned char",
            goal_pos[..n].iter().map(|&c| u64::from(c)),
        );
        src += &goal_cell_of(&goal_pos[..n]);
        src += &array(
            "GOAL_WORDS",
            "u32",
            goal_words.iter().map(|&w| u64::from(w)),
        );
        let partitions = partitions(self);
        // Each partition's own reflection flag: a library user may mix them
        // in `Max`, and the GPU must then bound as the CPU does. The maps
        // depend on the board and goal alone, so any reflecting
        // partition's are every one's.
        let reflects: Vec<bool> = match self {
            TilesHeuristic::Manhattan(_) => vec![false],
            TilesHeuristic::Pdb(p) => vec![p.reflection_maps().is_some()],
            TilesHeuristic::Max(ps) => ps.iter().map(|p| p.reflection_maps().is_some()).collect(),
        };
        let reflection = match self {
            TilesHeuristic::Manhattan(_) => None,
            TilesHeuristic::Pdb(p) => p.reflection_maps(),
            TilesHeuristic::Max(ps) => ps.iter().find_map(|p| p.reflection_maps()),
        };
        let dbs: Vec<_> = partitions.iter().copied().flatten().collect();
        // Each partition's databases back to back; PART_FIRST[q] is
        // partition q's first, the last entry their count.
        let mut at = 0;
        let first = std::iter::once(0).chain(partitions.iter().map(|p| {
            at += p.len() as u64;
            at
        }));
        let _ = writeln!(
            src,
            "#define NUM_PDB {}\n#define NUM_PART {}\n#define REFLECT {}",
            dbs.len(),
            partitions.len(),
            u8::from(reflection.is_some())
        );
        src += &array("PART_FIRST", "unsigned short", first);
        src += &array(
            "PART_REFLECT",
            "unsigned char",
            reflects.iter().map(|&r| u64::from(r)),
        );
        let (cells, tiles) = reflection.unwrap_or(([0; MAX_CELLS], [0; MAX_CELLS]));
        src += &array(
            "REFL_CELL",
            "unsigned char",
            cells[..n].iter().map(|&c| u64::from(c)),
        );
        src += &array(
            "REFL_TILE",
            "unsigned char",
            tiles[..n].iter().map(|&c| u64::from(c)),
        );
        // The inverse of REFL_TILE, and the database holding each tile
        // (255: none), for the incremental heuristic (one partition only).
        let mut inverse = vec![0u64; n];
        for (t, &m) in tiles[..n].iter().enumerate() {
            if let Some(slot) = inverse.get_mut(usize::from(m)) {
                *slot = t as u64;
            }
        }
        src += &array("REFL_INV", "unsigned char", inverse);
        let mut pdb_of = vec![255u64; n];
        for (p, db) in dbs.iter().enumerate() {
            for &t in &db.pattern.tiles {
                if let Some(slot) = pdb_of.get_mut(usize::from(t)) {
                    *slot = p as u64;
                }
            }
        }
        src += &array("PDB_OF", "unsigned char", pdb_of);
        src += &array(
            "PDB_K",
            "unsigned char",
            dbs.iter().map(|d| d.pattern.tiles.len() as u64),
        );
        let mut rows = Vec::new();
        let mut offsets = Vec::new();
        let mut offset = 0u64;
        for db in &dbs {
            let mut row = db.pattern.tiles.clone();
            row.resize(8, 0);
            rows.push(format!(
                "{{{}}}",
                row.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
            ));
            offsets.push(offset);
            offset += db.table().len() as u64;
        }
        let _ = writeln!(
            src,
            "__device__ const unsigned char PDB_TILES[{}][8] = {{{}}};",
            rows.len().max(1),
            if rows.is_empty() {
                "{0}".into()
            } else {
                rows.join(", ")
            }
        );
        src += &array("PDB_OFFSET", "unsigned long long", offsets);
        // A beam's rank (the CPU's `Heuristic::rank`): h plus the
        // conflicts between tiles of different groups.
        if let Some(conflicts) = self.rank_conflicts() {
            src += "#define PLUGIN_RANK\n";
            src += &rank_group_of(conflicts.groups());
        }
        // A learned rank (linear_rank.rs) in place of h plus the conflicts.
        if let Some(linear) = self.linear_rank() {
            let list = |c: &[i64]| {
                let mut c = c.to_vec();
                c.resize(dbs.len().max(1), 0);
                c.iter()
                    .map(|v| format!("{v}ll"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let _ = writeln!(
                src,
                "#define PLUGIN_RANK_LINEAR\n#define RANK_OFFSET {}ll\n#define RANK_H {}ll\n#define RANK_CONFLICTS {}ll\n__device__ const long long RANK_DIRECT[{n}] = {{{}}};\n__device__ const long long RANK_REFLECTED[{n}] = {{{}}};",
                crate::linear_rank::OFFSET,
                linear.h,
                linear.conflicts,
                list(&linear.direct),
                list(&linear.reflected),
                n = dbs.len().max(1),
            );
        }
        // A learned network (network_rank.rs), in the same fixed point.
        if let Some(network) = self.network_rank() {
            src += &network_source(network);
        }
        src + PLUGIN
    }

    fn tables<'a>(&'a self, _: &Tiles) -> Vec<&'a [u8]> {
        partitions(self)
            .into_iter()
            .flatten()
            .map(|db| db.table())
            .collect()
    }
}

/// The network rank's constants for `PLUGIN_RANK_NETWORK` in
/// `tiles.cuh`: its sizes and fixed-point weights as arrays in the code
/// (about 21,000 numbers on 6×6 with 16 units; the kernel reads them
/// through the cache like a table).
fn network_source(network: &crate::NetworkRank) -> String {
    let weights = network.fixed_weights();
    let ints = |name: &str, values: &[i32]| {
        let values: Vec<String> = values.iter().map(i32::to_string).collect();
        format!(
            "__device__ const int {name}[{}] = {{{}}};\n",
            values.len().max(1),
            values.join(",")
        )
    };
    format!(
        "#define PLUGIN_RANK_NETWORK\n#define RANK_OFFSET {}ll\n#define NET_HIDDEN {}\n#define NET_FEATURES {}\n#define NET_FRACTION_BITS {}\n#define NET_CONSTANT {}ll\n{}{}{}{}{}",
        crate::linear_rank::OFFSET,
        network.hidden(),
        network.features(),
        crate::network_rank::FRACTION_BITS,
        weights.constant,
        ints("NET_TABLE", weights.table),
        ints("NET_MIX", weights.mix),
        ints("NET_BIAS", weights.bias),
        ints("NET_OUTPUT", weights.output),
        ints("NET_LINEAR", weights.linear),
    )
}

/// `goal_cell_of(t)`, tile t's goal cell, for the rank's line scans: an
/// offset (`t` or `t - 1`, both goal conventions) where the goal has one,
/// else a read of `GOAL_CELL`. A read per scanned cell cost the beam more
/// than its database lookups: the scans are latency-bound, arithmetic is
/// not.
fn goal_cell_of(goal_pos: &[u8]) -> String {
    let offset = |k: i64| {
        goal_pos
            .iter()
            .enumerate()
            .skip(1)
            .all(|(tile, &cell)| i64::from(cell) == tile as i64 + k)
    };
    let body = match [0i64, -1].into_iter().find(|&k| offset(k)) {
        Some(k) => format!("return (int)t + ({k});"),
        None => "return GOAL_CELL[t];".into(),
    };
    format!("__device__ __forceinline__ int goal_cell_of(u32 t) {{ {body} }}\n")
}

/// `rank_group_of(t)`, tile t's group for the rank's conflicts, from
/// constants in the code (6 bits a tile, ten tiles a word) instead of a
/// table in memory, for the reason of [`goal_cell_of`]. Groups are
/// numbered below 64 ([`crate::conflicts::Conflicts::groups`]).
fn rank_group_of(groups: &[u8]) -> String {
    let words = group_words(groups);
    let mut select = String::from("0ull");
    for (i, word) in words.iter().enumerate().rev() {
        select = format!("t < {} ? {word:#x}ull : {select}", 10 * (i + 1));
    }
    format!(
        "__device__ __forceinline__ u32 rank_group_of(u32 t) {{\n    u64 word = {select};\n    return (u32)(word >> (6 * (t % 10))) & 63u;\n}}\n"
    )
}

/// The groups packed as `rank_group_of` reads them: tile t's in bits
/// `6 * (t % 10)` and up of word `t / 10`.
fn group_words(groups: &[u8]) -> Vec<u64> {
    groups
        .chunks(10)
        .map(|chunk| {
            chunk
                .iter()
                .enumerate()
                .fold(0u64, |word, (i, &g)| word | (u64::from(g & 63) << (6 * i)))
        })
        .collect()
}

/// The heuristic's additive partitions, each its databases, in the order
/// the kernel reads them; Manhattan distance is one partition of none (the
/// kernel then never looks one up).
fn partitions(heuristic: &TilesHeuristic) -> Vec<&[Arc<PatternDb>]> {
    match heuristic {
        TilesHeuristic::Manhattan(_) => vec![&[]],
        TilesHeuristic::Pdb(p) => vec![p.dbs()],
        TilesHeuristic::Max(ps) => ps.iter().map(|p| p.dbs()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tile's group comes back from the packed words as the kernel
    /// reads them, for boards up to 49 cells and groups up to 63.
    #[test]
    fn packed_groups_read_back() {
        for cells in [9usize, 16, 36, 49] {
            let groups: Vec<u8> = (0..cells).map(|t| ((t * 37 + 5) % 64) as u8).collect();
            let words = group_words(&groups);
            for (t, &g) in groups.iter().enumerate() {
                assert_eq!(
                    (words[t / 10] >> (6 * (t % 10))) & 63,
                    u64::from(g),
                    "{cells} {t}"
                );
            }
            let source = rank_group_of(&groups);
            assert_eq!(source.matches("ull").count(), words.len() + 1, "{source}");
        }
    }

    /// Both goal conventions give arithmetic; any other goal reads the table.
    #[test]
    fn goal_cells_are_arithmetic_for_both_conventions() {
        let standard: Vec<u8> = std::iter::once(8).chain(0..8).collect();
        let korf: Vec<u8> = (0..9).collect();
        assert!(goal_cell_of(&standard).contains("return (int)t + (-1);"));
        assert!(goal_cell_of(&korf).contains("return (int)t + (0);"));
        let mut other = korf.clone();
        other.swap(3, 4);
        assert!(goal_cell_of(&other).contains("GOAL_CELL[t]"));
    }
}
