//! Result rows: a table for people, JSON objects and CSV for programs.

use std::collections::HashSet;
use std::fs::File;
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
    /// What ran: the executor's name, or the method a domain chose
    /// within it (`cdcl`, `line-16`, `rank-gpu`).
    pub executor: String,
    /// The executor as the experiment planned the row, which `--resume`
    /// matches finished rows by; it differs from `executor` where the
    /// domain names its own method.
    pub planned: String,
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
    /// The grid parameters of this row (`heuristic=7-8 threads=4`), empty
    /// without a grid.
    pub params: String,
    /// Runs made of this row; the one reported has the median time.
    pub runs: usize,
    /// A value found (a score, a best total) where the job maximises or
    /// measures rather than finds a path.
    pub value: Option<f64>,
    /// The value stated by the input, checked.
    pub known_value: Option<f64>,
    /// A verdict (`unique`, `multiple`, `none`, `unknown`) where the job
    /// decides rather than finds a path.
    pub verdict: Option<String>,
    /// The verdict stated by the input, checked.
    pub known_verdict: Option<String>,
}

/// What identifies a row of an experiment: instance, planned executor,
/// parameters.
pub type RowKey = (String, String, String);

impl InstanceReport {
    /// An empty row of `domain`'s `instance` with `executor`, its known
    /// answers copied from the instance: a job fills in what it found.
    pub fn new(
        domain: &'static str,
        instance: &crate::registry::Instance,
        executor: &frontier_core::ExecutorConfig,
    ) -> InstanceReport {
        InstanceReport {
            domain,
            instance: instance.id.clone(),
            executor: executor.name(),
            planned: executor.name(),
            solved: false,
            status: String::new(),
            cost: None,
            known_cost: instance.known_cost,
            path: Vec::new(),
            stats: SearchStats::default(),
            params: String::new(),
            runs: 1,
            value: None,
            known_value: instance.known_value,
            verdict: None,
            known_verdict: instance.known_verdict.clone(),
        }
    }

