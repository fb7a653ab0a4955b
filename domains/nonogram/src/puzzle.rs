//! Puzzles: clues, readers for `.nin` and `.non`, writers, and checking a
//! filled grid against the clues.

use std::fmt::Write;

use crate::NonogramError;

/// Largest side accepted.
pub const MAX_SIDE: usize = 4096;

/// A nonogram: a clue (run lengths, left to right / top to bottom) for every
/// row and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Row clues, top to bottom; an empty clue is an empty row.
    pub rows: Vec<Vec<u32>>,
    /// Column clues, left to right.
    pub cols: Vec<Vec<u32>>,
}

fn error(line: usize, message: impl Into<String>) -> NonogramError {
    NonogramError::Parse {
        line,
        message: message.into(),
    }
}

/// Parses one clue: numbers separated by spaces or commas; `0` or nothing
/// means an empty line.
fn parse_clue(text: &str, line: usize) -> Result<Vec<u32>, NonogramError> {
    let mut clue = Vec::new();
    for token in text.split([' ', ',', '\t']).filter(|t| !t.is_empty()) {
        let n: u32 = token
            .parse()
            .map_err(|_| error(line, format!("'{token}' is not a run length")))?;
        if n > MAX_SIDE as u32 {
            return Err(error(
                line,
                format!("run length {n} is larger than any board"),
            ));
        }
        clue.push(n);
    }
    if clue.contains(&0) {
        if clue.len() == 1 {
            clue.clear();
        } else {
            return Err(error(line, "a run of length 0 among other runs"));
        }
    }
    Ok(clue)
}

impl Puzzle {
    /// Builds a puzzle from clues and checks it.
    pub fn new(rows: Vec<Vec<u32>>, cols: Vec<Vec<u32>>) -> Result<Puzzle, NonogramError> {
        let puzzle = Puzzle {
            width: cols.len(),
            height: rows.len(),
            rows,
            cols,
        };
        puzzle.check(&|kind, i| error(0, format!("{kind} {}", i + 1)))?;
        Ok(puzzle)
    }

    /// Checks sizes, clue lengths and totals; `at(kind, index)` names where.
    fn check(&self, at: &dyn Fn(&str, usize) -> NonogramError) -> Result<(), NonogramError> {
        let named = |kind: &str, i: usize, message: String| match at(kind, i) {
            NonogramError::Parse { line, message: m } => NonogramError::Parse {
                line,
                message: format!("{m}: {message}"),
            },
            other => other,
        };
        if self.width == 0 || self.height == 0 || self.width > MAX_SIDE || self.height > MAX_SIDE {
            return Err(error(
                0,
                format!(
                    "a {}x{} puzzle is not supported (1 to {MAX_SIDE} per side)",
                    self.width, self.height
                ),
            ));
        }
        for (kind, clues, length) in [
            ("row", &self.rows, self.width),
            ("column", &self.cols, self.height),
        ] {
            for (i, clue) in clues.iter().enumerate() {
                let need =
                    clue.iter().map(|&n| n as usize).sum::<usize>() + clue.len().saturating_sub(1);
                if need > length {
                    return Err(named(
                        kind,
                        i,
                        format!(
                            "clue {} needs {need} cells but the line has {length}",
                            show(clue)
                        ),
                    ));
                }
            }
        }
        let filled_rows: u64 = self.rows.iter().flatten().map(|&n| u64::from(n)).sum();
        let filled_cols: u64 = self.cols.iter().flatten().map(|&n| u64::from(n)).sum();
        if filled_rows != filled_cols {
            return Err(error(
                0,
                format!("row clues fill {filled_rows} cells but column clues fill {filled_cols}"),
            ));
        }
        Ok(())
    }

