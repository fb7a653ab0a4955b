//! An independent check of a Wordle decision tree: every answer is played
//! through it with the feedback rule ([`feedback`]) and the hard-mode rule
//! over the whole history ([`hard_mode_allows`]), nothing else. It shares
//! no bound, shortcut, memo or state summary with the decision executor,
//! so a proof's tree that passes here is a real tree of the claimed total.
//!
//! Two formats are read: frontier's JSON (`{"guess": "salet", "next":
//! {"..y.g": {…}}}`, written by `frontier wordle prove --tree-json`) and the
//! plain-text trees of Alex Selby's `wordle` repository, one line per
//! answer: `salet BBBBB1 courd BBYBB2 …  GGGGG4`, each guess followed by its
//! feedback (`B` grey, `Y` yellow, `G` green) and its number, a line's
//! leading spaces standing for the line above up to that column.

use std::collections::{BTreeMap, HashSet};

use crate::game::{feedback, hard_mode_allows, pattern, FeedbackTable, ALL_GREEN};
use crate::words::Word;

/// A guessing policy as a tree: the guess at each node and, for each
/// feedback other than all-green, the node it leads to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// Nodes; 0 is the root.
    nodes: Vec<Node>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Node {
    /// `None` only while a text tree is being read.
    guess: Option<Word>,
    next: BTreeMap<u8, usize>,
}

/// The rules a tree is checked under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Hard mode: every guess keeps the greens and reuses revealed letters.
    pub hard: bool,
    /// Guesses allowed per answer (`None`: no limit).
    pub max_guesses: Option<u8>,
}

/// What a tree that passed does over the answer list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Answers played.
    pub answers: usize,
    /// Guesses over all answers.
    pub total: u32,
    /// `distribution[k]`: answers found with guess `k + 1`.
    pub distribution: Vec<usize>,
    /// Branches of the tree no answer reaches (a tree made for a longer
    /// answer list has some; they are not checked).
    pub unreached: usize,
}

/// Why a tree fails: every problem found, one line each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// One line per problem, in answer order.
    pub problems: Vec<String>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const SHOWN: usize = 10;
        for line in self.problems.iter().take(SHOWN) {
            writeln!(f, "{line}")?;
        }
        if self.problems.len() > SHOWN {
            writeln!(f, "… and {} more", self.problems.len() - SHOWN)?;
        }
        Ok(())
    }
}