    /// False when the input states an answer (optimal cost, value,
    /// verdict) and a different one came out. `unknown` (a search that
    /// stopped at a limit) contradicts nothing.
    pub fn agrees_with_known(&self) -> bool {
        let cost = match (self.cost, self.known_cost) {
            (Some(cost), Some(known)) => cost == known,
            _ => true,
        };
        let value = match (self.value, self.known_value) {
            (Some(value), Some(known)) => (value - known).abs() <= 1e-9 * known.abs().max(1.0),
            _ => true,
        };
        let verdict = match (&self.verdict, &self.known_verdict) {
            (Some(v), Some(known)) => v == "unknown" || v == known,
            _ => true,
        };
        cost && value && verdict
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

/// The column results files add after the table's: the planned executor,
/// so that `--resume` finds finished rows whatever they say ran.
const PLANNED_COLUMN: &str = "planned";

/// Extra columns shown when a parallel executor reported its overheads
/// (load: the busiest worker's expansions over the mean).
const OVERHEAD_COLUMNS: [&str; 4] = ["SO", "CO", "TO", "load"];

/// Which optional column groups a set of reports fills.
#[derive(Clone, Copy)]
struct Extras {
    /// Grid parameters.
    params: bool,
    overheads: bool,
    /// Device bytes per stored node (GPU executors).
    bytes_per_node: bool,
    /// Verdicts and values (jobs that decide or measure).
    answers: bool,
}

impl Extras {
    fn of(reports: &[InstanceReport]) -> Extras {
        Extras {
            params: reports.iter().any(|r| !r.params.is_empty()),
            overheads: reports
                .iter()
                .any(|r| r.stats.communication_overhead.is_some()),
            bytes_per_node: reports.iter().any(|r| r.stats.bytes_per_node.is_some()),
            answers: reports
                .iter()
                .any(|r| r.verdict.is_some() || r.value.is_some()),
        }
    }

    /// Every column, for files written a row at a time.
    const ALL: Extras = Extras {
        params: true,
        overheads: true,
        bytes_per_node: true,
        answers: true,
    };
}

fn cells(r: &InstanceReport, extras: Extras) -> Vec<String> {
    let opt = |c: Option<Cost>| c.map_or_else(|| "-".to_string(), |c| c.to_string());
    let ratio = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:.3}"));
    let mut row = vec![r.instance.clone(), r.executor.clone()];
    if extras.params {
        row.push(r.params.clone());
    }
    row.extend([
        r.status.clone(),
        opt(r.cost),
        opt(r.known_cost),
        r.stats.expanded.to_string(),
        r.stats.generated.to_string(),
        format!("{:.3}", r.stats.seconds),
        format!("{:.0}", r.stats.expansions_per_second),
    ]);
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
    if extras.answers {
        let text = |t: &Option<String>| t.clone().unwrap_or_else(|| "-".into());
        let number = |x: Option<f64>| {
            x.map_or_else(
                || "-".to_string(),
                |x| {
                    if x.fract() == 0.0 && x.abs() < 1e15 {
                        format!("{x:.0}")
                    } else {
                        format!("{x:.4}")
                    }
                },
            )
        };
        row.extend([
            text(&r.verdict),
            text(&r.known_verdict),
            number(r.value),
            number(r.known_value),
        ]);
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
    let (key, rest) = COLUMNS.split_at(2);
    let params: &[&str] = if extras.params { &["params"] } else { &[] };
    let answers: &[&str] = if extras.answers {
        &["verdict", "known verdict", "value", "known value"]
    } else {
        &[]
    };
    key.iter()
        .chain(params)
        .chain(rest)
        .chain(overheads)
        .chain(bytes)
        .chain(answers)
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
                if i < 3 + usize::from(extras.params) {
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

/// A results file written a row at a time (`.json`: JSON lines;
/// otherwise CSV with every column), so an interrupted experiment keeps
/// its finished rows and `--resume` can skip them.
pub struct Output {
    path: PathBuf,
    json: bool,
    file: File,
}

impl Output {
    /// Creates `path`, or with `resume` keeps its complete rows and returns
    /// their keys (a row cut off by an interruption is dropped).
    pub fn open(path: &Path, resume: bool) -> Result<(Output, HashSet<RowKey>), CliError> {
        let io = |source| CliError::Io {
            path: path.to_path_buf(),
            source,
        };
        let json = path.extension().is_some_and(|e| e == "json");
        let columns = csv_headers();
        let header = columns.join(",");
        let mut kept = String::new();
        let mut done = HashSet::new();
        if !json {
            kept = header.clone() + "\n";
        }
        if resume && path.exists() {
            let text = std::fs::read_to_string(path).map_err(io)?;
            let mut lines = text.lines();
            if !json && lines.next().is_some_and(|first| first != header) {
                return Err(CliError::Input(format!(
                    "{}: cannot resume: its columns are not this version's",
                    path.display()
                )));
            }
            // Only lines that end with a newline are complete.
            let complete = text.ends_with('\n');
            let lines: Vec<&str> = lines.collect();
            let count = lines.len();
            for (i, line) in lines.into_iter().enumerate() {
                if i + 1 == count && !complete {
                    break;
                }
                let key = row_key(line, json, columns.len()).map_err(|PlanlessRow| {
                    CliError::Input(format!(
                        "{}: cannot resume: its rows are not this version's (no `{PLANNED_COLUMN}` field)",
                        path.display()
                    ))
                })?;
                if let Some(key) = key {
                    done.insert(key);
                    kept += line;
                    kept.push('\n');
                }
            }
        }
        let mut tmp = path.to_path_buf();
        tmp.as_mut_os_string().push(".tmp");
        std::fs::write(&tmp, &kept).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io)?;
        Ok((
            Output {
                path: path.to_path_buf(),
                json,
                file,
            },
            done,
        ))
    }

    /// Appends one row and flushes it.
    pub fn write(&mut self, report: &InstanceReport) -> Result<(), CliError> {
        let line = if self.json {
            json_line(report)
        } else {
            let mut row: Vec<String> = cells(report, Extras::ALL)
                .iter()
                .map(|c| csv_field(c))
                .collect();
            row.push(csv_field(&report.planned));
            row.join(",")
        };
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.flush())
            .map_err(|source| CliError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

/// The key of a complete row of a results file (CSV rows have `columns`
/// fields), `None` for a line that is not one; a JSON row without its
/// planned executor is an error.
fn row_key(line: &str, json: bool, columns: usize) -> Result<Option<RowKey>, PlanlessRow> {
    if json {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            return Ok(None);
        };
        let field = |name: &str| value.get(name)?.as_str().map(str::to_string);
        if value.get("instance").is_some() && value.get(PLANNED_COLUMN).is_none() {
            return Err(PlanlessRow);
        }
        return Ok(field("instance")
            .zip(field(PLANNED_COLUMN))
            .zip(field("params"))
            .map(|((instance, planned), params)| (instance, planned, params)));
    }
    let fields = split_csv(line);
    let [instance, _executor, params, .., planned] = fields.as_slice() else {
        return Ok(None);
    };
    Ok((fields.len() == columns).then(|| (instance.clone(), planned.clone(), params.clone())))
}

/// A JSON row written before rows named their planned executor: it
/// cannot be matched to a plan.
struct PlanlessRow;

/// A results file's CSV columns: every column of the table, then the
/// planned executor.
fn csv_headers() -> Vec<String> {
    let mut all = headers(Extras::ALL);
    all.push(PLANNED_COLUMN.to_string());
    all
}

/// The fields of one CSV line as `csv_field` writes them.
pub(crate) fn split_csv(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                if let Some(f) = fields.last_mut() {
                    f.push('"');
                }
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            (c, _) => {
                if let Some(f) = fields.last_mut() {
                    f.push(c);
                }
            }
        }
    }
    fields
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_split_back_as_written() {
        let fields = ["plain", "with,comma", "with \"quote\"", "", "a=1 b=x"];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        assert_eq!(split_csv(&line.join(",")), fields);
    }
}
