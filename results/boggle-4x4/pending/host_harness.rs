#[test]
fn host_harness() {
    use crate::handover::{ArenaPool, Handover, Split, FLUSH_WORDS};
    use crate::prove::{prove_split, Buckets, ProofSettings}; use crate::orderly::SplitOrder;
    let n: usize = std::env::var("N").ok().and_then(|s| s.parse().ok()).unwrap_or(16);
    let bytes = std::fs::read("/work/main/data/boggle/enable2k.txt").unwrap();
    let list = crate::WordList::parse(&bytes);
    let trie = crate::Trie::build(&list);
    let settings = ProofSettings {
        shape: crate::Shape::new(4, 4),
        target: 3500,
        buckets: Buckets::parse("aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz").unwrap(),
        max_seconds: None,
        certificate: false,
        sample: Some((n, 1)),
        share: None,
        switchover: Some(16000),
        order: SplitOrder::Cost,
    };
    let pool = ArenaPool::default();
    let sink = |h: Handover| pool.give(h.tree.into_arena());
    let depth: usize = std::env::var("DEPTH").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    let split = Split { depth, deeper: None, sink: &sink, pool: &pool, flush_words: FLUSH_WORDS, trees: None, forces: None };
    let t = std::time::Instant::now();
    let p = prove_split(&trie, &settings, &|_, _| {}, Some(&split), None).unwrap();
    eprintln!("HARNESS depth {depth} {} classes {:.1} s subclasses {} phases {:?}", p.classes, t.elapsed().as_secs_f64(), p.subclasses, p.host_phases);
    let ph = p.host_phases;
    eprintln!("HARNESS walk and the rest {:.2} s", p.class_seconds.iter().sum::<f64>() - ph.build - ph.merges - ph.handovers);
}
