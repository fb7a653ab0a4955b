//! Wordle's feedback and what it leaves: guesses against a hidden answer,
//! the candidates narrowed after each: `cargo run -p frontier-wordle
//! --example feedback [ANSWER] [GUESS…]`. Candidates are the five-letter
//! words of the word list shipped in `data/` (the game's lists are not
//! shipped; `frontier wordle` takes them by path).

use frontier_wordle::{feedback, pattern, Word, WordList};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let answer: Word = args.next().unwrap_or_else(|| "lemon".into()).parse()?;
    let mut guesses: Vec<Word> = args.map(|g| g.parse()).collect::<Result<_, _>>()?;
    if guesses.is_empty() {
        guesses = vec!["salet".parse()?, "corny".parse()?];
    }
    let path =
        frontier_core::data::find("boggle/enable2k.txt").ok_or("no data/boggle/enable2k.txt")?;
    let mut candidates = WordList::parse(&std::fs::read_to_string(path)?).words;
    println!("{} candidates", candidates.len());
    for guess in guesses {
        let code = feedback(guess, answer);
        // The answer gives `code`; so does every word still possible.
        candidates.retain(|&w| feedback(guess, w) == code);
        println!(
            "{guess} → {}: {} candidates left",
            pattern(code),
            candidates.len()
        );
    }
    assert!(candidates.contains(&answer));
    Ok(())
}
