//! Boggle's fuzz properties on frontier's harness (`frontier_core::fuzz`):
//! `cargo test` checks them on edits of the seeds (`tests/fuzz.rs` of the
//! workspace), cargo-fuzz for as long as one likes
//! (`fuzz/fuzz_targets/boggle_input.rs` and `boggle_proof_files.rs`, one
//! line each).

use frontier_core::fuzz::Target;

use crate::{find_words, Board, Scorer, Trie};

/// A word list (bytes before the first zero) and a board (the text after
/// it) parse or are refused; a board of up to 12 cells scores the same
/// with the tuned solver and the path listing. Larger boards are not
/// scored: a one-letter board with that letter repeated in the list has
/// more prefix paths on 5×5 and up than any time limit.
pub fn boggle_input(data: &[u8]) {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (words, board) = data.split_at(split);
    let list = crate::WordList::parse(words);
    let trie = Trie::build(&list);
    let Ok(text) = std::str::from_utf8(board.get(1..).unwrap_or_default()) else {
        return;
    };
    if let Some(board) = Board::parse(text, None)
        .ok()
        .filter(|b| b.shape().cells() <= 12)
    {
        let score = Scorer::new(&trie).score(&board);
        let listed: u32 = find_words(&trie, &board).iter().map(|w| w.points).sum();
        assert_eq!(score, listed, "{text:?}");
    }
}

/// A results file or a certificate (any bytes) parses or is refused,
/// never panics; a results file that parses is merged alone (refused
/// unless it covers its proof), then as the share its header names, and
/// reads back the same once written out.
pub fn boggle_proof_files(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = crate::certificate::parse(&text);
    let Ok(file) = crate::results::parse("fuzz", &text) else {
        return;
    };
    let _ = crate::results::merge(&[("fuzz".into(), file.clone())], None);
    // And as the share its header names, as `boggle merge --share` checks it.
    if let Some((k, n)) = file.header.share {
        let _ = crate::results::merge(
            &[("fuzz".into(), file.clone())],
            Some((k.wrapping_sub(1), n)),
        );
    }
    let mut written = file.header.text();
    for class in &file.classes {
        written += &class.text();
    }
    let again = crate::results::parse("fuzz", &written).expect("a written results file reads");
    assert_eq!(again.header, file.header);
    // Seconds are written to the millisecond; the rest reads back exactly.
    assert_eq!(again.classes.len(), file.classes.len());
    for (read, original) in again.classes.iter().zip(&file.classes) {
        assert_eq!(
            (read.index, read.subclasses, &read.boards),
            (original.index, original.subclasses, &original.boards)
        );
    }
}

fn proof_file_seeds() -> Vec<Vec<u8>> {
    vec![
        b"frontier-boggle-results 1\nshape 2x2\ntarget 10\nbuckets ae rst\n\
          dictionary 5 00000000000000ab\nclasses 6\nshare 1/2\nclass 0 0.125 7\n\
          board tear 11\nclass 4 1.5 0\n"
            .to_vec(),
        b"frontier-boggle-results 2\nshape 2x2\ntarget 10\nbuckets ae rst\n\
          dictionary 5 00000000000000ab\nclasses 6\nshare 1/2\norder cost\nclass 0 0.125 7\n\
          part 4 ae 0.5 3\n"
            .to_vec(),
        b"frontier-boggle-certificate 3\nshape 2x2\ntarget 10\nbuckets ae rst\n\
          order cost\ndictionary 5 00000000000000ab\nclass 0000 12\ne.a 8\nend 1\n"
            .to_vec(),
        b"frontier-boggle-certificate 2\nshape 2x2\ntarget 10\nbuckets ae rst\n\
          order 0 1 2 3\ndictionary 5 00000000000000ab\nclass 0000 12\ne.a 8\nend 1\n"
            .to_vec(),
    ]
}

fn boggle_seeds() -> Vec<Vec<u8>> {
    vec![
        b"tea\neat\nrate\nstare\nquest\nsea\0tear\nsqeu\nates".to_vec(),
        b"rates\ntears\naster\0rat/ese/sta".to_vec(),
    ]
}

/// Boggle's targets.
pub const TARGETS: &[Target] = &[
    Target {
        name: "boggle_input",
        property: boggle_input,
        seeds: boggle_seeds,
        alphabet: b"aeqrstu\n\x00 /",
    },
    Target {
        name: "boggle_proof_files",
        property: boggle_proof_files,
        seeds: proof_file_seeds,
        alphabet: b"aert0129x ./\n",
    },
];
