//! Every word on a 4×4 board with its path, scored, against the word list
//! shipped in `data/`: `cargo run -p frontier-boggle --example words
//! [BOARD] [WORDS.txt]`.

use frontier_boggle::{find_words, Board, Scorer, Trie, WordList};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let board = Board::parse(
        &args.next().unwrap_or_else(|| "perslatgsineters".into()),
        None,
    )?;
    let list_path = match args.next() {
        Some(path) => path.into(),
        None => {
            frontier_core::data::find("boggle/enable2k.txt").ok_or("no data/boggle/enable2k.txt")?
        }
    };
    let trie = Trie::build(&WordList::parse(&std::fs::read(&list_path)?));
    let found = find_words(&trie, &board);
    for word in found.iter().take(10) {
        println!(
            "{:<12} {} points, cells {:?}",
            word.word, word.points, word.path
        );
    }
    // Two solvers that share no code past the trie must agree.
    let score = Scorer::new(&trie).score(&board);
    assert_eq!(score, found.iter().map(|w| w.points).sum::<u32>());
    println!("… {} words, {score} points", found.len());
    Ok(())
}
