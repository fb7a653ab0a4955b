//! Proof certificates: what a proof discarded, written as text that
//! [`verify`] re-checks without trusting the proof's search.
//!
//! ```text
//! frontier-boggle-certificate 3
//! shape 3x3
//! target 500
//! buckets aeiou lnrsy chkmpt bdfgjqvwxz
//! order cost
//! dictionary 172823 9f0c2d7e5a4b1c33
//! class 000000000 12
//! class 000000001 611
//! e 480
//! i.a 495
//! ...
//! end 34960
//! ```
//!
//! Each `class` line is a top-level class (one bucket index per cell, base
//! 36) and its orderly bound. A class bounded at or above the target is
//! followed by the subclasses that cover it, depth first: the letters of
//! the first cells in split order, and the subclass's bound (for a whole
//! board at or above the target, its score). A `.` after the first letters
//! says that those cells were *forced*: the bound is that of the class's
//! tree with them forced on it in order, the letters after the dot fixed on
//! it incrementally (version 1 certificates have no forced cells).
//!
//! The `order` line gives the split order: one permutation of the cells
//! for every class, or `cost`, each class in its own
//! [`crate::orderly::cost_order`] of its cells' letter sets (version 3;
//! versions 1 and 2 always name the cells).
//!
//! [`verify`] checks that the classes are exactly the top-level classes up
//! to symmetry, that each class's pieces cover it, and recomputes every
//! bound from scratch (a whole board it scores with the plain scorer
//! instead): it builds each class's orderly tree anew and, for every piece,
//! starts a fresh [`crate::orderly::OrderlyBound`] at the root and fixes
//! the piece's letters, sharing nothing with the proof's walk or with the
//! other pieces.
//!
//! The class's tree bounds a subclass exactly as the subclass's own tree
//! would: fixing cells in split order only follows choice nodes of fixed
//! cells and sums the children of choice nodes of free cells, and those
//! children's subtrees hold only cells after theirs, all free, so they are
//! the same in both trees (the orderly test checks the equality against
//! fresh subclass trees). One tree per class, not one per piece, is what
//! makes a certificate of millions of pieces checkable. Pieces under forced
//! cells are checked on the class's tree with those cells forced again
//! ([`crate::orderly::OrderlyTree::force`]), once per run of pieces that
//! share them.

use std::fmt::Write as _;

use rayon::prelude::*;

use crate::board::Shape;
use crate::header::HeaderLines;
use crate::orderly::{split_order, OrderlyBuilder, SplitOrder, Unforce};
use crate::prove::{
    boards_up_to_symmetry, letter_text, place_in_order, top_classes, Buckets, ClassRecord,
    Discarded, Proof, Worker,
};
use crate::{BoggleError, Trie};

const MAGIC: &str = "frontier-boggle-certificate 3";
/// The version before orders per class, still read.
const MAGIC_2: &str = "frontier-boggle-certificate 2";
/// The version before forced cells, still read.
const MAGIC_1: &str = "frontier-boggle-certificate 1";

/// A class's bucket indexes as base-36 digits, one per cell.
fn class_digits(buckets: &[u8]) -> String {
    buckets
        .iter()
        .map(|&b| char::from_digit(u32::from(b), 36).unwrap_or('?'))
        .collect()
}

/// A fingerprint of the dictionary (FNV-1a over the trie's nodes), so a
/// certificate is not checked against another word list.
pub fn dictionary_fingerprint(trie: &Trie) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for node in trie.nodes() {
        for word in [node.info, node.first] {
            for byte in word.to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    hash
}

/// The certificate of `proof` (made with `certificate` set) as text.
pub fn write(trie: &Trie, proof: &Proof) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "{MAGIC}\nshape {}x{}\ntarget {}\nbuckets {}\norder {}\ndictionary {} {:016x}",
        proof.shape.rows,
        proof.shape.cols,
        proof.target,
        proof.buckets.describe(),
        proof.order.describe(),
        trie.words(),
        dictionary_fingerprint(trie)
    );
    for record in &proof.certificate {
        let _ = writeln!(
            out,
            "class {} {}",
            class_digits(&record.buckets),
            record.bound
        );
        for piece in &record.pieces {
            let (forced, rest) = piece.letters.split_at(piece.forced);
            let dot = if piece.forced > 0 { "." } else { "" };
            let _ = writeln!(
                out,
                "{}{dot}{} {}",
                letter_text(forced),
                letter_text(rest),
                piece.bound
            );
        }
    }
    let _ = writeln!(out, "end {}", proof.certificate.len());
    out
}

/// A certificate read back.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// The shape.
    pub shape: Shape,
    /// The target.
    pub target: u32,
    /// The buckets.
    pub buckets: Buckets,
    /// The split order.
    pub order: SplitOrder,
    /// Words and fingerprint of the dictionary it was made with.
    pub dictionary: (u32, u64),
    /// The classes.
    pub classes: Vec<ClassRecord>,
}

