//! Results files that know their experiment: a first line naming what
//! decides the answers (domain, its parameters, limits), rows that carry
//! their instance's text, an advisory lock for the one process that writes,
//! and `--resume` that keeps only rows it can vouch for.
//!
//! A row is written and flushed as soon as it exists, so an interrupted
//! run keeps its finished rows; only a last line cut off mid-write (no
//! newline) is dropped on resume, with a warning. Any other line that is
//! not a row stops the resume with its line number: nothing is deleted
//! silently.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use frontier_core::search::Limit;
use frontier_core::Cost;

use crate::report::{csv_headers, csv_row, json_line, split_csv, InstanceReport, RowKey};
use crate::report::{PLANNED_COLUMN, TEXT_COLUMN};
use crate::CliError;

/// The version of the results format (its first line and columns).
const FORMAT: u64 = 2;

/// What `run` may do with an existing results file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Refuse it: a run never wipes rows unasked.
    Refuse,
    /// Keep its rows and run only the others (`--resume`).
    Resume,
    /// As `Resume`, but rows a limit cut are run again
    /// (`--resume --retry-cut`); each stays in the file until its new row
    /// replaces it, so a retry that is killed, or that runs only some of
    /// them, loses none.
    RetryCut,
    /// Replace it (`--overwrite`).
    Overwrite,
}

/// The fingerprint's field for the run's limits, which `--retry-cut` may
/// change.
pub const LIMITS_KEY: &str = "limits";

/// What the experiment is, as the results file's first line records it:
/// `(field, value)` pairs compared one by one on resume.
pub type Fingerprint = Vec<(String, String)>;

/// A row kept from an earlier run, with what it answered.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptRow {
    /// Where it is: `file:line`.
    pub at: String,
    /// The instance text it answered.
    pub text: String,
    /// The cost it found.
    pub cost: Option<Cost>,
    /// The proven lower bound on the optimum, where the row's search need
    /// not prove it (weighted, anytime, beam).
    pub lower_bound: Option<Cost>,
    /// The value it found.
    pub value: Option<f64>,
    /// The verdict it gave.
    pub verdict: Option<String>,
    /// How far `value` may be from the exact one: CSV cells round values
    /// to four places, JSON keeps them whole.
    pub value_tolerance: f64,
    /// Whether a limit stopped its search (its status names a [`Limit`]).
    pub cut: bool,
    /// Its line in the file, from 1.
    pub line: usize,
}

/// Whether a results file's name says JSON lines (`.json` or `.jsonl`, the
/// two names they go by, in any case); any other name reads as CSV.
pub fn named_json_lines(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("jsonl"))
}

/// `path` when its name says the format a run writes (`.csv`, or `.json`
/// or `.jsonl` for JSON lines), or why not: a run would otherwise write
/// CSV into `results.tsv` or `results.txt`, which is not what those names
/// promise.
pub fn check_output_name(path: &Path) -> Result<(), CliError> {
    let csv = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if csv || named_json_lines(path) {
        Ok(())
    } else {
        Err(CliError::Input(format!(
            "{}: name a results file .csv, or .json or .jsonl for JSON lines (the name says which it is written as)",
            path.display()
        )))
    }
}

/// The status of a row whose search a limit stopped with its best
/// solution so far (anytime, weighted HDA\*, IDA\* below a beam), not
/// proven optimal: `bounded (time limit)`.
pub fn bounded_at(limit: Limit) -> String {
    format!("bounded ({limit})")
}

/// Whether a row's status says a limit stopped its search, with no
/// solution or with a bounded one.
fn is_cut(status: &str) -> bool {
    [Limit::Expansions, Limit::Memory, Limit::Time]
        .into_iter()
        .any(|limit| limit.to_string() == status || bounded_at(limit) == status)
}

impl KeptRow {
    /// Why this row cannot stand for `instance` (an edited instance, or an
    /// answer that contradicts a known one), or `None`.
    pub fn conflict(&self, instance: &crate::plugin::Instance) -> Option<String> {
        let at = &self.at;
        if self.text != instance.text {
            return Some(format!(
                "{at}: instance {} was '{}' when this row was written and is '{}' now; rerun without --resume (--overwrite) or write elsewhere",
                instance.id, self.text, instance.text
            ));
        }
        let agree = crate::report::answers_agree(
            (self.cost, self.lower_bound, self.value, &self.verdict),
            (
                instance.known_cost,
                instance.known_value,
                &instance.known_verdict,
            ),
            self.value_tolerance,
        );
        (!agree).then(|| {
            format!(
                "{at}: instance {} has {} in this row, which contradicts the known {}; rerun it (--overwrite)",
                instance.id,
                describe(self.cost, self.value, &self.verdict),
                describe(instance.known_cost, instance.known_value, &instance.known_verdict)
            )
        })
    }
}