/// A tree file that does not parse, with the line (1-based) where it fails.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if *line > 0 { format!("line {line}: ") } else { String::new() })]
pub struct ParseError {
    /// The line, from 1 (0 where the message names its own place: JSON
    /// nodes by their path from the root).
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl Policy {
    /// A policy of one node per decision of `tree` (guess indices of
    /// `table`, as the decision executor returns them).
    pub fn from_tree(
        table: &FeedbackTable,
        tree: &frontier_core::decision::Tree<usize, u8>,
    ) -> Policy {
        fn add(
            table: &FeedbackTable,
            tree: &frontier_core::decision::Tree<usize, u8>,
            nodes: &mut Vec<Node>,
        ) -> usize {
            let me = nodes.len();
            nodes.push(Node {
                guess: Some(table.guesses[tree.action]),
                next: BTreeMap::new(),
            });
            for (code, child) in &tree.children {
                let them = add(table, child, nodes);
                nodes[me].next.insert(*code, them);
            }
            me
        }
        let mut nodes = Vec::new();
        add(table, tree, &mut nodes);
        Policy { nodes }
    }

    /// Reads frontier's JSON tree: `{"guess": "salet", "next": {"..y.g":
    /// {…}}}`, patterns as `frontier wordle` writes them (`g`, `y`, `.`).
    pub fn from_json(text: &str) -> Result<Policy, ParseError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ParseError {
            line: e.line(),
            message: format!("not JSON: {e}"),
        })?;
        let mut nodes = Vec::new();
        json_node(&value, "the root", &mut nodes)?;
        Ok(Policy { nodes })
    }

    /// Reads a plain-text tree (Selby's format, see the module docs).
    pub fn from_text(text: &str) -> Result<Policy, ParseError> {
        let mut nodes = vec![Node::default()];
        // The tokens of the line above, with their columns, to fill in the
        // part of a line its leading spaces stand for.
        let mut above: Vec<(usize, String)> = Vec::new();
        let mut paths = 0usize;
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let fail = |message: String| ParseError {
                line: number,
                message,
            };
            if line.trim().is_empty() {
                continue;
            }
            let tokens = columns(line);
            let first_column = tokens[0].0;
            let mut path: Vec<(usize, String)> = above
                .iter()
                .filter(|(column, _)| *column < first_column)
                .cloned()
                .collect();
            if first_column > 0 && path.is_empty() {
                return Err(fail("indented, but no line above to continue".into()));
            }
            path.extend(tokens);
            let steps = steps(&path).map_err(fail)?;
            let mut node = 0usize;
            for (turn, (word, code, number_written)) in steps.iter().enumerate() {
                if *number_written != turn + 1 {
                    return Err(fail(format!(
                        "{word} is guess {} of its line but is numbered {number_written}",
                        turn + 1
                    )));
                }
                match nodes[node].guess {
                    None => nodes[node].guess = Some(*word),
                    Some(there) if there != *word => {
                        return Err(fail(format!(
                            "guess {} is {word}, but an earlier line with the same feedback so far guesses {there}: not a tree",
                            turn + 1
                        )))
                    }
                    Some(_) => {}
                }
                if *code == ALL_GREEN {
                    if turn + 1 != steps.len() {
                        return Err(fail(format!("{word} is all green but the line goes on")));
                    }
                    break;
                }
                if turn + 1 == steps.len() {
                    return Err(fail(format!(
                        "the line ends with {word} {} instead of all green",
                        pattern(*code)
                    )));
                }
                node = match nodes[node].next.get(code) {
                    Some(&child) => child,
                    None => {
                        nodes.push(Node::default());
                        let child = nodes.len() - 1;
                        nodes[node].next.insert(*code, child);
                        child
                    }
                };
            }
            paths += 1;
            above = path;
        }
        if paths == 0 {
            return Err(ParseError {
                line: 0,
                message: "no tree lines".into(),
            });
        }
        Ok(Policy { nodes })
    }

    /// Reads either format: JSON when the text starts with `{`.
    pub fn parse(text: &str) -> Result<Policy, ParseError> {
        if text.trim_start().starts_with('{') {
            Policy::from_json(text)
        } else {
            Policy::from_text(text)
        }
    }

    /// The first guess.
    pub fn first_guess(&self) -> Option<Word> {
        self.nodes.first().and_then(|n| n.guess)
    }
}

/// The nodes of a JSON subtree, appended to `nodes`; returns its root.
fn json_node(
    value: &serde_json::Value,
    place: &str,
    nodes: &mut Vec<Node>,
) -> Result<usize, ParseError> {
    let fail = |message: String| ParseError { line: 0, message };
    let object = value
        .as_object()
        .ok_or_else(|| fail(format!("{place}: expected an object with a \"guess\"")))?;
    if let Some(key) = object.keys().find(|k| *k != "guess" && *k != "next") {
        return Err(fail(format!("{place}: unknown field \"{key}\"")));
    }
    let guess: Word = object
        .get("guess")
        .and_then(|g| g.as_str())
        .ok_or_else(|| fail(format!("{place}: no \"guess\" string")))?
        .parse()
        .map_err(|e| fail(format!("{place}: {e}")))?;
    let me = nodes.len();
    nodes.push(Node {
        guess: Some(guess),
        next: BTreeMap::new(),
    });
    if let Some(next) = object.get("next") {
        let next = next
            .as_object()
            .ok_or_else(|| fail(format!("{place}: \"next\" is not an object")))?;
        for (text, child) in next {
            let code = crate::game::parse_pattern(text)
                .map_err(|e| fail(format!("after {guess} ({place}): {e}")))?;
            if code == ALL_GREEN {
                return Err(fail(format!(
                    "after {guess} ({place}): all green ends the game and has no next guess"
                )));
            }
            let child = json_node(child, &format!("{place} → {guess} {text}"), nodes)?;
            nodes[me].next.insert(code, child);
        }
    }
    Ok(me)
}