/// Reads a certificate; every malformed line is an error naming it.
pub fn parse(text: &str) -> Result<Certificate, BoggleError> {
    let bad =
        |line: usize, why: &str| BoggleError::Config(format!("certificate line {line}: {why}"));
    // Where a certificate cut short ends: its last line.
    let last = text.lines().count();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let mut header = HeaderLines {
        lines: &mut lines,
        last,
        bad,
    };
    let (n, magic) = header.field("")?;
    if magic != MAGIC && magic != MAGIC_2 && magic != MAGIC_1 {
        return Err(bad(n, &format!("not a certificate (expected '{MAGIC}')")));
    }
    let (rows, cols) = header.shape()?;
    let shape = Shape::new(rows, cols);
    let (n, target) = header.field("target")?;
    let target = target
        .parse()
        .map_err(|_| bad(n, "target is not a number"))?;
    let (n, buckets) = header.field("buckets")?;
    let buckets = Buckets::parse(&buckets).map_err(|e| bad(n, &e.to_string()))?;
    let (n, order) = header.field("order")?;
    let order = SplitOrder::parse(&order, shape.cells()).map_err(|e| bad(n, &e))?;
    if order == SplitOrder::Cost && magic != MAGIC {
        return Err(bad(n, "orders per class (`cost`) came with version 3"));
    }
    let dictionary = header.dictionary()?;
    let mut classes: Vec<ClassRecord> = Vec::new();
    for (n, line) in lines {
        let (head, value) = line
            .rsplit_once(' ')
            .ok_or_else(|| bad(n, "expected '<what> <number>'"))?;
        let value: u32 = value
            .parse()
            .map_err(|_| bad(n, "the last field is not a number"))?;
        if head == "end" {
            if value as usize != classes.len() {
                return Err(bad(n, "the class count differs from the classes listed"));
            }
            return Ok(Certificate {
                shape,
                target,
                buckets,
                order,
                dictionary,
                classes,
            });
        }
        if let Some(digits) = head.strip_prefix("class ") {
            let buckets = digits
                .chars()
                .map(|d| d.to_digit(36).map(|d| d as u8))
                .collect::<Option<Vec<u8>>>()
                .filter(|b| b.len() == shape.cells())
                .ok_or_else(|| bad(n, "a class needs one base-36 digit per cell"))?;
            classes.push(ClassRecord {
                buckets,
                bound: value,
                pieces: Vec::new(),
            });
            continue;
        }
        let (forced, head) = match head.split_once('.') {
            Some((forced, rest)) if magic != MAGIC_1 => (forced.len(), format!("{forced}{rest}")),
            _ => (0, head.to_string()),
        };
        let letters = crate::prove::letter_values(&head)
            .filter(|l| l.len() <= shape.cells())
            .ok_or_else(|| {
                bad(
                    n,
                    "a piece is up to one letter a-z per cell, forced ones before a '.'",
                )
            })?;
        let class = classes
            .last_mut()
            .ok_or_else(|| bad(n, "a piece before any class"))?;
        class.pieces.push(Discarded {
            letters,
            forced,
            bound: value,
        });
    }
    Err(bad(last, "no 'end' line: the certificate is cut short"))
}

/// What [`verify`] checked.
#[derive(Clone, Debug)]
pub struct Verified {
    /// Classes checked.
    pub classes: usize,
    /// Pieces checked.
    pub pieces: usize,
    /// Boards at or above the target, up to symmetry, best first.
    pub boards: Vec<(String, u32)>,
}

/// Re-checks a certificate against `trie` (see the module docs); the
/// first failure is the error.
pub fn verify(trie: &Trie, certificate: &Certificate) -> Result<Verified, BoggleError> {
    let fingerprint = (trie.words(), dictionary_fingerprint(trie));
    if fingerprint != certificate.dictionary {
        return Err(BoggleError::Config(format!(
            "the certificate was made with another dictionary ({} words, fingerprint {:016x}; \
             this one: {} words, {:016x})",
            certificate.dictionary.0, certificate.dictionary.1, fingerprint.0, fingerprint.1
        )));
    }
    let shape = &certificate.shape;
    let expected = top_classes(shape, &certificate.buckets)?;
    let listed: Vec<&[u8]> = certificate
        .classes
        .iter()
        .map(|c| c.buckets.as_slice())
        .collect();
    if listed != expected.iter().map(Vec::as_slice).collect::<Vec<_>>() {
        return Err(BoggleError::Config(format!(
            "the certificate lists {} classes, not the {} top-level classes up to symmetry",
            listed.len(),
            expected.len()
        )));
    }
    // Checks the shape and dictionary; each class then takes its order.
    let builder = OrderlyBuilder::new(trie, shape, &split_order(shape))?;
    let boards: Vec<Vec<(Vec<u8>, u32)>> = certificate
        .classes
        .par_iter()
        .map_init(
            || Worker::new(&builder, trie, shape.cells()),
            |worker, class| check_class(certificate, worker, class),
        )
        .collect::<Result<_, _>>()?;
    let boards = boards_up_to_symmetry(shape, boards.into_iter().flatten());
    Ok(Verified {
        classes: certificate.classes.len(),
        pieces: certificate.classes.iter().map(|c| c.pieces.len()).sum(),
        boards,
    })
}