fn describe(cost: Option<Cost>, value: Option<f64>, verdict: &Option<String>) -> String {
    let mut parts = Vec::new();
    if let Some(c) = cost {
        parts.push(format!("cost {c}"));
    }
    if let Some(v) = value {
        parts.push(format!("value {v}"));
    }
    if let Some(v) = verdict {
        parts.push(format!("verdict {v}"));
    }
    if parts.is_empty() {
        "no answer".into()
    } else {
        parts.join(", ")
    }
}

/// A results file written a row at a time (`.json`: JSON lines;
/// otherwise CSV with every column), locked while this process writes it.
pub struct Output {
    path: PathBuf,
    json: bool,
    /// Holds the advisory lock as long as it is open.
    file: File,
    /// The lines of the cut rows that `--retry-cut` runs again, by key: each
    /// is taken out of the file when its new row is written.
    retried: HashMap<RowKey, String>,
}

impl Output {
    /// Opens `path` for this experiment's rows. A file another run holds is
    /// refused at once. An existing file is refused, resumed or replaced as
    /// `existing` says; a resumed one must record the same fingerprint and
    /// columns, and its complete rows are returned by key.
    pub fn open(
        path: &Path,
        existing: Existing,
        fingerprint: &Fingerprint,
    ) -> Result<(Output, HashMap<RowKey, KeptRow>), CliError> {
        let io = |source| CliError::Io {
            path: path.to_path_buf(),
            source,
        };
        check_output_name(path)?;
        let json = named_json_lines(path);
        let (mut file, text) = open_locked(
            path,
            "another frontier run is writing this file; wait for it or pass another --output",
        )?;
        let first = first_line(fingerprint, json);
        let mut kept = HashMap::new();
        let mut retried = HashMap::new();
        // A file of this experiment that holds no row yet (a run that
        // stopped before its first) is no results to protect.
        let no_rows = || matches!(read_rows(path, &text, json, fingerprint, false), Ok((rows, _)) if rows.is_empty());
        let keep_to = if text.is_empty() || existing == Existing::Overwrite {
            None
        } else if existing == Existing::Refuse && !no_rows() {
            return Err(CliError::Input(format!(
                "{} already holds results: pass --resume to keep them and run the rest, or --overwrite to replace them",
                path.display()
            )));
        } else if existing == Existing::Refuse {
            None
        } else {
            let retry = existing == Existing::RetryCut;
            let (rows, length) = read_rows(path, &text, json, fingerprint, retry)?;
            let (rows, length) = if retry {
                // The first line records the limits the rows are now run
                // under; the cut rows stay until their new rows replace them.
                let new_text = with_first_line(&text[..length], &first, json);
                if new_text != text[..length] {
                    file = replace_locked(path, &new_text)?;
                }
                // Read back, so that rows name their lines in the new file
                // (whose whole text is kept: cutting it to its length below
                // changes nothing).
                let (rows, length) = read_rows(path, &new_text, json, fingerprint, false)?;
                let lines: Vec<&str> = new_text.split_inclusive('\n').collect();
                let rows = rows
                    .into_iter()
                    .filter_map(|(key, row)| {
                        if !row.cut {
                            return Some((key, row));
                        }
                        // `read_rows` numbers the lines of this same text from 1.
                        let line = lines.get(row.line - 1).copied().unwrap_or_default();
                        retried.insert(key, line.to_string());
                        None
                    })
                    .collect();
                if !retried.is_empty() {
                    tracing::warn!(
                        rows = retried.len(),
                        "rows a limit cut are run again (each stays until its new row replaces it)"
                    );
                }
                (rows, length)
            } else {
                (rows, length)
            };
            kept = rows;
            Some(length)
        };
        match keep_to {
            // The file is open for appending: after the cut, every write
            // lands at its new end.
            Some(length) => file.set_len(length as u64).map_err(io)?,
            None => {
                file.set_len(0).map_err(io)?;
                file.write_all(first.as_bytes()).map_err(io)?;
                file.flush().map_err(io)?;
            }
        }
        Ok((
            Output {
                path: path.to_path_buf(),
                json,
                file,
                retried,
            },
            kept,
        ))
    }

