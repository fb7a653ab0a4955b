//! Stack text either parses to a stack whose packed words decode back to
//! it, or is rejected; arbitrary packed words either decode to a stack that
//! re-encodes to the same words, or are rejected. Nothing panics.
#![no_main]
use frontier_core::{Domain, PackedState};
use frontier_pancake::Pancake;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(stack) = Pancake::parse(&String::from_utf8_lossy(data)) {
        let mut words = vec![0; stack.packed_words()];
        stack.pack(&stack.start(), &mut words);
        assert_eq!(stack.unpack(&words).ok(), Some(stack.start()));
        assert_eq!(Pancake::parse(&stack.text()).ok(), Some(stack));
    }
    let words: Vec<u32> = data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let Ok(stack) = Pancake::parse("5 3 1 2 4 6 7") else { return };
    if let Ok(state) = stack.unpack(&words) {
        let mut again = vec![0; stack.packed_words()];
        stack.pack(&state, &mut again);
        assert_eq!(again, words);
    }
});
