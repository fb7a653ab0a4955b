//! Results files: a proof that spans many runs and machines.
//!
//! `boggle prove --results FILE` appends each top-level class to `FILE` as
//! soon as it is finished (a GPU proof once the GPU has walked all of it,
//! `crate::ledger`, with the host threads' seconds alone: a CPU run that
//! resumes such a file projects its core-hours low); `--resume` reads the file back and skips the
//! classes it lists, so a proof cut short (a time limit, a lost machine)
//! goes on where it stopped. `boggle merge` reads the files of every share
//! and checks that together they cover every top-level class exactly once
//! before it reports the proof's boards.
//!
//! ```text
//! frontier-boggle-results 2
//! shape 4x4
//! target 3500
//! buckets aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz
//! dictionary 172823 9f0c2d7e5a4b1c33
//! classes 1068363
//! share 1/100
//! order cost
//! class 17 4.213 1632232
//! board perslatgsineters 3625
//! class 117 0.391 1201
//! ```
//!
//! The header is the proof's fingerprint: a file is resumed or merged only
//! with the same shape, target, buckets and word list (its word count and
//! trie fingerprint); it is resumed only in the same split order (`order`,
//! as certificates write it: parts below name letters of a class's first
//! cell in that order; version 1 files, which have no `order` line, were
//! written in the degree order) and share. Each `class` line gives the
//! class's index in the list of top-level classes up to symmetry (the same
//! on every machine), its seconds and subclasses bounded; its `board`
//! lines (row-major letters, as found, and the score) follow it. A class
//! and its boards are written with one `write` call and the file is locked
//! while a proof appends to it, so a run killed mid-write leaves at most a
//! last line without its newline, which `--resume` cuts off (that class is
//! searched again).
//!
//! A class can take longer than a run. Once one has run for a while (see
//! [`crate::prove::PART_SECONDS`]), its progress is appended as `part`
//! lines: the class index, the letters of its first position (in split
//! order) whose subclasses are done, their seconds and subclasses, and
//! their boards. `--resume` skips those letters and adds the parts to the
//! class when it finishes, so a class longer than any one run still ends.
//! A class line supersedes its parts; `merge` reads only class lines.
//!
//! ```text
//! part 300300 aei 61.240 80531174
//! part 300300 o 20.004 30112931
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::board::Shape;
use crate::certificate::dictionary_fingerprint;
use crate::header::HeaderLines;
use crate::orderly::{split_order, SplitOrder};
use crate::prove::{boards_up_to_symmetry, letter_text, letter_values, Buckets};
use crate::{BoggleError, Trie};

const MAGIC: &str = "frontier-boggle-results 2";
/// The version before the `order` line (degree order), still read.
const MAGIC_1: &str = "frontier-boggle-results 1";

/// What a results file belongs to: the proof it is part of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultsHeader {
    /// Rows and columns.
    pub shape: (usize, usize),
    /// The target.
    pub target: u32,
    /// The buckets, as [`Buckets::describe`] writes them.
    pub buckets: String,
    /// Words and trie fingerprint of the word list.
    pub dictionary: (u32, u64),
    /// Top-level classes of the whole proof.
    pub classes: u64,
    /// The share this file holds (`(k, n)`, 1-based `k`), or None for all.
    pub share: Option<(usize, usize)>,
    /// The split order, as [`SplitOrder::describe`] writes it.
    pub order: String,
}

impl ResultsHeader {
    /// The header of a proof of `shape`, `target` and `buckets` over `trie`,
    /// `classes` top-level classes in all, `share` 0-based as
    /// [`crate::ProofSettings::share`] takes it, split in `order`.
    pub fn new(
        trie: &Trie,
        shape: &Shape,
        target: u32,
        buckets: &Buckets,
        classes: u64,
        share: Option<(usize, usize)>,
        order: &SplitOrder,
    ) -> ResultsHeader {
        ResultsHeader {
            shape: (shape.rows, shape.cols),
            target,
            buckets: buckets.describe(),
            dictionary: (trie.words(), dictionary_fingerprint(trie)),
            classes,
            share: share.map(|(k, n)| (k + 1, n)),
            order: order.describe(),
        }
    }