    /// Appends one row and flushes it. A row that `--retry-cut` ran again
    /// replaces its cut row instead: the file is rewritten without that
    /// line and with the new row at its end, renamed over the old one, so
    /// a crash leaves one whole file or the other.
    pub fn write(&mut self, report: &InstanceReport) -> Result<(), CliError> {
        let line = if self.json {
            json_line(report)
        } else {
            csv_row(report)
        };
        let io = |source| CliError::Io {
            path: self.path.clone(),
            source,
        };
        // Only a retry has rows to replace: other runs just append.
        let key = if self.retried.is_empty() {
            None
        } else if self.json {
            json_row(&line, "")
        } else {
            csv_kept(&line, "", &csv_headers())
        }
        .map(|(key, _)| key);
        let Some(old) = key.and_then(|key| self.retried.remove(&key)) else {
            return writeln!(self.file, "{line}")
                .and_then(|()| self.file.flush())
                .map_err(io);
        };
        // This process holds the file's lock: what it reads is what it wrote.
        let text = std::fs::read_to_string(&self.path).map_err(io)?;
        let mut replaced = false;
        let mut new_text = String::with_capacity(text.len() + line.len() + 1);
        for (index, kept) in text.split_inclusive('\n').enumerate() {
            if !replaced && index >= header_lines(self.json) && kept == old {
                replaced = true;
                continue;
            }
            new_text.push_str(kept);
        }
        new_text.push_str(&line);
        new_text.push('\n');
        self.file = replace_locked(&self.path, &new_text)?;
        Ok(())
    }
}

/// How many lines a results file's header takes: the fingerprint, and in
/// CSV the column names.
fn header_lines(json: bool) -> usize {
    if json {
        1
    } else {
        2
    }
}

/// The text of a results file `text` (complete lines only) with its first
/// line(s) replaced by `first`: the experiment as it is now, whose limits
/// may differ from the file's.
fn with_first_line(text: &str, first: &str, json: bool) -> String {
    let mut new_text = first.to_string();
    for line in text.split_inclusive('\n').skip(header_lines(json)) {
        new_text.push_str(line);
    }
    new_text
}

/// Replaces the file at `path` by one holding `text`, and returns it open
/// and locked for appending. The text goes to a file beside it that is
/// renamed over it, so a crash leaves one whole file or the other; a run
/// that opens the new file in between is refused, or refuses this one, as
/// for any file two runs want.
fn replace_locked(path: &Path, text: &str) -> Result<File, CliError> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".retry-cut");
    let scratch = path.with_file_name(name);
    let io = |at: &Path, source| CliError::Io {
        path: at.to_path_buf(),
        source,
    };
    let mut file = File::create(&scratch).map_err(|e| io(&scratch, e))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| io(&scratch, e))?;
    std::fs::rename(&scratch, path).map_err(|e| io(path, e))?;
    let (file, reread) = open_locked(
        path,
        "another frontier run opened this file while --retry-cut rewrote it; wait for it or pass another --output",
    )?;
    if reread != text {
        return Err(CliError::Input(format!(
            "{}: changed while --retry-cut rewrote it; run again",
            path.display()
        )));
    }
    Ok(file)
}

/// Opens `path` (created if missing) for reading and appending, takes its
/// advisory lock without waiting (`held` says why not, after the path),
/// and reads what it holds: the one writer of a file that must not be
/// shared reads it under its lock.
pub fn open_locked(path: &Path, held: &str) -> Result<(File, String), CliError> {
    let io = |source| CliError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(io)?;
    frontier_core::files::lock_file(&file).map_err(|e| match e {
        frontier_core::files::LockError::Held => {
            CliError::Input(format!("{}: {held}", path.display()))
        }
        frontier_core::files::LockError::Io(e) => io(e),
    })?;
    let mut text = String::new();
    file.read_to_string(&mut text).map_err(io)?;
    Ok((file, text))
}

/// The first line(s) of a new file: the fingerprint as one JSON object
/// (behind `# ` in CSV, then the column header).
fn first_line(fingerprint: &Fingerprint, json: bool) -> String {
    let mut object = serde_json::Map::new();
    object.insert("frontier_results".into(), FORMAT.into());
    for (key, value) in fingerprint {
        object.insert(key.clone(), value.clone().into());
    }
    let header = serde_json::Value::Object(object).to_string();
    if json {
        header + "\n"
    } else {
        format!("# {header}\n{}\n", csv_headers().join(","))
    }
}

/// The fingerprint a file's first line records, if it has one.
fn recorded(line: &str, json: bool) -> Option<serde_json::Map<String, serde_json::Value>> {
    let object = if json { line } else { line.strip_prefix("# ")? };
    let value: serde_json::Value = serde_json::from_str(object).ok()?;
    let map = value.as_object()?.clone();
    map.contains_key("frontier_results").then_some(map)
}