/// Each token of a line with the column it starts at.
fn columns(line: &str) -> Vec<(usize, String)> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                tokens.push((s, line[s..i].to_string()));
                start = None;
            }
            _ => {}
        }
    }
    tokens
}

/// A whole line's tokens as (guess, feedback, number written) steps.
fn steps(path: &[(usize, String)]) -> Result<Vec<(Word, u8, usize)>, String> {
    if !path.len().is_multiple_of(2) {
        return Err(
            "expected pairs of a guess and its feedback with a number (salet BBYGB1)".into(),
        );
    }
    path.chunks(2)
        .map(|pair| {
            let word: Word = pair[0].1.parse().map_err(|e| format!("{e}"))?;
            let mark = &pair[1].1;
            let (colours, digits) = mark.split_at(mark.len().min(5));
            let mut code = 0u8;
            for c in colours.chars().rev() {
                code = code * 3
                    + match c {
                        'G' => 2,
                        'Y' => 1,
                        'B' => 0,
                        _ => {
                            return Err(format!(
                            "'{mark}' after {word}: expected five of B, Y, G and the guess number"
                        ))
                        }
                    };
            }
            let number: usize = digits
                .parse()
                .ok()
                .filter(|_| colours.len() == 5)
                .ok_or_else(|| {
                    format!("'{mark}' after {word}: expected five of B, Y, G and the guess number")
                })?;
            Ok((word, code, number))
        })
        .collect()
}

/// Plays every answer of `table` through `policy` under `rules`: each
/// guess must be in the guess list and, in hard mode, allowed by the whole
/// history; each answer must be found within the limit. Returns the total
/// and distribution, or every problem found.
pub fn verify(table: &FeedbackTable, policy: &Policy, rules: Rules) -> Result<Report, Failure> {
    let allowed: HashSet<Word> = table.guesses.iter().copied().collect();
    let mut problems = Vec::new();
    let mut reached = vec![false; policy.nodes.len()];
    let mut distribution = Vec::new();
    let mut total = 0u32;
    if policy.nodes.is_empty() {
        return Err(Failure {
            problems: vec!["the tree is empty".into()],
        });
    }
    for &answer in &table.answers {
        let mut history: Vec<(Word, u8)> = Vec::new();
        let mut node = 0usize;
        let said = |history: &[(Word, u8)]| {
            if history.is_empty() {
                "at the start".to_string()
            } else {
                let steps: Vec<String> = history
                    .iter()
                    .map(|(g, c)| format!("{g} {}", pattern(*c)))
                    .collect();
                format!("after {}", steps.join(", "))
            }
        };
        loop {
            reached[node] = true;
            let Some(guess) = policy.nodes[node].guess else {
                problems.push(format!(
                    "{answer}: {} the tree has no guess",
                    said(&history)
                ));
                break;
            };
            let turn = history.len() + 1;
            if !allowed.contains(&guess) {
                problems.push(format!(
                    "{answer}: guess {turn}, {guess} ({}), is not in the guess list",
                    said(&history)
                ));
                break;
            }
            if rules.hard && !hard_mode_allows(&history, guess) {
                problems.push(format!(
                    "{answer}: guess {turn}, {guess} ({}), breaks hard mode's rule",
                    said(&history)
                ));
                break;
            }
            if rules.max_guesses.is_some_and(|max| turn > usize::from(max)) {
                problems.push(format!(
                    "{answer}: not found within {} guesses ({})",
                    turn - 1,
                    said(&history)
                ));
                break;
            }
            let code = feedback(guess, answer);
            if code == ALL_GREEN {
                if distribution.len() < turn {
                    distribution.resize(turn, 0);
                }
                distribution[turn - 1] += 1;
                total += turn as u32;
                break;
            }
            history.push((guess, code));
            match policy.nodes[node].next.get(&code) {
                Some(&child) => node = child,
                None => {
                    problems.push(format!(
                        "{answer}: {} the tree has no next guess",
                        said(&history)
                    ));
                    break;
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(Failure { problems });
    }
    Ok(Report {
        answers: table.answers.len(),
        total,
        distribution,
        unreached: reached.iter().filter(|&&r| !r).count(),
    })
}