    /// The header as a results file starts.
    pub(crate) fn text(&self) -> String {
        let share = self
            .share
            .map_or("all".to_string(), |(k, n)| format!("{k}/{n}"));
        format!(
            "{MAGIC}\nshape {}x{}\ntarget {}\nbuckets {}\ndictionary {} {:016x}\nclasses {}\nshare {share}\norder {}\n",
            self.shape.0,
            self.shape.1,
            self.target,
            self.buckets,
            self.dictionary.0,
            self.dictionary.1,
            self.classes,
            self.order
        )
    }

    /// What differs between this header and `other`, ignoring the share
    /// and the split order unless `resuming` (classes are the same
    /// whatever the order; parts are not); None when they agree.
    fn difference(&self, other: &ResultsHeader, resuming: bool) -> Option<String> {
        let fields = [
            ("shape", self.shape != other.shape),
            ("target", self.target != other.target),
            ("buckets", self.buckets != other.buckets),
            ("word list", self.dictionary != other.dictionary),
            ("class count", self.classes != other.classes),
            ("share", resuming && self.share != other.share),
            ("split order", resuming && self.order != other.order),
        ];
        let differ: Vec<&str> = fields
            .iter()
            .filter(|(_, differs)| *differs)
            .map(|(name, _)| *name)
            .collect();
        (!differ.is_empty()).then(|| differ.join(", "))
    }
}

/// One finished top-level class.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassResult {
    /// Its index among the top-level classes up to symmetry.
    pub index: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// Subclasses bounded.
    pub subclasses: u64,
    /// Boards at or above the target (row-major letters, 0 = a) and scores.
    pub boards: Vec<(Vec<u8>, u32)>,
}

impl ClassResult {
    /// Its lines in a results file.
    pub(crate) fn text(&self) -> String {
        let mut out = format!(
            "class {} {:.3} {}\n",
            self.index, self.seconds, self.subclasses
        );
        board_lines(&mut out, &self.boards);
        out
    }
}

/// The finished part of a class not finished yet: the subclasses below
/// some letters of its first position (in split order).
#[derive(Clone, Debug, PartialEq)]
pub struct PartResult {
    /// The class's index among the top-level classes up to symmetry.
    pub index: u64,
    /// The first position's letters (0 = a) whose subclasses are done.
    pub letters: Vec<u8>,
    /// Seconds they took.
    pub seconds: f64,
    /// Subclasses bounded below them.
    pub subclasses: u64,
    /// Boards at or above the target below them.
    pub boards: Vec<(Vec<u8>, u32)>,
}

impl PartResult {
    /// Its lines in a results file.
    pub(crate) fn text(&self) -> String {
        let mut out = format!(
            "part {} {} {:.3} {}\n",
            self.index,
            letter_text(&self.letters),
            self.seconds,
            self.subclasses
        );
        board_lines(&mut out, &self.boards);
        out
    }
}

/// `board` lines, one a board.
fn board_lines(out: &mut String, boards: &[(Vec<u8>, u32)]) {
    for (letters, score) in boards {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "board {} {score}", letter_text(letters));
    }
}

/// A results file read back.
#[derive(Clone, Debug)]
pub struct ResultsFile {
    /// Its header.
    pub header: ResultsHeader,
    /// Its classes, in the order they finished.
    pub classes: Vec<ClassResult>,
    /// Parts of classes, in the order they finished (also those of classes
    /// finished later).
    pub parts: Vec<PartResult>,
    /// Bytes up to the end of its last complete line.
    complete_bytes: usize,
}

