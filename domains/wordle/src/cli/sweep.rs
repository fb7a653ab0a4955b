//! `frontier wordle sweep`: every first guess judged by the decision
//! executor, resumable through a checkpoint file.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::{FeedbackTable, HardState, HardWordleTree, Word, WordleTree};
use frontier_core::decision::{sweep, RootCost, SweepOptions};
use frontier_core::Cost;

use frontier_app::CliError;

/// What the user asked of one sweep.
pub struct SweepRun<'a> {
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// Exact costs within this much of the best.
    pub margin: Cost,
    /// Results so far, appended as they are proven.
    pub checkpoint: Option<&'a Path>,
    /// Judge every N-th guess of the order only.
    pub every: usize,
    /// Start no guess after this many seconds.
    pub seconds: Option<f64>,
    /// Best total known beforehand.
    pub incumbent: Option<Cost>,
    /// Print progress lines on stderr.
    pub progress: bool,
    /// Hard mode (greens kept, revealed letters reused).
    pub hard: bool,
    /// Guesses per answer in hard mode (`None`: no limit).
    pub max_guesses: Option<u8>,
}

/// What a sweep found, over this run and the checkpoint it resumed.
pub struct SweepReport {
    /// Guesses the sweep covers (all of them, or the sample).
    considered: Vec<usize>,
    /// Results per guess index.
    results: HashMap<usize, RootCost>,
    /// Judged in this run.
    judged_now: usize,
    threads: usize,
    every: usize,
    margin: Cost,
    /// The best total known before this run, if any.
    incumbent: Option<Cost>,
    seconds: f64,
    answers: usize,
    hard: bool,
    max_guesses: Option<u8>,
}

/// A worker's memo is emptied past this many states (about 2 GB in all on
/// 16 threads).
const MEMO_LIMIT: usize = 1_500_000;

/// Progress lines on stderr at most this often.
const PROGRESS_EVERY: Duration = Duration::from_secs(30);

