//! Paths between two states known to lie a given number of moves apart:
//! what lets a search keep a path's states only every few steps (the GPU
//! beam keeps a layer's states only at checkpoints, every layer's parent
//! indices always) and still hand back every state of its path.

use crate::domain::{Cost, Edge, PackedState};

/// The states after `from` up to a state that packs as `to`, exactly
/// `moves` moves whose costs add up to `cost`, found depth first over the
/// sequences of `moves` moves (at most the branching factor to the power
/// `moves`: for short gaps). None when no such path exists.
pub fn path_between<D: PackedState>(
    domain: &D,
    from: &D::State,
    to: &[u32],
    moves: usize,
    cost: Cost,
) -> Option<Vec<D::State>> {
    let mut packed = vec![0u32; domain.packed_words()];
    let mut path: Vec<D::State> = Vec::with_capacity(moves);
    // Per depth, the successors not tried yet (a stack of edge lists).
    let mut pending: Vec<Vec<Edge<D::State, D::Move>>> = Vec::with_capacity(moves);
    let mut spent: Vec<Cost> = Vec::with_capacity(moves);
    if moves == 0 {
        domain.pack(from, &mut packed);
        return (cost == 0 && packed == to).then_some(path);
    }
    let mut first = Vec::new();
    domain.expand(from, &mut first);
    pending.push(first);
    spent.push(0);
    while let Some(edges) = pending.last_mut() {
        let Some(edge) = edges.pop() else {
            pending.pop();
            spent.pop();
            path.pop();
            continue;
        };
        let so_far = *spent.last().unwrap_or(&0);
        let Some(total) = so_far.checked_add(edge.cost).filter(|&t| t <= cost) else {
            continue;
        };
        if pending.len() == moves {
            domain.pack(&edge.state, &mut packed);
            if total == cost && packed == to {
                path.push(edge.state);
                return Some(path);
            }
            continue;
        }
        let mut next = Vec::new();
        domain.expand(&edge.state, &mut next);
        path.push(edge.state);
        pending.push(next);
        spent.push(total);
    }
    None
}