/// Checks one class; returns its boards at or above the target.
fn check_class(
    certificate: &Certificate,
    worker: &mut Worker,
    class: &ClassRecord,
) -> Result<Vec<(Vec<u8>, u32)>, BoggleError> {
    let Worker {
        builder,
        tree,
        bound: evaluator,
        scorer,
        ..
    } = worker;
    let shape = &certificate.shape;
    let fail =
        |why: String| BoggleError::Config(format!("class {}: {why}", class_digits(&class.buckets)));
    let sets: Vec<u32> = (0..shape.cells())
        .map(|cell| {
            certificate
                .buckets
                .sets_of(shape, cell)
                .get(class.buckets[cell] as usize)
                .copied()
                .ok_or_else(|| fail(format!("cell {cell} names a bucket that does not exist")))
        })
        .collect::<Result<_, _>>()?;
    builder.reorder(&certificate.order.of_class(shape, &sets));
    let order = builder.order();
    let bound = builder.build(&sets, tree);
    if bound != class.bound {
        return Err(fail(format!(
            "bound {bound}, the certificate says {}",
            class.bound
        )));
    }
    if bound < certificate.target {
        return if class.pieces.is_empty() {
            Ok(Vec::new())
        } else {
            Err(fail("pieces under a class already below the target".into()))
        };
    }
    // The pieces, depth first, must cover the class: a piece is taken when
    // the prefix matches it, else the prefix is split on its next cell.
    let position_sets: Vec<u32> = order.iter().map(|&cell| sets[cell]).collect();
    let mut next = 0;
    let mut prefix = Vec::new();
    cover(&position_sets, &class.pieces, &mut next, &mut prefix)
        .then_some(())
        .filter(|_| next == class.pieces.len())
        .ok_or_else(|| {
            fail(format!(
                "the pieces do not cover the class (at piece {next})"
            ))
        })?;
    let mut boards = Vec::new();
    let mut board = vec![0u8; shape.cells()];
    // The letters forced on `tree` now, each with what undoes it.
    let mut forced: Vec<(u8, Unforce)> = Vec::new();
    for piece in &class.pieces {
        let letters = letter_text(&piece.letters);
        if piece.letters.len() == shape.cells() {
            place_in_order(order, piece.letters.iter().copied(), &mut board);
            // A board's piece holds its score when it reached the target, else
            // its orderly bound; either way the score decides.
            let score = scorer.score_letters(shape, &board);
            let target = certificate.target;
            if (piece.bound >= target && score != piece.bound)
                || (piece.bound < target && score >= target)
            {
                return Err(fail(format!(
                    "board {letters} scores {score}; the certificate says {}",
                    piece.bound
                )));
            }
            if score >= target {
                boards.push((board.clone(), score));
            }
            continue;
        }
        // From scratch on the class's tree, which bounds a subclass exactly
        // as the subclass's own tree would (see the module docs), with the
        // piece's forced letters forced on it: undo those of the last
        // piece it does not share, force the rest.
        let wanted = &piece.letters[..piece.forced];
        let shared = forced
            .iter()
            .zip(wanted)
            .take_while(|((have, _), want)| have == *want)
            .count();
        for (_, saved) in forced.drain(shared..).rev() {
            tree.unforce(saved);
        }
        for (position, &letter) in wanted.iter().enumerate().skip(shared) {
            forced.push((letter, tree.force(position as u32, letter).1));
        }
        let bound = evaluator.bound_of(tree, &piece.letters);
        if bound != piece.bound || bound >= certificate.target {
            return Err(fail(format!(
                "subclass {letters}: bound {bound} (certificate: {}, target {})",
                piece.bound, certificate.target
            )));
        }
    }
    Ok(boards)
}

/// Whether pieces from `*next` on cover the subclass `prefix` (letters of
/// the first positions), consuming them.
fn cover(sets: &[u32], pieces: &[Discarded], next: &mut usize, prefix: &mut Vec<u8>) -> bool {
    if pieces.get(*next).is_some_and(|p| p.letters == *prefix) {
        *next += 1;
        return true;
    }
    let depth = prefix.len();
    if depth == sets.len() {
        return false;
    }
    let mut letters = sets[depth];
    while letters != 0 {
        prefix.push(letters.trailing_zeros() as u8);
        letters &= letters - 1;
        let covered = cover(sets, pieces, next, prefix);
        prefix.pop();
        if !covered {
            return false;
        }
    }
    true
}
