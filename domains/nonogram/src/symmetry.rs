//! Symmetries of a puzzle's clues: the turns and mirror images of its core
//! (the rectangle inside its blank border lines) that carry every line's
//! clue onto the clue of the line it lands on.
//!
//! Under such a symmetry the image of a solution is a solution too. So a
//! solution that differs from its image proves the puzzle has several, and
//! a search may first look among solutions equal to their images, where
//! each deduction counts for every cell of an orbit.

use crate::puzzle::Puzzle;

/// One symmetry of a puzzle's clues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// What it does: "turn 90", "turn 180", "turn 270", "mirror rows",
    /// "mirror columns", "transpose" or "anti-transpose".
    pub name: &'static str,
    /// For each cell (row-major), the cell it lands on; cells of the blank
    /// border stay where they are.
    pub image: Vec<usize>,
}

impl Symmetry {
    /// The image of a filled grid (row-major, `true` = filled).
    pub fn apply(&self, filled: &[bool]) -> Vec<bool> {
        let mut out = vec![false; filled.len()];
        for (cell, &to) in self.image.iter().enumerate() {
            out[to] = filled[cell];
        }
        out
    }

    /// Orbits of cells (a cell its own image is an orbit of one): the free
    /// cells a search among the grids it leaves unchanged has.
    pub fn orbits(&self) -> usize {
        let mut seen = vec![false; self.image.len()];
        let mut orbits = 0;
        for start in 0..self.image.len() {
            if seen[start] {
                continue;
            }
            orbits += 1;
            let mut cell = start;
            while !seen[cell] {
                seen[cell] = true;
                cell = self.image[cell];
            }
        }
        orbits
    }
}