/// Reads a results file (`name` for messages); a last line without its
/// newline (a run killed while writing) is left out, every other malformed
/// line is an error naming it.
pub fn parse(name: &str, text: &str) -> Result<ResultsFile, BoggleError> {
    let bad = |line: usize, why: &str| BoggleError::Config(format!("{name} line {line}: {why}"));
    let complete_bytes = text.rfind('\n').map_or(0, |i| i + 1);
    let mut lines = text[..complete_bytes]
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l));
    let mut header = HeaderLines {
        lines: &mut lines,
        last: 0,
        bad,
    };
    let (n, magic) = header.field("")?;
    if magic != MAGIC && magic != MAGIC_1 {
        return Err(bad(n, &format!("not a results file (expected '{MAGIC}')")));
    }
    let shape = header.shape()?;
    let (n, target) = header.field("target")?;
    let target = target
        .parse()
        .map_err(|_| bad(n, "target is not a number"))?;
    let (_, buckets) = header.field("buckets")?;
    let dictionary = header.dictionary()?;
    let (n, classes) = header.field("classes")?;
    // Proofs list at most 2^32 top-level classes (`top_classes`).
    let classes = classes
        .parse()
        .ok()
        .filter(|&c: &u64| c <= 1 << 32)
        .ok_or_else(|| bad(n, "classes is not a number up to 2^32"))?;
    let (n, share) = header.field("share")?;
    let share = match share.as_str() {
        "all" => None,
        text => Some(
            text.split_once('/')
                .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)))
                .filter(|&(k, n)| k >= 1 && k <= n)
                .ok_or_else(|| bad(n, "share is not 'all' or K/N"))?,
        ),
    };
    let cells = shape.0 * shape.1;
    let order = if magic == MAGIC_1 {
        SplitOrder::Cells(split_order(&Shape::new(shape.0, shape.1)))
    } else {
        let (n, order) = header.field("order")?;
        SplitOrder::parse(&order, cells).map_err(|e| bad(n, &e))?
    };
    let header = ResultsHeader {
        shape,
        target,
        buckets,
        dictionary,
        classes,
        share,
        order: order.describe(),
    };
    let mut results: Vec<ClassResult> = Vec::new();
    let mut parts: Vec<PartResult> = Vec::new();
    // Whether the last class or part line was a part's: its boards follow.
    let mut in_part = false;
    for (n, line) in lines {
        let fields: Vec<&str> = line.split(' ').collect();
        let index = |text: &str| {
            text.parse()
                .ok()
                .filter(|&i: &u64| i < classes)
                .ok_or_else(|| bad(n, "a class index past the class count"))
        };
        let seconds = |text: &str| {
            text.parse()
                .ok()
                .filter(|s: &f64| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| bad(n, "seconds is not a time"))
        };
        let subclasses = |text: &str| {
            text.parse()
                .map_err(|_| bad(n, "subclasses is not a number"))
        };
        match fields.as_slice() {
            ["class", i, s, sub] => {
                results.push(ClassResult {
                    index: index(i)?,
                    seconds: seconds(s)?,
                    subclasses: subclasses(sub)?,
                    boards: Vec::new(),
                });
                in_part = false;
            }
            ["part", i, letters, s, sub] => {
                let letters = letter_values(letters)
                    .filter(|l| !l.is_empty())
                    .ok_or_else(|| bad(n, "a part's letters are a-z"))?;
                parts.push(PartResult {
                    index: index(i)?,
                    letters,
                    seconds: seconds(s)?,
                    subclasses: subclasses(sub)?,
                    boards: Vec::new(),
                });
                in_part = true;
            }
            ["board", letters, score] => {
                let class = match in_part {
                    true => parts.last_mut().map(|p| &mut p.boards),
                    false => results.last_mut().map(|c| &mut c.boards),
                }
                .ok_or_else(|| bad(n, "a board before any class"))?;
                let letters = letter_values(letters)
                    .filter(|l| l.len() == shape.0 * shape.1)
                    .ok_or_else(|| bad(n, "a board is one letter a-z per cell"))?;
                let score = score
                    .parse()
                    .map_err(|_| bad(n, "a score is not a number"))?;
                class.push((letters, score));
            }
            _ => return Err(bad(n, "expected 'class …', 'part …' or 'board …'")),
        }
    }
    Ok(ResultsFile {
        header,
        classes: results,
        parts,
        complete_bytes,
    })
}

/// A results file a proof appends to (see the module docs).
pub struct ResultsLog {
    path: PathBuf,
    file: Mutex<std::fs::File>,
    /// Classes finished by earlier runs.
    previous: Vec<ClassResult>,
    done: HashSet<u64>,
    /// Parts of classes that earlier runs began and did not finish.
    parts: HashMap<u64, Vec<PartResult>>,
}

