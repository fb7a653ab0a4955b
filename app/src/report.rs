//! Result rows: a table for people, JSON objects and CSV for programs.

use std::io::Write;

use frontier_core::{Cost, SearchStats};
use serde::Serialize;

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
    /// The instance as solved, so that a resumed run can tell an edited
    /// instance from the one a kept row answers.
    pub instance_text: String,
    /// The weight on h (`1.5`, `greedy`) where the row ran beyond A\*.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight: Option<String>,
    /// The proven lower bound on the optimal cost, where the search need
    /// not prove the optimum (weighted, anytime, beam), or where A\*,
    /// HDA\* or IDA\* stopped at a limit before any solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<Cost>,
}

impl InstanceReport {
    /// The solution's cost over the proven lower bound: at most the
    /// weight, 1 where the optimum is proven. `None` for A\*'s rows.
    pub fn bound(&self) -> Option<f64> {
        match (self.cost, self.lower_bound) {
            (Some(cost), Some(lower)) if lower > 0 => Some(f64::from(cost) / f64::from(lower)),
            (Some(0), Some(0)) => Some(1.0),
            _ => None,
        }
    }
}

/// What identifies a row of an experiment: instance, planned executor,
/// parameters.
pub type RowKey = (String, String, String);

impl InstanceReport {
    /// An empty row of `domain`'s `instance` with `executor`, its known
    /// answers copied from the instance: a job fills in what it found.
    pub fn new(
        domain: &'static str,
        instance: &crate::plugin::Instance,
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
            instance_text: instance.text.clone(),
            weight: None,
            lower_bound: None,
        }
    }

    /// False when the input states an answer (optimal cost, value,
    /// verdict) and a different one came out. `unknown` (a search that
    /// stopped at a limit) contradicts nothing.
    pub fn agrees_with_known(&self) -> bool {
        answers_agree(
            (self.cost, self.lower_bound, self.value, &self.verdict),
            (self.known_cost, self.known_value, &self.known_verdict),
            0.0,
        )
    }
}

/// An answer (cost, its proven lower bound where it is not proven optimal,
/// value, verdict) and the one the input states: false where both give a
/// part and they differ; a cost with a lower bound agrees with a stated
/// optimum between the two. Values may differ by
/// `value_tolerance` (a file's rounding) or a relative 1e-9; `unknown` (a
/// search stopped at a limit) contradicts no verdict. Fresh rows and rows
/// kept by `--resume` are judged by this one rule.
pub(crate) fn answers_agree(
    (cost, lower, value, verdict): (Option<Cost>, Option<Cost>, Option<f64>, &Option<String>),
    (known_cost, known_value, known_verdict): (Option<Cost>, Option<f64>, &Option<String>),
    value_tolerance: f64,
) -> bool {
    let cost = match (cost, lower, known_cost) {
        (Some(cost), _, Some(known)) => (lower.unwrap_or(cost)..=cost).contains(&known),
        // A search stopped by a limit that proved more than the known
        // optimum: the proof or the known answer is wrong.
        (None, Some(lower), Some(known)) => lower <= known,
        _ => true,
    };
    let value = match (value, known_value) {
        (Some(value), Some(known)) => {
            (value - known).abs() <= value_tolerance.max(1e-9 * known.abs().max(1.0))
        }
        _ => true,
    };
    let verdict = match (verdict, known_verdict) {
        (Some(v), Some(known)) => v == "unknown" || v == known,
        _ => true,
    };
    cost && value && verdict
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

/// The planned executor's column in results files.
pub(crate) const PLANNED_COLUMN: &str = "planned";

/// The instance text's column in results files.
pub(crate) const TEXT_COLUMN: &str = "instance_text";

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
    /// Weight, lower bound and cost over it (searches beyond A\*).
    bounds: bool,
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
            bounds: reports
                .iter()
                .any(|r| r.weight.is_some() || r.lower_bound.is_some()),
        }
    }

    /// Every column, for files written a row at a time.
    const ALL: Extras = Extras {
        params: true,
        overheads: true,
        bytes_per_node: true,
        answers: true,
        bounds: true,
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
    if extras.bounds {
        row.push(r.weight.clone().unwrap_or_else(|| "-".into()));
        row.push(opt(r.lower_bound));
        row.push(ratio(r.bound()));
    }
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
    let bounds: &[&str] = if extras.bounds {
        &["weight", "lower", "bound"]
    } else {
        &[]
    };
    let answers: &[&str] = if extras.answers {
        &["verdict", "known verdict", "value", "known value"]
    } else {
        &[]
    };
    key.iter()
        .chain(params)
        .chain(rest)
        .chain(bounds)
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

/// The columns results files add after the table's: the planned
/// executor, so that `--resume` finds finished rows whatever they say ran,
/// and the instance's text, compared with the config's on resume.
pub(crate) fn csv_headers() -> Vec<String> {
    let mut all = headers(Extras::ALL);
    all.push(PLANNED_COLUMN.to_string());
    all.push(TEXT_COLUMN.to_string());
    all
}

/// One CSV row of a results file, in [`csv_headers`]' order.
pub(crate) fn csv_row(report: &InstanceReport) -> String {
    let mut row: Vec<String> = cells(report, Extras::ALL)
        .iter()
        .map(|c| csv_field(c))
        .collect();
    row.push(csv_field(&report.planned));
    row.push(csv_field(&one_line(&report.instance_text)));
    row.join(",")
}

/// `text` on one line (a CSV row is one line): `\` and line breaks
/// written as `\\`, `\n` and `\r`; [`from_one_line`] reads it back.
pub(crate) fn one_line(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

/// The text [`one_line`] wrote.
pub(crate) fn from_one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
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

pub(crate) fn csv_field(s: &str) -> String {
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
    fn multi_line_text_is_one_line_in_csv_and_reads_back() {
        for text in ["plain", "two\nlines\r\n", "back\\slash\\n", "\\", ""] {
            let line = one_line(text);
            assert!(!line.contains('\n') && !line.contains('\r'), "{line:?}");
            assert_eq!(from_one_line(&line), text);
        }
    }

    #[test]
    fn a_cut_search_disagrees_only_when_its_bound_passes_the_known_optimum() {
        let known = (Some(57), None, &None);
        let cut = |lower| answers_agree((None, lower, None, &None), known, 0.0);
        assert!(cut(None));
        assert!(cut(Some(50)));
        assert!(cut(Some(57)));
        assert!(!cut(Some(59)));
        let solved = |cost, lower| answers_agree((Some(cost), lower, None, &None), known, 0.0);
        assert!(solved(57, None));
        assert!(!solved(59, None));
        assert!(solved(59, Some(55)));
        assert!(!solved(59, Some(58)));
    }

    #[test]
    fn csv_fields_split_back_as_written() {
        let fields = ["plain", "with,comma", "with \"quote\"", "", "a=1 b=x"];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        assert_eq!(split_csv(&line.join(",")), fields);
    }
}
