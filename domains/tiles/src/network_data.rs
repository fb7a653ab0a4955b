//! The rows a network rank ([`crate::network_rank`]) is trained on, as
//! `frontier tiles fit-rank --network-data FILE` writes them for
//! `scripts/train-rank-network.py`.
//!
//! A beam keeps a layer's best-ranked children, so what a rank must get
//! right is which child of a state on a good path comes first. For every
//! path fitted, the file gets each path state (`path` rows, with its
//! remaining length along the path) and each sibling of a path state that
//! the path did not take (`sibling` rows: the parent's other children,
//! but the move back). The trainer ranks each path state ahead of its
//! siblings (a pairwise loss) and keeps the rank's scale with a little of
//! the squared error on the remaining lengths.
//!
//! With cousins (`--network-cousins`) the file also gets, for each path
//! state past the second, the children of its parent's siblings (`cousin`
//! rows: the same depth, two moves from the grandparent, neither the path
//! state nor the grandparent). A wide beam's layer holds such states beside
//! the path state, and they differ from it in two tiles' places rather
//! than one, so they teach the rank a coarser choice than siblings do.
//!
//! Columns: `kind,path,depth,remaining,c0..c{N-1},f0..f{K-1}`: the path's
//! number (from 0), the state's depth along it (a sibling has the depth of
//! the path state it is an alternative to), the remaining length (a
//! sibling's: the path state's plus 2, an upper bound through the
//! parent; a cousin's plus 4, through the grandparent), the tile on each
//! cell, and the rank's features
//! ([`crate::AdditivePdb::rank_feature_counts`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use frontier_app::CliError;

use crate::{AdditivePdb, Dir, TileState, Tiles};

/// An open file of training rows.
pub struct NetworkData {
    path: PathBuf,
    out: std::io::BufWriter<std::fs::File>,
    paths: u64,
    header_written: bool,
    cousins: bool,
}

impl NetworkData {
    /// Creates (or empties) `path`; with `cousins`, each path state's
    /// cousins are written too.
    pub fn create(path: &Path, cousins: bool) -> Result<NetworkData, CliError> {
        let file = std::fs::File::create(path).map_err(|source| CliError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(NetworkData {
            path: path.to_path_buf(),
            out: std::io::BufWriter::new(file),
            paths: 0,
            header_written: false,
            cousins,
        })
    }

    /// Writes the rows of one path (its board first, the goal last).
    pub fn add_path(
        &mut self,
        puzzle: &Tiles,
        pdb: &AdditivePdb,
        states: &[TileState],
    ) -> Result<(), CliError> {
        let cells = puzzle.board().cells();
        let length = states.len().saturating_sub(1);
        let mut text = String::new();
        if !self.header_written {
            let features = states
                .first()
                .map_or(0, |s| pdb.rank_feature_counts(s).len());
            let names: Vec<String> = (0..cells)
                .map(|c| format!("c{c}"))
                .chain((0..features).map(|k| format!("f{k}")))
                .collect();
            text += &format!("kind,path,depth,remaining,{}\n", names.join(","));
            self.header_written = true;
        }
        let row = |text: &mut String, kind: &str, depth: usize, remaining: usize, s: &TileState| {
            let values: Vec<String> = s.cells[..cells]
                .iter()
                .map(|t| t.to_string())
                .chain(pdb.rank_feature_counts(s).iter().map(i64::to_string))
                .collect();
            text.push_str(&format!(
                "{kind},{},{depth},{remaining},{}\n",
                self.paths,
                values.join(",")
            ));
        };
        for (depth, state) in states.iter().enumerate() {
            row(&mut text, "path", depth, length - depth, state);
            if depth == 0 {
                continue;
            }
            let parent = &states[depth - 1];
            for dir in Dir::ALL {
                let Some(sibling) = parent.slide(puzzle.board(), dir) else {
                    continue;
                };
                let back = depth >= 2 && sibling == states[depth - 2];
                if sibling != *state && !back {
                    row(&mut text, "sibling", depth, length - depth + 2, &sibling);
                }
            }
            if self.cousins && depth >= 2 {
                let grandparent = &states[depth - 2];
                let uncles = Dir::ALL
                    .into_iter()
                    .filter_map(|dir| grandparent.slide(puzzle.board(), dir))
                    .filter(|uncle| uncle != parent && (depth < 3 || *uncle != states[depth - 3]));
                for uncle in uncles {
                    for dir in Dir::ALL {
                        let Some(cousin) = uncle.slide(puzzle.board(), dir) else {
                            continue;
                        };
                        if cousin != *state && cousin != *grandparent {
                            row(&mut text, "cousin", depth, length - depth + 4, &cousin);
                        }
                    }
                }
            }
        }
        self.paths += 1;
        self.out
            .write_all(text.as_bytes())
            .map_err(|source| CliError::Io {
                path: self.path.clone(),
                source,
            })
    }

    /// Flushes the rows; returns how many paths were written.
    pub fn finish(mut self) -> Result<u64, CliError> {
        self.out.flush().map_err(|source| CliError::Io {
            path: self.path.clone(),
            source,
        })?;
        Ok(self.paths)
    }
}