/// Runs the sweep.
pub fn run(table: &FeedbackTable, run: &SweepRun) -> Result<SweepReport, CliError> {
    if run.every == 0 {
        return Err(CliError::Input("--every must be at least 1".into()));
    }
    let started = Instant::now();
    let problem = WordleTree::new(table).sequential();
    let all: Vec<u32> = (0..table.answers.len() as u32).collect();
    let considered: Vec<usize> = problem
        .first_guesses()
        .into_iter()
        .step_by(run.every)
        .map(|(g, _)| g)
        .collect();
    // The checkpoint is opened and locked first: a second sweep on it
    // fails at once, and what it holds is read under the lock.
    let (file, mut results) = match run.checkpoint {
        Some(path) => {
            let (file, results) = open_checkpoint(path, table, run)?;
            (Some(file), results)
        }
        None => (None, HashMap::new()),
    };
    let known_best = results
        .values()
        .filter_map(|r| match r {
            RootCost::Exact(c) => Some(*c),
            RootCost::AtLeast(_) => None,
        })
        .chain(run.incumbent)
        .min();
    // A bound below the cutoff (recorded with a wider margin or an older
    // incumbent) does not settle the guess: judge it again.
    let cutoff = known_best.map(|b| b.saturating_add(run.margin).saturating_add(1));
    results.retain(|_, r| match (*r, cutoff) {
        (RootCost::AtLeast(b), Some(cut)) => b >= cut,
        (RootCost::AtLeast(_), None) => false,
        (RootCost::Exact(_), _) => true,
    });
    let todo: Vec<usize> = considered
        .iter()
        .copied()
        .filter(|g| !results.contains_key(g))
        .collect();
    let threads = match frontier_app::plugin::thread_count(run.threads)? {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    if run.progress {
        eprintln!(
            "sweep: {} first guesses, {} from the checkpoint, {} to judge on {threads} threads",
            considered.len(),
            considered.len() - todo.len(),
            todo.len()
        );
    }
    let progress = Mutex::new((0usize, Instant::now(), None::<std::io::Error>, file));
    let report = |i: usize, result: RootCost| {
        let Ok(mut state) = progress.lock() else {
            return;
        };
        let (done, last, failed, file) = &mut *state;
        *done += 1;
        if let Some(file) = file.as_mut() {
            let line = checkpoint_line(table.guesses[todo[i]], result, run.hard);
            if let Err(e) = file.write_all(line.as_bytes()).and_then(|_| file.flush()) {
                failed.get_or_insert(e);
            }
        }
        if run.progress && last.elapsed() >= PROGRESS_EVERY {
            *last = Instant::now();
            let rate = *done as f64 / started.elapsed().as_secs_f64();
            eprintln!(
                "sweep: {}/{} judged in {:.0} s ({rate:.1}/s)",
                *done,
                todo.len(),
                started.elapsed().as_secs_f64()
            );
        }
    };
    let options = SweepOptions {
        threads,
        margin: run.margin,
        incumbent: known_best,
        memo_limit: MEMO_LIMIT,
        deadline: run
            .seconds
            .and_then(|s| frontier_core::search::deadline_after(started, s)),
    };
    let found = if run.hard {
        let hard = HardWordleTree::new(table).sequential();
        sweep(
            &hard,
            &HardState::start(table, run.max_guesses),
            &todo,
            &options,
            &report,
        )
    } else {
        sweep(&problem, &all, &todo, &options, &report)
    };
    if let Ok((_, _, Some(source), _)) = progress.into_inner() {
        return Err(CliError::Io {
            path: run.checkpoint.map(Path::to_path_buf).unwrap_or_default(),
            source,
        });
    }
    let judged_now = found.iter().flatten().count();
    for (g, result) in todo.iter().zip(found) {
        if let Some(result) = result {
            results.insert(*g, result);
        }
    }
    Ok(SweepReport {
        considered,
        results,
        judged_now,
        threads,
        every: run.every,
        margin: run.margin,
        incumbent: known_best,
        seconds: started.elapsed().as_secs_f64(),
        answers: table.answers.len(),
        hard: run.hard,
        max_guesses: run.max_guesses,
    })
}

/// `word, exact|at-least, total` tab-separated, and a fourth field `hard`
/// for hard-mode results, so neither mode resumes from the other's.
fn checkpoint_line(word: Word, result: RootCost, hard: bool) -> String {
    let mode = if hard { "\thard" } else { "" };
    match result {
        RootCost::Exact(c) => format!("{word}\texact\t{c}{mode}\n"),
        RootCost::AtLeast(c) => format!("{word}\tat-least\t{c}{mode}\n"),
    }
}

/// What decides a sweep's results besides its flags of effort: the
/// answer and guess lists (FNV-1a of their words, in order), the mode and
/// the guess limit. A checkpoint records it on its first line.
fn sweep_key(table: &FeedbackTable, run: &SweepRun) -> String {
    let digest = |words: &[Word]| {
        let text: String = words.iter().map(|w| w.to_string()).collect();
        format!(
            "{} words, fnv1a {:016x}",
            words.len(),
            frontier_core::search::ida::fnv1a(text.as_bytes())
        )
    };
    format!(
        "answers={}\nguesses={}\nmode={}\nmax_guesses={}",
        digest(&table.answers),
        digest(&table.guesses),
        if run.hard { "hard" } else { "normal" },
        run.max_guesses
            .map_or("none".to_string(), |n| n.to_string())
    )
}

/// The first line of a sweep checkpoint.
const KEY_LINE: &str = "# frontier wordle sweep ";

/// Opens (creating) and locks the checkpoint at `path`, and reads what it
/// holds: a file of another sweep (other lists, mode or limit) is refused,
/// naming the difference.
fn open_checkpoint(
    path: &Path,
    table: &FeedbackTable,
    run: &SweepRun,
) -> Result<(std::fs::File, HashMap<usize, RootCost>), CliError> {
    let io = |source| CliError::Io {
        path: path.to_path_buf(),
        source,
    };
    let (mut file, text) = frontier_app::results::open_locked(
        path,
        "another sweep is using this checkpoint; wait for it or pass another",
    )?;
    let key = sweep_key(table, run);
    if text.is_empty() {
        let line = format!("{KEY_LINE}{}\n", serde_json::Value::from(key.clone()));
        file.write_all(line.as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        return Ok((file, HashMap::new()));
    }
    let written = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix(KEY_LINE))
        .and_then(|k| serde_json::from_str::<String>(k).ok())
        .ok_or_else(|| {
            CliError::Input(format!(
                "{}: not a sweep checkpoint of this version (its first line names no lists); pass another --checkpoint",
                path.display()
            ))
        })?;
    if let Some(difference) = frontier_core::search::ida::context_difference(&written, &key) {
        return Err(CliError::Input(format!(
            "{}: recorded by another sweep ({difference}); pass another --checkpoint",
            path.display()
        )));
    }
    Ok((file, read_checkpoint(path, &text, table, run.hard)?))
}

/// The results a checkpoint's `text` records (its first line is the key).
fn read_checkpoint(
    path: &Path,
    text: &str,
    table: &FeedbackTable,
    hard: bool,
) -> Result<HashMap<usize, RootCost>, CliError> {
    let index: HashMap<Word, usize> = table
        .guesses
        .iter()
        .enumerate()
        .map(|(i, &w)| (w, i))
        .collect();
    let mut results = HashMap::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let bad = |why: &str| {
            CliError::Input(format!(
                "{}:{}: {why} (expected: word, exact or at-least, total; tab-separated)",
                path.display(),
                n + 1
            ))
        };
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let (word, kind, cost, recorded_hard) = match fields[..] {
            [word, kind, cost] => (word, kind, cost, false),
            [word, kind, cost, "hard"] => (word, kind, cost, true),
            _ => return Err(bad("not three fields (four for hard mode)")),
        };
        if recorded_hard != hard {
            return Err(bad(if hard {
                "recorded by a normal-mode sweep, and this one is hard mode"
            } else {
                "recorded by a hard-mode sweep, and this one is normal mode"
            }));
        }
        let word: Word = word.parse().map_err(|_| bad("not a five-letter word"))?;
        let g = *index
            .get(&word)
            .ok_or_else(|| bad("a word not in the guess list"))?;
        let cost: Cost = cost.trim().parse().map_err(|_| bad("not a total"))?;
        let result = match kind {
            "exact" => RootCost::Exact(cost),
            "at-least" => RootCost::AtLeast(cost),
            _ => return Err(bad("neither exact nor at-least")),
        };
        results.insert(g, result);
    }
    Ok(results)
}

