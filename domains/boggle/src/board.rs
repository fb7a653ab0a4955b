//! Boards of any R×C shape: parsing, printing, neighbours, random boards.

use frontier_core::rng::SplitMix64;

use crate::dict::QU;
use crate::BoggleError;

/// Largest side accepted. The solvers handle any size; this keeps a typo
/// from asking for a million-cell board.
pub const MAX_SIDE: usize = 32;

/// A board: letters `0..26` row-major, `q` standing for the Qu die.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `rows * cols` letters, row-major.
    pub letters: Vec<u8>,
}

impl Board {
    /// Parses a board: a row-major string (`perlatdes`; its length must be
    /// a square unless `shape` is given) or rows separated by `/`, spaces,
    /// commas or newlines (`per/lat/des`). Case is ignored; `q` is Qu.
    pub fn parse(text: &str, shape: Option<(usize, usize)>) -> Result<Board, BoggleError> {
        let bad = |message: String| BoggleError::Board {
            board: text.trim().to_string(),
            message,
        };
        let rows_text: Vec<&str> = text
            .split(|c: char| c == '/' || c == ',' || c.is_whitespace())
            .filter(|r| !r.is_empty())
            .collect();
        let mut letters = Vec::new();
        for (i, c) in rows_text.iter().flat_map(|r| r.chars()).enumerate() {
            if !c.is_ascii_alphabetic() {
                return Err(bad(format!("'{c}' (letter {}) is not a letter a-z", i + 1)));
            }
            letters.push(c.to_ascii_lowercase() as u8 - b'a');
        }
        if letters.is_empty() {
            return Err(bad("the board is empty".into()));
        }
        let (rows, cols) = match shape {
            Some((rows, cols)) => {
                if rows * cols != letters.len() {
                    return Err(bad(format!(
                        "a {rows}x{cols} board needs {} letters, got {}",
                        rows * cols,
                        letters.len()
                    )));
                }
                (rows, cols)
            }
            None if rows_text.len() > 1 => {
                let cols = rows_text[0].chars().count();
                if let Some((i, r)) = rows_text
                    .iter()
                    .enumerate()
                    .find(|(_, r)| r.chars().count() != cols)
                {
                    return Err(bad(format!(
                        "row {} has {} letters but row 1 has {cols}",
                        i + 1,
                        r.chars().count()
                    )));
                }
                (rows_text.len(), cols)
            }
            None => {
                let side = (letters.len() as f64).sqrt().round() as usize;
                if side * side != letters.len() {
                    return Err(bad(format!(
                        "{} letters is not a square board; give rows (e.g. 'abcd/efgh/ijkl') \
                         or the shape",
                        letters.len()
                    )));
                }
                (side, side)
            }
        };
        if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(bad(format!(
                "{rows}x{cols} boards are not supported (1 to {MAX_SIDE} per side)"
            )));
        }
        Ok(Board {
            rows,
            cols,
            letters,
        })
    }

    /// The row-major string (`q` for Qu), the form `parse` reads back.
    pub fn text(&self) -> String {
        self.letters.iter().map(|&l| (b'a' + l) as char).collect()
    }

    /// Rows on separate lines, `Qu` spelled out.
    pub fn grid(&self) -> String {
        let mut out = String::new();
        for row in self.letters.chunks(self.cols) {
            let cells: Vec<String> = row
                .iter()
                .map(|&l| {
                    if l == QU {
                        "Qu".into()
                    } else {
                        ((b'A' + l) as char).to_string()
                    }
                })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }

    /// The shape of this board (neighbour lists).
    pub fn shape(&self) -> Shape {
        Shape::new(self.rows, self.cols)
    }
}

/// A board shape with its neighbour lists (8-neighbourhood), shared by
/// every board of that shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Neighbours of each cell, row-major, padded with `u16::MAX`.
    pub neighbors: Vec<[u16; 8]>,
    /// How many of each cell's eight entries are real.
    pub degree: Vec<u8>,
    /// For boards of at most 64 cells, each cell's neighbours as a bit mask
    /// (empty otherwise): the tuned solver's small-board walk uses them.
    pub neighbor_masks: Vec<u64>,
}

impl Shape {
    /// The shape `rows × cols`.
    pub fn new(rows: usize, cols: usize) -> Shape {
        let mut neighbors = vec![[u16::MAX; 8]; rows * cols];
        let mut degree = vec![0u8; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                let cell = r * cols + c;
                for dr in -1i64..=1 {
                    for dc in -1i64..=1 {
                        let (nr, nc) = (r as i64 + dr, c as i64 + dc);
                        if (dr, dc) == (0, 0)
                            || nr < 0
                            || nc < 0
                            || nr >= rows as i64
                            || nc >= cols as i64
                        {
                            continue;
                        }
                        let d = &mut degree[cell];
                        neighbors[cell][*d as usize] = (nr as usize * cols + nc as usize) as u16;
                        *d += 1;
                    }
                }
            }
        }
        let neighbor_masks = if rows * cols <= 64 {
            (0..rows * cols)
                .map(|cell| {
                    neighbors[cell][..degree[cell] as usize]
                        .iter()
                        .fold(0u64, |m, &n| m | 1 << n)
                })
                .collect()
        } else {
            Vec::new()
        };
        Shape {
            rows,
            cols,
            neighbors,
            degree,
            neighbor_masks,
        }
    }

    /// Cells on the board.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The real neighbours of `cell`.
    #[inline]
    pub fn neighbors_of(&self, cell: usize) -> &[u16] {
        &self.neighbors[cell][..self.degree[cell] as usize]
    }
}

/// The sixteen dice of modern Boggle (Qu written `q`).
pub const DICE: [&str; 16] = [
    "aaeegn", "abbjoo", "achops", "affkps", "aoottw", "cimotu", "deilrx", "delrvy", "distty",
    "eeghnw", "eeinsu", "ehrtvw", "eiosst", "elrtty", "himnqu", "hlnnrz",
];

/// How random boards are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Letters {
    /// Shuffle the sixteen dice and roll each (larger boards reuse dice).
    Dice,
    /// Every cell an independent uniform letter a–z.
    Uniform,
}

/// Fills `out` with a random board's letters.
pub fn random_letters(rng: &mut SplitMix64, kind: Letters, out: &mut [u8]) {
    match kind {
        Letters::Uniform => {
            for cell in out.iter_mut() {
                *cell = rng.below(26) as u8;
            }
        }
        Letters::Dice => {
            let mut order: [usize; 16] = std::array::from_fn(|i| i);
            for (i, cell) in out.iter_mut().enumerate() {
                let slot = i % 16;
                if slot == 0 {
                    // Fisher–Yates, a fresh set of dice every 16 cells.
                    for j in (1..16).rev() {
                        order.swap(j, rng.below(j as u64 + 1) as usize);
                    }
                }
                let die = DICE[order[slot]].as_bytes();
                let face = die[rng.below(6) as usize];
                *cell = face - b'a';
            }
        }
    }
}