/// The kept rows of a resumed file by key, and the length of the text to
/// keep (everything but a last line cut off mid-write). With
/// `limits_may_differ` (`--retry-cut`, which reruns the rows the old
/// limits cut) the file may record other limits.
fn read_rows(
    path: &Path,
    text: &str,
    json: bool,
    fingerprint: &Fingerprint,
    limits_may_differ: bool,
) -> Result<(HashMap<RowKey, KeptRow>, usize), CliError> {
    let refuse = |why: String| CliError::Input(format!("{}: cannot resume: {why}", path.display()));
    let mut lines = text.split_inclusive('\n');
    let head = lines.next().unwrap_or_default();
    let Some(written) = recorded(head.trim_end(), json) else {
        return Err(refuse(
            "its first line names no experiment (a file of an older version, or not frontier's); use --overwrite or another --output".into(),
        ));
    };
    if written.get("frontier_results").and_then(|v| v.as_u64()) != Some(FORMAT) {
        return Err(refuse(format!(
            "it is of results format {}, this version writes {FORMAT}",
            written["frontier_results"]
        )));
    }
    for (key, value) in fingerprint {
        if limits_may_differ && key == LIMITS_KEY {
            continue;
        }
        let was = written.get(key).and_then(|v| v.as_str()).unwrap_or("-");
        if was != value {
            // Parameters are `key=value` lines: name the one that differs.
            let difference = frontier_core::search::ida::context_difference(was, value)
                .filter(|_| key == "params")
                .unwrap_or_else(|| format!("{key}: written {was}, now {value}"));
            // Other limits are a new experiment, unless only the cut rows
            // are to be run again.
            let retry = if key == LIMITS_KEY {
                ", or --resume --retry-cut to keep the finished rows and run the cut ones again"
            } else {
                ""
            };
            return Err(refuse(format!(
                "it holds another experiment ({}); use --overwrite or another --output{retry}",
                difference.replace('\n', "; ")
            )));
        }
    }
    let mut length = head.len();
    let mut line_no = 1;
    let columns = if json {
        Vec::new()
    } else {
        line_no += 1;
        let header = lines.next().unwrap_or_default();
        length += header.len();
        let columns = split_csv(header.trim_end());
        if columns != csv_headers() {
            return Err(refuse("its columns are not this version's".into()));
        }
        columns
    };
    let mut kept = HashMap::new();
    for line in lines {
        line_no += 1;
        if !line.ends_with('\n') {
            tracing::warn!(
                "{}:{line_no}: a row cut off mid-write (no newline) is run again",
                path.display()
            );
            break;
        }
        let row = if json {
            json_row(line.trim_end(), &format!("{}:{line_no}", path.display()))
        } else {
            csv_kept(
                line.trim_end(),
                &format!("{}:{line_no}", path.display()),
                &columns,
            )
        };
        let Some((key, mut row)) = row else {
            return Err(refuse(format!(
                "line {line_no} is not a result row of this experiment; mend or remove it, or use --overwrite"
            )));
        };
        row.line = line_no;
        if let Some(earlier) = kept.insert(key.clone(), row) {
            return Err(refuse(format!(
                "line {line_no} repeats the row of {} (instance {}, {} {})",
                earlier.at, key.0, key.1, key.2
            )));
        }
        length += line.len();
    }
    Ok((kept, length))
}

/// A JSON row's key and what it answered.
fn json_row(line: &str, at: &str) -> Option<(RowKey, KeptRow)> {
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    let text = |name: &str| value.get(name)?.as_str().map(str::to_string);
    let key = (text("instance")?, text(PLANNED_COLUMN)?, text("params")?);
    let cost = match value.get("cost")? {
        serde_json::Value::Null => None,
        c => Some(Cost::try_from(c.as_u64()?).ok()?),
    };
    Some((
        key,
        KeptRow {
            at: at.to_string(),
            text: text(TEXT_COLUMN)?,
            cost,
            lower_bound: value
                .get("lower_bound")
                .and_then(|c| c.as_u64())
                .and_then(|c| Cost::try_from(c).ok()),
            value: value.get("value").and_then(|v| v.as_f64()),
            verdict: text("verdict"),
            value_tolerance: 0.0,
            cut: is_cut(&text("status")?),
            line: 0,
        },
    ))
}

/// A CSV row's key and what it answered (`-` is an empty cell).
fn csv_kept(line: &str, at: &str, columns: &[String]) -> Option<(RowKey, KeptRow)> {
    let fields = split_csv(line);
    if fields.len() != columns.len() {
        return None;
    }
    let cell = |name: &str| {
        let i = columns.iter().position(|c| c == name)?;
        Some(fields[i].clone())
    };
    let present = |name: &str| cell(name).filter(|v| v != "-");
    let key = (cell("instance")?, cell(PLANNED_COLUMN)?, cell("params")?);
    let cost = match present("cost") {
        Some(c) => Some(c.parse().ok()?),
        None => None,
    };
    let value = match present("value") {
        Some(v) => Some(v.parse().ok()?),
        None => None,
    };
    Some((
        key,
        KeptRow {
            at: at.to_string(),
            text: crate::report::from_one_line(&cell(TEXT_COLUMN)?),
            cost,
            lower_bound: match present("lower") {
                Some(c) => Some(c.parse().ok()?),
                None => None,
            },
            value,
            verdict: present("verdict"),
            value_tolerance: 5e-5,
            cut: is_cut(&cell("status")?),
            line: 0,
        },
    ))
}