/// Every symmetry of `puzzle`'s clues but the identity (none for a puzzle
/// whose core is a single line or blank).
pub fn symmetries(puzzle: &Puzzle) -> Vec<Symmetry> {
    let nonblank = |clues: &[Vec<u32>]| {
        let first = clues.iter().position(|c| !c.is_empty())?;
        let last = clues.iter().rposition(|c| !c.is_empty())?;
        Some((first, last - first + 1))
    };
    let (Some((top, h)), Some((left, w))) = (nonblank(&puzzle.rows), nonblank(&puzzle.cols)) else {
        return Vec::new();
    };
    if h < 2 || w < 2 {
        return Vec::new();
    }
    type Map = fn(usize, usize, usize, usize) -> (usize, usize);
    // Each map with its inverse (the turns by a quarter undo each other;
    // the rest undo themselves).
    let turn_180: Map = |r, c, h, w| (h - 1 - r, w - 1 - c);
    let mirror_rows: Map = |r, c, h, _| (h - 1 - r, c);
    let mirror_columns: Map = |r, c, _, w| (r, w - 1 - c);
    let transpose: Map = |r, c, _, _| (c, r);
    let anti_transpose: Map = |r, c, h, _| (h - 1 - c, h - 1 - r);
    let turn_90: Map = |r, c, h, _| (c, h - 1 - r);
    let turn_270: Map = |r, c, h, _| (h - 1 - c, r);
    let mut maps: Vec<(&'static str, Map, Map)> = vec![
        ("turn 180", turn_180, turn_180),
        ("mirror rows", mirror_rows, mirror_rows),
        ("mirror columns", mirror_columns, mirror_columns),
    ];
    if h == w {
        maps.extend([
            ("transpose", transpose, transpose),
            ("anti-transpose", anti_transpose, anti_transpose),
            ("turn 90", turn_90, turn_270),
            ("turn 270", turn_270, turn_90),
        ]);
    }
    let width = puzzle.width;
    let core_cell = |(r, c): (usize, usize)| (top + r) * width + left + c;
    let mut found = Vec::new();
    for (name, map, inverse) in maps {
        // Where an image cell's preimage lies, to read each image line's
        // preimage in order.
        let preimage = |r: usize, c: usize| inverse(r, c, h, w);
        // Whether the image line whose first two cells come from `cells`
        // reads `wanted`: which line of the puzzle they lie on, and which
        // way it is read.
        let lands_as = |cells: [(usize, usize); 2], wanted: &[u32]| {
            let [(r0, c0), (r1, c1)] = cells;
            let (clue, forward) = if r0 == r1 {
                (&puzzle.rows[top + r0], c1 > c0)
            } else {
                (&puzzle.cols[left + c0], r1 > r0)
            };
            if forward {
                clue.iter().eq(wanted)
            } else {
                clue.iter().rev().eq(wanted)
            }
        };
        let rows_hold =
            (0..h).all(|r| lands_as([preimage(r, 0), preimage(r, 1)], &puzzle.rows[top + r]));
        let cols_hold =
            (0..w).all(|c| lands_as([preimage(0, c), preimage(1, c)], &puzzle.cols[left + c]));
        if rows_hold && cols_hold {
            let mut image: Vec<usize> = (0..puzzle.width * puzzle.height).collect();
            for r in 0..h {
                for c in 0..w {
                    image[core_cell((r, c))] = core_cell(map(r, c, h, w));
                }
            }
            found.push(Symmetry { name, image });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use frontier_core::rng::SplitMix64;

    /// A board of `side + 2` columns and `side + 1` rows, blank but for a
    /// `side`-square drawing one column in, its corners filled (so that
    /// its lines are the core) and made unchanged by `keep` ("turn 90",
    /// "mirror columns" or nothing).
    fn drawing(rng: &mut SplitMix64, side: usize, keep: &str) -> (usize, usize, Vec<bool>) {
        let coin: Vec<bool> = (0..side * side).map(|_| rng.below(2) == 0).collect();
        let image = |cell: usize| {
            let (r, c) = (cell / side, cell % side);
            match keep {
                "turn 90" => c * side + side - 1 - r,
                "mirror columns" => r * side + side - 1 - c,
                _ => cell,
            }
        };
        // Each cell takes the coin of the first cell of its orbit.
        let mut core: Vec<bool> = (0..side * side)
            .map(|cell| {
                let orbit = std::iter::successors(Some(cell), |&c| Some(image(c))).take(4);
                coin[orbit.min().unwrap_or(cell)]
            })
            .collect();
        for corner in [0, side - 1, side * (side - 1), side * side - 1] {
            core[corner] = true;
        }
        let (w, h) = (side + 2, side + 1);
        let mut cells = vec![false; w * h];
        for r in 0..side {
            for c in 0..side {
                cells[r * w + c + 1] = core[r * side + c];
            }
        }
        (w, h, cells)
    }

    #[test]
    fn drawn_symmetries_are_found_and_every_image_of_a_solution_solves() {
        let mut rng = SplitMix64::new(31);
        for trial in 0..600 {
            let side = 2 + trial % 5;
            let keep = ["turn 90", "mirror columns", "none"][trial % 3];
            let (w, h, cells) = drawing(&mut rng, side, keep);
            let puzzle = Puzzle::from_grid(w, h, &cells).expect("a grid");
            let found = symmetries(&puzzle);
            if keep != "none" {
                let symmetry = found.iter().find(|s| s.name == keep);
                let symmetry = symmetry.unwrap_or_else(|| panic!("{keep} missed in {puzzle:?}"));
                assert_eq!(symmetry.apply(&cells), cells, "{keep}");
            }
            for symmetry in &found {
                // A permutation that keeps the blank border in place…
                let mut image = symmetry.image.clone();
                image.sort_unstable();
                assert!(image.iter().enumerate().all(|(i, &c)| i == c));
                assert_eq!(symmetry.image[0], 0, "{}", symmetry.name);
                assert_eq!(symmetry.image[w * h - 1], w * h - 1, "{}", symmetry.name);
                // …and carries the solution to a solution.
                let image = symmetry.apply(&cells);
                assert!(puzzle.accepts(&image), "{} of {puzzle:?}", symmetry.name);
            }
        }
    }

    #[test]
    fn orbits_count_the_free_cells_of_the_grids_a_symmetry_keeps() {
        let mut rng = SplitMix64::new(5);
        let (w, h, cells) = drawing(&mut rng, 5, "turn 90");
        let puzzle = Puzzle::from_grid(w, h, &cells).expect("a grid");
        let turn = symmetries(&puzzle)
            .into_iter()
            .find(|s| s.name == "turn 90")
            .expect("drawn turning");
        // A 5×5 core: six orbits of four and the centre; 17 border cells.
        assert_eq!(turn.orbits(), 6 + 1 + 17);
    }

    #[test]
    fn a_lopsided_drawing_or_a_single_line_has_no_symmetry() {
        let rows: [&str; 3] = ["##..", "#...", "#.#."];
        let cells: Vec<bool> = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '#'))
            .collect();
        let puzzle = Puzzle::from_grid(4, 3, &cells).expect("a grid");
        assert!(symmetries(&puzzle).is_empty());
        let line = Puzzle::from_grid(4, 1, &[true, false, false, true]).expect("a line");
        assert!(symmetries(&line).is_empty());
        let blank = Puzzle::from_grid(3, 3, &[false; 9]).expect("a blank grid");
        assert!(symmetries(&blank).is_empty());
    }
}
