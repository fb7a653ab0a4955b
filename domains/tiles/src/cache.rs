//! Pattern databases on disk: a header that names the pattern, the table,
//! and a checksum. A file that is short, corrupt or for another pattern is
//! reported and rebuilt, never trusted.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::board::Board;
use crate::pdb::{build, placements, BuildProgress, Pattern, PatternDb, MAX_ENTRIES};
use crate::TilesError;

const MAGIC: &[u8; 8] = b"FRTPDB01";

/// The default cache directory: `pdb` under frontier's cache directory
/// ([`frontier_core::cache_dir`]).
pub fn default_dir() -> PathBuf {
    frontier_core::cache_dir("pdb")
}

/// File name that identifies board shape, blank and pattern goal cells.
fn file_name(board: &Board, pattern: &Pattern) -> String {
    let cells: Vec<String> = pattern.goal_cells.iter().map(u8::to_string).collect();
    format!(
        "tiles-{}x{}-b{}-{}.pdb",
        board.rows(),
        board.cols(),
        pattern.blank_goal,
        cells.join(".")
    )
}

fn header(board: &Board, pattern: &Pattern, entries: u64) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend([
        board.rows(),
        board.cols(),
        pattern.blank_goal,
        pattern.goal_cells.len() as u8,
    ]);
    h.extend(&pattern.goal_cells);
    h.extend(entries.to_le_bytes());
    h
}

/// A 64-bit checksum over 8-byte words (multiply–rotate), fast enough to
/// verify half a gigabyte in well under a second.
pub fn checksum(data: &[u8]) -> u64 {
    let mut h: u64 = 0x5851_F42D_4C95_7F2D ^ data.len() as u64;
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        // chunks_exact yields 8-byte slices.
        let v = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        h = (h ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    h ^ (h >> 32)
}

/// Why a cached file was not used.
fn read_valid(
    path: &Path,
    board: &Board,
    pattern: &Pattern,
    entries: u64,
) -> Result<Vec<u8>, String> {
    let io = |e: std::io::Error| e.to_string();
    let mut file = std::fs::File::open(path).map_err(io)?;
    let head = header(board, pattern, entries);
    let expected_len = head.len() as u64 + entries + 8;
    let len = file.metadata().map_err(io)?.len();
    if len != expected_len {
        return Err(format!("{len} bytes, expected {expected_len}"));
    }
    let mut stored_head = vec![0; head.len()];
    file.read_exact(&mut stored_head).map_err(io)?;
    if stored_head != head {
        return Err("header names another pattern or board".into());
    }
    // Read straight into the table's own (huge-page) memory: a table of
    // hundreds of megabytes read whole and then copied took twice the
    // pages, each zeroed by the system first.
    let mut table = crate::pdb::huge_with_capacity(entries as usize);
    (&mut file)
        .take(entries)
        .read_to_end(&mut table)
        .map_err(io)?;
    if table.len() as u64 != entries {
        return Err("truncated table".into());
    }
    let mut sum = [0; 8];
    file.read_exact(&mut sum)
        .map_err(|_| "truncated checksum")?;
    if u64::from_le_bytes(sum) != checksum(&table) {
        return Err("checksum mismatch".into());
    }
    Ok(table)
}

/// Loads the database of `pattern` from `dir`, or builds it with `threads`
/// workers and writes it there (through a temporary file and a rename).
pub fn load_or_build(
    board: &Board,
    pattern: &Pattern,
    dir: &Path,
    threads: usize,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<PatternDb, TilesError> {
    let n = board.cells();
    let entries = placements(n, pattern.tiles.len());
    if entries > MAX_ENTRIES {
        return Err(TilesError::PatternTooLarge {
            tiles: pattern.tiles.len(),
            entries,
        });
    }
    let path = dir.join(file_name(board, pattern));
    let table = match read_valid(&path, board, pattern, entries) {
        Ok(table) => {
            tracing::info!(path = %path.display(), "pattern database loaded");
            table
        }
        Err(why) => {
            if path.exists() {
                tracing::warn!(path = %path.display(), "cached pattern database rejected ({why}); rebuilding");
            }
            let started = std::time::Instant::now();
            let table = build(board, pattern, threads, progress);
            tracing::info!(tiles = ?pattern.tiles, seconds = started.elapsed().as_secs_f64(), "pattern database built");
            // A cache that cannot be written costs the next run a rebuild,
            // not this run its answer: say so once and search on.
            if let Err(e) = write(&path, board, pattern, &table) {
                tracing::warn!("pattern database not cached ({e}); searching without the cache");
            }
            table
        }
    };
    PatternDb::new(pattern.clone(), n, table).ok_or(TilesError::Internal(
        "table size does not match the pattern",
    ))
}

fn write(path: &Path, board: &Board, pattern: &Pattern, table: &[u8]) -> Result<(), TilesError> {
    let io = |source| TilesError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    // Streamed, not built in memory for `files::write_atomic`: a table can
    // be hundreds of megabytes.
    let tmp = frontier_core::files::temporary_beside(path);
    let written = (|| -> std::io::Result<()> {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        file.write_all(&header(board, pattern, table.len() as u64))?;
        file.write_all(table)?;
        file.write_all(&checksum(table).to_le_bytes())?;
        file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        // A full disk leaves no partial temporary file behind.
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(io)
}
