//! Results files for proofs whose classes finish on other threads.
//!
//! A proof split at a depth (a GPU proof, `crate::gpu_prove`) finishes a
//! top-level class in pieces: the host thread walks it down to the split
//! and hands its subclasses over in one or more handovers, and another
//! thread adds each handover up after the GPU walked it, in any order
//! against the host's part. A class may be written to the results file
//! only once all of them are done, or a resumed proof would skip
//! subclasses nobody walked. The ledger counts, per class, the handovers
//! sent and added up, and appends the class when its host part has ended
//! complete and every handover sent has been added up. A class whose host
//! part stopped early (a time limit), or one of whose handovers was never
//! added up (a time limit, a failure), is never written: a resumed proof
//! searches it again.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::results::{ClassResult, ResultsLog};
use crate::BoggleError;

/// Classes in progress and the results file they go to.
pub(crate) struct Ledger<'a> {
    log: &'a ResultsLog,
    open: Mutex<HashMap<u64, OpenClass>>,
    /// The first failure to append; later classes are not written.
    error: Mutex<Option<BoggleError>>,
}

/// What a class has done so far.
#[derive(Default)]
struct OpenClass {
    sent: u64,
    added: u64,
    /// The host part's seconds, once it ended complete.
    host_seconds: Option<f64>,
    subclasses: u64,
    boards: Vec<(Vec<u8>, u32)>,
}

// Without the GPU only the split tests count handovers.
#[cfg_attr(not(feature = "gpu"), allow(dead_code))]
impl<'a> Ledger<'a> {
    /// A ledger appending to `log`.
    pub(crate) fn new(log: &'a ResultsLog) -> Ledger<'a> {
        Ledger {
            log,
            open: Mutex::new(HashMap::new()),
            error: Mutex::new(None),
        }
    }

    /// Class `class` handed a handover over (before its host part ends).
    pub(crate) fn handed_over(&self, class: u64) {
        self.lock().entry(class).or_default().sent += 1;
    }

    /// Class `class`'s host part ended, complete or not, after `seconds`,
    /// with `subclasses` bounded and `boards` found on the host.
    pub(crate) fn host_done(
        &self,
        class: u64,
        complete: bool,
        seconds: f64,
        subclasses: u64,
        boards: &[(Vec<u8>, u32)],
    ) {
        let mut open = self.lock();
        if !complete {
            open.remove(&class);
            return;
        }
        let entry = open.entry(class).or_default();
        entry.host_seconds = Some(seconds);
        entry.subclasses += subclasses;
        entry.boards.extend(boards.iter().cloned());
        self.append_if_done(&mut open, class);
    }

    /// One handover of class `class` was added up: `subclasses` bounded
    /// below it and `boards` found.
    pub(crate) fn added_up(&self, class: u64, subclasses: u64, boards: Vec<(Vec<u8>, u32)>) {
        let mut open = self.lock();
        // A class whose host part stopped early is gone: nothing to add.
        let Some(entry) = open.get_mut(&class) else {
            return;
        };
        entry.added += 1;
        entry.subclasses += subclasses;
        entry.boards.extend(boards);
        self.append_if_done(&mut open, class);
    }

    /// The first failure to append, if any.
    pub(crate) fn into_error(self) -> Option<BoggleError> {
        self.error.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    /// Classes not yet written (their host part or a handover not done).
    pub(crate) fn unfinished(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, OpenClass>> {
        // A panic elsewhere leaves the counts as they were: still usable.
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn append_if_done(&self, open: &mut HashMap<u64, OpenClass>, class: u64) {
        let done = open
            .get(&class)
            .is_some_and(|c| c.host_seconds.is_some() && c.added == c.sent);
        if !done {
            return;
        }
        let Some(entry) = open.remove(&class) else {
            return;
        };
        let mut error = self.error.lock().unwrap_or_else(|e| e.into_inner());
        if error.is_some() {
            return;
        }
        let appended = self.log.append(&ClassResult {
            index: class,
            seconds: entry.host_seconds.unwrap_or(0.0),
            subclasses: entry.subclasses,
            boards: entry.boards,
        });
        if let Err(e) = appended {
            *error = Some(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ledger;
    use crate::orderly::SplitOrder;
    use crate::prove::Buckets;
    use crate::results::{parse, ResultsHeader, ResultsLog};
    use crate::{Shape, Trie, WordList};

    /// Whatever the order of a class's host part and its handovers, the
    /// class is written once, when the last of them is done, with the
    /// subclasses and boards of all; a class whose host part stopped
    /// early, or one of whose handovers is never added up, is not written.
    #[test]
    fn a_class_is_written_once_its_host_part_and_every_handover_are_done() {
        let trie = Trie::build(&WordList::parse(b"tea\neat\n"));
        let buckets = Buckets::single("aet").expect("letters");
        let shape = Shape::new(2, 2);
        let header = ResultsHeader::new(&trie, &shape, 1, &buckets, 10, None, &SplitOrder::Cost);
        let path = std::env::temp_dir().join(format!("frontier-ledger-{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let log = ResultsLog::open(&path, &header, false).expect("a new file");
        let ledger = Ledger::new(&log);
        let board = |letter: u8| vec![(vec![letter; 4], 7)];
        // Class 1: both handovers added up before its host part ends.
        ledger.handed_over(1);
        ledger.handed_over(1);
        ledger.added_up(1, 10, board(0));
        ledger.added_up(1, 20, Vec::new());
        // Class 2: host part first, then its one handover.
        ledger.handed_over(2);
        ledger.host_done(2, true, 0.5, 3, &[]);
        // Class 3: stopped early; its handover comes back anyway.
        ledger.handed_over(3);
        ledger.host_done(3, false, 0.1, 1, &[]);
        ledger.added_up(3, 5, Vec::new());
        // Class 4: one of its two handovers never added up.
        ledger.handed_over(4);
        ledger.handed_over(4);
        ledger.host_done(4, true, 0.2, 1, &[]);
        ledger.added_up(4, 5, Vec::new());
        // Nothing of 1 and 2 written yet.
        let written = || {
            let text = std::fs::read_to_string(&path).expect("the file");
            parse("ledger", &text).expect("a results file").classes
        };
        assert!(written().is_empty());
        ledger.host_done(1, true, 1.5, 4, &board(1));
        ledger.added_up(2, 6, board(2));
        let classes = written();
        let summary: Vec<_> = classes
            .iter()
            .map(|c| (c.index, c.subclasses, c.boards.len()))
            .collect();
        assert_eq!(summary, [(1, 34, 2), (2, 9, 1)]);
        assert_eq!(classes[0].seconds, 1.5);
        assert_eq!(ledger.unfinished(), 1, "class 4 waits for a handover");
        assert!(ledger.into_error().is_none());
        let _ = std::fs::remove_file(&path);
    }
}