    /// Reads the `.nin` format: `width height`, then one line per row clue,
    /// then one per column clue; `#` comments and blank lines are skipped
    /// (a blank line is not an empty clue: write `0`).
    pub fn parse_nin(text: &str) -> Result<Puzzle, NonogramError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let (first, header) = lines.next().ok_or_else(|| error(1, "empty file"))?;
        let dims: Vec<&str> = header.split_whitespace().collect();
        let size = |t: &str| {
            t.parse::<usize>().map_err(|_| {
                error(
                    first,
                    format!("'{t}' is not a size; the first line is 'width height'"),
                )
            })
        };
        let (width, height) = match dims.as_slice() {
            [w, h] => (size(w)?, size(h)?),
            _ => return Err(error(first, "the first line must be 'width height'")),
        };
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(error(
                first,
                format!("a {width}x{height} puzzle is not supported"),
            ));
        }
        let mut numbers = Vec::with_capacity(height + width);
        let mut where_ = Vec::with_capacity(height + width);
        for (line, text) in lines {
            numbers.push(parse_clue(text, line)?);
            where_.push(line);
        }
        if numbers.len() != height + width {
            let last = where_.last().copied().unwrap_or(first);
            return Err(error(
                last,
                format!(
                    "expected {height} row clues and {width} column clues ({} lines), found {}",
                    height + width,
                    numbers.len()
                ),
            ));
        }
        let cols = numbers.split_off(height);
        let puzzle = Puzzle {
            width,
            height,
            rows: numbers,
            cols,
        };
        puzzle.check(&|kind, i| {
            let line = if kind == "row" {
                where_[i]
            } else {
                where_[height + i]
            };
            error(line, format!("{kind} {}", i + 1))
        })?;
        Ok(puzzle)
    }

    /// Reads Steve Simpson's `.non` format: keyword lines (`width`, `height`,
    /// `rows`, `columns`; others such as `title` or `goal` are ignored), the
    /// clues after `rows` and `columns` one per line, comma-separated.
    pub fn parse_non(text: &str) -> Result<Puzzle, NonogramError> {
        let (mut width, mut height) = (None, None);
        let mut rows: Vec<(usize, Vec<u32>)> = Vec::new();
        let mut cols: Vec<(usize, Vec<u32>)> = Vec::new();
        #[derive(PartialEq)]
        enum Section {
            Keywords,
            Rows,
            Cols,
        }
        let mut section = Section::Keywords;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let text = raw.trim();
            if text.starts_with('#') {
                continue;
            }
            let starts_with_digit = text.chars().next().is_some_and(|c| c.is_ascii_digit());
            if section != Section::Keywords && (starts_with_digit || text.is_empty()) {
                let target = if section == Section::Rows {
                    &mut rows
                } else {
                    &mut cols
                };
                let expected = if section == Section::Rows {
                    height
                } else {
                    width
                };
                // A blank line inside a section is an empty clue only while
                // the section still expects clues.
                if text.is_empty() && expected.is_some_and(|n| target.len() >= n) {
                    continue;
                }
                target.push((line, parse_clue(text, line)?));
                continue;
            }
            if text.is_empty() {
                continue;
            }
            let (keyword, value) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
            let number = || {
                value.trim().parse::<usize>().map_err(|_| {
                    error(
                        line,
                        format!("'{}' after {keyword} is not a number", value.trim()),
                    )
                })
            };
            match keyword.to_ascii_lowercase().as_str() {
                "width" => width = Some(number()?),
                "height" => height = Some(number()?),
                "rows" => section = Section::Rows,
                "columns" => section = Section::Cols,
                _ => section = Section::Keywords,
            }
        }
        let width = width.ok_or_else(|| error(0, "no 'width' line"))?;
        let height = height.ok_or_else(|| error(0, "no 'height' line"))?;
        for (name, got, want) in [("rows", &rows, height), ("columns", &cols, width)] {
            if got.len() != want {
                let line = got.last().map_or(0, |c| c.0);
                return Err(error(
                    line,
                    format!("expected {want} clues under '{name}', found {}", got.len()),
                ));
            }
        }
        let puzzle = Puzzle {
            width,
            height,
            rows: rows.iter().map(|r| r.1.clone()).collect(),
            cols: cols.iter().map(|c| c.1.clone()).collect(),
        };
        puzzle.check(&|kind, i| {
            let line = if kind == "row" { rows[i].0 } else { cols[i].0 };
            error(line, format!("{kind} {}", i + 1))
        })?;
        Ok(puzzle)
    }

    /// Parses by content: `.non` if it has a `width` keyword, else `.nin`.
    pub fn parse(text: &str) -> Result<Puzzle, NonogramError> {
        // `.nin` starts with two numbers; `.non` with keywords.
        let keyworded = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .is_some_and(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()));
        if keyworded {
            Puzzle::parse_non(text)
        } else {
            Puzzle::parse_nin(text)
        }
    }

    /// Writes the `.nin` format.
    pub fn to_nin(&self) -> String {
        let mut out = format!("{} {}\n", self.width, self.height);
        for clue in self.rows.iter().chain(&self.cols) {
            let _ = writeln!(out, "{}", show(clue).replace(',', " "));
        }
        out
    }

    /// Writes the `.non` format.
    pub fn to_non(&self) -> String {
        let mut out = format!("width {}\nheight {}\n\nrows\n", self.width, self.height);
        for clue in &self.rows {
            let _ = writeln!(out, "{}", show(clue));
        }
        out.push_str("\ncolumns\n");
        for clue in &self.cols {
            let _ = writeln!(out, "{}", show(clue));
        }
        out
    }

    /// The clues of a filled grid (`true` = filled), row-major.
    pub fn from_grid(
        width: usize,
        height: usize,
        filled: &[bool],
    ) -> Result<Puzzle, NonogramError> {
        let runs = |cells: &mut dyn Iterator<Item = bool>| {
            let mut clue = Vec::new();
            let mut run = 0;
            for c in cells {
                if c {
                    run += 1;
                } else if run > 0 {
                    clue.push(run);
                    run = 0;
                }
            }
            if run > 0 {
                clue.push(run);
            }
            clue
        };
        if filled.len() != width * height {
            return Err(error(
                0,
                format!("a {width}x{height} grid needs {} cells", width * height),
            ));
        }
        let rows = (0..height)
            .map(|r| runs(&mut (0..width).map(|c| filled[r * width + c])))
            .collect();
        let cols = (0..width)
            .map(|c| runs(&mut (0..height).map(|r| filled[r * width + c])))
            .collect();
        Puzzle::new(rows, cols)
    }

    /// Line `line` of the grid, rows first (row `r` is line `r`, column
    /// `c` line `height + c`): its clue, its first cell, the step between
    /// its cells and its length.
    pub fn line(&self, line: usize) -> (&[u32], usize, usize, usize) {
        let (w, h) = (self.width, self.height);
        if line < h {
            (&self.rows[line], line * w, 1, w)
        } else {
            (&self.cols[line - h], line - h, w, h)
        }
    }

    /// Whether a filled grid (row-major, `true` = filled) satisfies every clue.
    pub fn accepts(&self, filled: &[bool]) -> bool {
        Puzzle::from_grid(self.width, self.height, filled)
            .is_ok_and(|p| p.rows == self.rows && p.cols == self.cols)
    }
}

/// A clue as text: `3,1`, or `0` for an empty line.
pub fn show(clue: &[u32]) -> String {
    if clue.is_empty() {
        "0".into()
    } else {
        clue.iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}