impl SweepReport {
    fn best(&self) -> Option<Cost> {
        self.considered
            .iter()
            .filter_map(|g| match self.results.get(g) {
                Some(RootCost::Exact(c)) => Some(*c),
                _ => None,
            })
            .min()
    }

    /// Guesses proven within the margin of the best, best first.
    fn leaders(&self) -> Vec<(usize, Cost)> {
        let Some(best) = self.best() else {
            return Vec::new();
        };
        let mut leaders: Vec<(usize, Cost)> = self
            .considered
            .iter()
            .filter_map(|&g| match self.results.get(&g) {
                Some(RootCost::Exact(c)) if *c <= best.saturating_add(self.margin) => Some((g, *c)),
                _ => None,
            })
            .collect();
        leaders.sort_by_key(|&(g, c)| (c, g));
        leaders
    }

    fn missing(&self) -> usize {
        self.considered
            .iter()
            .filter(|g| !self.results.contains_key(g))
            .count()
    }

    /// The best total proven, and the guesses within the margin of it
    /// (best first) with their totals; `complete` says whether every
    /// guess considered was judged.
    pub fn summary(&self, table: &FeedbackTable) -> (Option<Cost>, Vec<(String, Cost)>, bool) {
        let leaders = self
            .leaders()
            .into_iter()
            .map(|(g, c)| (table.guesses[g].to_string(), c))
            .collect();
        (self.best(), leaders, self.missing() == 0)
    }

    /// The report as JSON.
    pub fn to_json(&self, table: &FeedbackTable) -> serde_json::Value {
        let leaders: Vec<serde_json::Value> = self
            .leaders()
            .iter()
            .map(|&(g, c)| {
                serde_json::json!({
                    "guess": table.guesses[g].to_string(),
                    "total": c,
                    "average": f64::from(c) / self.answers as f64,
                })
            })
            .collect();
        serde_json::json!({
            "hard": self.hard,
            "max_guesses": self.max_guesses,
            "considered": self.considered.len(),
            "every": self.every,
            "judged_now": self.judged_now,
            "not_judged": self.missing(),
            "complete": self.missing() == 0,
            "margin": self.margin,
            "best": self.best(),
            "leaders": leaders,
            "threads": self.threads,
            "seconds": self.seconds,
        })
    }

    /// The report as text.
    pub fn to_text(&self, table: &FeedbackTable) -> String {
        // The scope first: a total means nothing without the answers, the
        // mode and whether the guesses were all of them or a sample.
        let mode = match (self.hard, self.max_guesses) {
            (false, _) => String::new(),
            (true, Some(n)) => format!(", hard mode (at most {n} guesses)"),
            (true, None) => ", hard mode (no guess limit)".into(),
        };
        let mut text = format!(
            "{} first guesses{} on {} answers{mode}; {} judged now on {} threads in {:.1} s\n",
            self.considered.len(),
            if self.every > 1 {
                format!(" (a sample: 1 in {} of the sweep's order)", self.every)
            } else {
                String::new()
            },
            self.answers,
            self.judged_now,
            self.threads,
            self.seconds
        );
        let missing = self.missing();
        if missing > 0 {
            text += &format!(
                "incomplete: {missing} guesses not judged yet (run again with the same --checkpoint)\n"
            );
        }
        let leaders = self.leaders();
        match leaders.first() {
            Some(&(g, c)) => {
                let scope = match (missing, self.every) {
                    (0, 1) => "proven optimal over every guess",
                    (0, _) => "the best of the sample, each of its guesses proven; not a proof over every guess",
                    _ => "best so far",
                };
                text += &format!(
                    "best first guess: {} with {c} guesses in total (average {:.4}), {scope}\n",
                    table.guesses[g],
                    f64::from(c) / self.answers as f64
                );
                if leaders.len() > 1 || self.margin > 0 {
                    text += &format!("within {} of the best:\n", self.margin);
                    for &(g, c) in &leaders {
                        text += &format!("  {} {c}\n", table.guesses[g]);
                    }
                }
            }
            None => match self.incumbent {
                Some(known) if missing == 0 => {
                    text += &format!(
                    "no guess considered totals {} or less ({known}: the total known beforehand)\n",
                    known.saturating_add(self.margin)
                )
                }
                _ if missing == 0 => match self.max_guesses {
                    Some(n) => {
                        text += &format!(
                            "no first guess finds every answer within {n} guesses (hard mode)\n"
                        )
                    }
                    None => text += "no first guess has a tree\n",
                },
                _ => text += "no guess judged yet\n",
            },
        }
        text
    }
}
