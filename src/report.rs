//! Result rows: a table for people, JSON objects and CSV for programs.

use std::io::Write;
use std::path::{Path, PathBuf};

use frontier_core::{Cost, SearchStats};
use serde::Serialize;

use crate::CliError;

/// One solved (or not) instance with one executor.
#[derive(Clone, Debug, Serialize)]
pub struct InstanceReport {
    /// Domain name.
    pub domain: &'static str,
    /// Instance id.
    pub instance: String,
    /// Executor name.
    pub executor: String,
    /// Whether a solution was found.
    pub solved: bool,
    /// `optimal`, `no solution`, or the limit that stopped the search.
    pub status: String,
    /// Solution cost.
    pub cost: Option<Cost>,
    /// Optimal cost stated by the input, when it states one.
    pub known_cost: Option<Cost>,
    /// The moves of the solution.
    pub path: Vec<String>,
    /// Search statistics.
    pub stats: SearchStats,
}

impl InstanceReport {
    /// False when the input states an optimum and a different cost came out.
    pub fn agrees_with_known_cost(&self) -> bool {
        match (self.cost, self.known_cost) {
            (Some(cost), Some(known)) => cost == known,
            _ => true,
        }
    }
}

/// Column headers of the human table and of CSV files.
const COLUMNS: [&str; 9] = [
    "instance",
    "executor",
    "status",
    "cost",
    "known",
    "expanded",
    "generated",
    "seconds",
    "exp/s",
];

/// Extra columns shown when a parallel executor reported its overheads
/// (load: the busiest worker's expansions over the mean).
const OVERHEAD_COLUMNS: [&str; 4] = ["SO", "CO", "TO", "load"];

/// Which optional column groups a set of reports fills.
#[derive(Clone, Copy)]
struct Extras {
    overheads: bool,
    /// Device bytes per stored node (GPU executors).
    bytes_per_node: bool,
}

impl Extras {
    fn of(reports: &[InstanceReport]) -> Extras {
        Extras {
            overheads: reports
                .iter()
                .any(|r| r.stats.communication_overhead.is_some()),
            bytes_per_node: reports.iter().any(|r| r.stats.bytes_per_node.is_some()),
        }
    }
}

fn cells(r: &InstanceReport, extras: Extras) -> Vec<String> {
    let opt = |c: Option<Cost>| c.map_or_else(|| "-".to_string(), |c| c.to_string());
    let ratio = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:.3}"));
    let mut row = vec![
        r.instance.clone(),
        r.executor.clone(),
        r.status.clone(),
        opt(r.cost),
        opt(r.known_cost),
        r.stats.expanded.to_string(),
        r.stats.generated.to_string(),
        format!("{:.3}", r.stats.seconds),
        format!("{:.0}", r.stats.expansions_per_second),
    ];
    if extras.overheads {
        row.push(ratio(r.stats.search_overhead));
        row.push(ratio(r.stats.communication_overhead));
        row.push(ratio(r.stats.termination_overhead));
        row.push(ratio(r.stats.load_balance));
    }
    if extras.bytes_per_node {
        row.push(
            r.stats
                .bytes_per_node
                .map_or_else(|| "-".to_string(), |b| format!("{b:.1}")),
        );
    }
    row
}

fn headers(extras: Extras) -> Vec<String> {
    let overheads: &[&str] = if extras.overheads {
        &OVERHEAD_COLUMNS
    } else {
        &[]
    };
    let bytes: &[&str] = if extras.bytes_per_node {
        &["B/node"]
    } else {
        &[]
    };
    COLUMNS
        .iter()
        .chain(overheads)
        .chain(bytes)
        .map(|c| c.to_string())
        .collect()
}

/// Prints reports as an aligned table with a totals line.
pub fn print_table(reports: &[InstanceReport], out: &mut impl Write) -> std::io::Result<()> {
    let extras = Extras::of(reports);
    let header = headers(extras);
    let rows: Vec<Vec<String>> = reports.iter().map(|r| cells(r, extras)).collect();
    let mut widths: Vec<usize> = header.iter().map(String::len).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let line = |cells: &[String]| {
        cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, &w))| {
                if i < 3 {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    writeln!(out, "{}", line(&header))?;
    for row in &rows {
        writeln!(out, "{}", line(row))?;
    }
    if reports.len() > 1 {
        let solved = reports.iter().filter(|r| r.solved).count();
        let expanded: u64 = reports.iter().map(|r| r.stats.expanded).sum();
        let seconds: f64 = reports.iter().map(|r| r.stats.seconds).sum();
        writeln!(
            out,
            "{solved}/{} solved, {expanded} expanded in {seconds:.3} s ({:.0} exp/s)",
            reports.len(),
            if seconds > 0.0 {
                expanded as f64 / seconds
            } else {
                0.0
            }
        )?;
    }
    Ok(())
}

/// One JSON object on one line.
pub fn json_line(report: &InstanceReport) -> String {
    // Serialising plain data with string keys cannot fail.
    serde_json::to_string(report).unwrap_or_default()
}

/// Writes reports to `path` (`.json`: JSON lines; otherwise CSV) through a
/// temporary file, so a failure never leaves a half-written result.
pub fn write_output(path: &Path, reports: &[InstanceReport]) -> Result<(), CliError> {
    let io = |source| CliError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut text = String::new();
    if path.extension().is_some_and(|e| e == "json") {
        for r in reports {
            text += &json_line(r);
            text.push('\n');
        }
    } else {
        let extras = Extras::of(reports);
        text += &headers(extras).join(",");
        text.push('\n');
        for r in reports {
            let row: Vec<String> = cells(r, extras).iter().map(|c| csv_field(c)).collect();
            text += &row.join(",");
            text.push('\n');
        }
    }
    let mut tmp = PathBuf::from(path);
    tmp.as_mut_os_string().push(".tmp");
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