impl ResultsLog {
    /// Starts `path` for a proof with `header`; refuses a file that exists
    /// (`--resume` continues one).
    fn create(path: &Path, header: &ResultsHeader) -> Result<ResultsLog, BoggleError> {
        let io = |source| BoggleError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| {
                if path.is_dir() {
                    BoggleError::Config(format!(
                        "{} is a directory: name a results file",
                        path.display()
                    ))
                } else if e.kind() == std::io::ErrorKind::AlreadyExists {
                    BoggleError::Config(format!(
                        "{} exists: resume it (--resume) or choose another file",
                        path.display()
                    ))
                } else {
                    io(e)
                }
            })?;
        lock(path, &file)?;
        file.write_all(header.text().as_bytes()).map_err(io)?;
        Ok(ResultsLog {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            previous: Vec::new(),
            done: HashSet::new(),
            parts: HashMap::new(),
        })
    }

    /// Opens `path` for a proof with `header`. With `resume`, a file of
    /// the same proof (its header checked), continued: its classes are
    /// skipped and a last line cut short is removed. Without, a new file:
    /// one that exists is refused.
    pub fn open(
        path: &Path,
        header: &ResultsHeader,
        resume: bool,
    ) -> Result<ResultsLog, BoggleError> {
        if resume {
            ResultsLog::resume(path, header)
        } else {
            ResultsLog::create(path, header)
        }
    }

    /// Continues `path`, which must belong to the same proof (`header`);
    /// its classes are skipped, and a last line cut short is removed.
    fn resume(path: &Path, header: &ResultsHeader) -> Result<ResultsLog, BoggleError> {
        let io = |source| BoggleError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::NotFound {
                    BoggleError::Config(format!(
                        "nothing to resume: {} does not exist (start it without --resume)",
                        path.display()
                    ))
                } else {
                    io(e)
                }
            })?;
        lock(path, &file)?;
        // Read through the locked handle, not a second opening.
        let mut text = String::new();
        std::io::Read::read_to_string(&mut file, &mut text).map_err(io)?;
        let read = parse(&path.display().to_string(), &text)?;
        if let Some(differ) = read.header.difference(header, true) {
            let shape = Shape::new(read.header.shape.0, read.header.shape.1);
            let named = ["cost", "degree"].into_iter().find(|name| {
                SplitOrder::named(name, &shape).is_some_and(|o| o.describe() == read.header.order)
            });
            let hint = match named {
                Some(name) if read.header.order != header.order => {
                    format!(" (it was split in the {name} order: --order {name})")
                }
                _ => String::new(),
            };
            return Err(BoggleError::Config(format!(
                "{} belongs to another proof (different {differ}): resume it with the same \
                 settings{hint}, or start another file",
                path.display()
            )));
        }
        file.set_len(read.complete_bytes as u64).map_err(io)?;
        std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0)).map_err(io)?;
        let done: HashSet<u64> = read.classes.iter().map(|c| c.index).collect();
        let mut parts: HashMap<u64, Vec<PartResult>> = HashMap::new();
        for part in read.parts.into_iter().filter(|p| !done.contains(&p.index)) {
            parts.entry(part.index).or_default().push(part);
        }
        Ok(ResultsLog {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            previous: read.classes,
            done,
            parts,
        })
    }

    /// Whether an earlier run finished class `index`.
    pub fn is_done(&self, index: u64) -> bool {
        self.done.contains(&index)
    }

    /// The classes earlier runs finished.
    pub fn previous(&self) -> &[ClassResult] {
        &self.previous
    }

    /// The parts of class `index` that earlier runs finished (the class
    /// itself unfinished).
    pub fn parts_of(&self, index: u64) -> &[PartResult] {
        self.parts.get(&index).map_or(&[], Vec::as_slice)
    }

    /// Appends a finished class (one write, so a crash cannot split it).
    pub fn append(&self, class: &ClassResult) -> Result<(), BoggleError> {
        self.write(&class.text())
    }

    /// Appends the finished part of a class (one write).
    pub fn append_part(&self, part: &PartResult) -> Result<(), BoggleError> {
        self.write(&part.text())
    }

    fn write(&self, text: &str) -> Result<(), BoggleError> {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(text.as_bytes())
            .map_err(|source| BoggleError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

/// Locks a results file so that two proofs never append to it at once.
fn lock(path: &Path, file: &std::fs::File) -> Result<(), BoggleError> {
    frontier_core::files::lock_file(file).map_err(|e| match e {
        frontier_core::files::LockError::Held => BoggleError::Config(format!(
            "{} is being written by another proof",
            path.display()
        )),
        frontier_core::files::LockError::Io(source) => BoggleError::Io {
            path: path.to_path_buf(),
            source,
        },
    })
}

/// The proof that results files add up to.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The proof's header, its share the one checked (`merge`'s `share`,
    /// 1-based), or None for the whole proof.
    pub header: ResultsHeader,
    /// Every board at or above the target, up to symmetry, best first.
    pub boards: Vec<(String, u32)>,
    /// Classes covered.
    pub classes: u64,
    /// Seconds, summed over the classes (one core each).
    pub seconds: f64,
    /// Subclasses bounded.
    pub subclasses: u64,
}

/// Merges results files: they must belong to one proof and cover each of
/// its top-level classes exactly once, or with `share` (`(k, n)`, 0-based
/// `k`) each class of that share exactly once and no other. A share holds
/// the classes whose index is `k` modulo `n` ([`crate::ProofSettings::share`]),
/// so shares `k`, `k + n`, …, `k + (m − 1)·n` of `m·n` add up to share `k`
/// of `n`. The error says which class is missing, given twice or outside
/// the share.
pub fn merge(
    files: &[(String, ResultsFile)],
    share: Option<(usize, usize)>,
) -> Result<Merged, BoggleError> {
    let Some((_, first)) = files.first() else {
        return Err(BoggleError::Config("no results files to merge".into()));
    };
    let total = first.header.classes;
    let (part, parts) = share.map_or((0, 1), |(k, n)| (k as u64, n as u64));
    if parts == 0 || part >= parts || part >= total {
        return Err(BoggleError::Config(format!(
            "share {}/{parts} holds none of the proof's {total} classes",
            part + 1
        )));
    }
    let in_share = |index: u64| index % parts == part;
    let share_text = format!("{}/{parts}", part + 1);
    let of_share = share.map_or(String::new(), |_| format!(" of share {share_text}"));
    let mut seen = HashSet::new();
    let mut merged = Merged {
        header: ResultsHeader {
            share: share.map(|(k, n)| (k + 1, n)),
            ..first.header.clone()
        },
        boards: Vec::new(),
        classes: 0,
        seconds: 0.0,
        subclasses: 0,
    };
    let mut boards = Vec::new();
    for (name, file) in files {
        if let Some(differ) = file.header.difference(&first.header, false) {
            return Err(BoggleError::Config(format!(
                "{name} belongs to another proof than {} (different {differ})",
                files[0].0
            )));
        }
        for class in &file.classes {
            if !in_share(class.index) {
                return Err(BoggleError::Config(format!(
                    "{name} holds class {}, which is not in share {share_text}",
                    class.index
                )));
            }
            if !seen.insert(class.index) {
                return Err(BoggleError::Config(format!(
                    "class {} is in the results twice (again in {name})",
                    class.index
                )));
            }
            merged.classes += 1;
            merged.seconds += class.seconds;
            merged.subclasses += class.subclasses;
            boards.extend(class.boards.iter().cloned());
        }
    }
    // The share's classes are part, part + parts, … below total.
    let expected = (total - part).div_ceil(parts);
    let missing = expected - merged.classes;
    if missing > 0 {
        // Among the share's first `classes + 1` indexes one is missing.
        let first_missing = (0..)
            .map(|i| part + i * parts)
            .find(|i| !seen.contains(i))
            .unwrap_or_default();
        return Err(BoggleError::Config(format!(
            "the results cover {} of {expected} classes{of_share}: {missing} missing (the first: class \
             {first_missing}); run or resume the shares that hold them",
            merged.classes
        )));
    }
    let shape = Shape::new(first.header.shape.0, first.header.shape.1);
    merged.boards = boards_up_to_symmetry(&shape, boards);
    Ok(merged)
}
