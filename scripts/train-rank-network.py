#!/usr/bin/env python3
"""Trains a network rank for `frontier --rank-network FILE` (tiles).

    scripts/train-rank-network.py DATA OUT [--hidden 16] [--epochs 6]
        [--l2 1e-4] [--alpha 0.01] [--seed 2]

DATA is what `frontier tiles fit-rank … --network-data DATA` writes (path
states and their siblings: frontier_tiles::network_data). The network is
frontier_tiles::network_rank's:

    rank = c + lin·f + Σ_j out_j · relu(bias_j + Σ_cells table[tile][cell]_j + (mix·f)_j)

The linear part starts from the least-squares fit of the path states'
remaining lengths; then everything is trained (Adam) so that each path
state ranks ahead of its siblings, and its cousins where DATA has them
(`--network-cousins`; a logistic loss on the difference, as a beam keeps a
layer's best), plus ALPHA times the squared error on the
remaining lengths to keep the scale. The last tenth of the paths is held
out (`--held-out K`: the last K): each epoch prints the share of its (path
state, sibling or cousin) pairs ordered right. Needs numpy. Weights are trained on normalised features and written
for raw ones (the normalisation folded into mix, bias and lin).
"""
import argparse
import sys

import numpy as np


def read(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
    if header[:4] != ["kind", "path", "depth", "remaining"]:
        sys.exit(f"{path}: not a file of `frontier tiles fit-rank --network-data`")
    cells = sum(1 for h in header if h.startswith("c"))
    rows = np.genfromtxt(path, delimiter=",", skip_header=1, dtype=str)
    if rows.ndim != 2 or len(rows) == 0:
        sys.exit(f"{path}: no rows")
    kind = rows[:, 0]
    numbers = rows[:, 1:].astype(np.int64)
    return kind, numbers, cells


def drop_wandering_paths(kind, numbers, name):
    """Leaves out the paths far longer than the rest (Tukey's far-out rule on the
    lengths: past the upper quartile plus three interquartile ranges). A beam that
    wandered (a 48-puzzle beam of 4,000 walked 4,602 moves where the median was 317)
    gives remaining lengths that say nothing of its states, and one such path can
    outweigh all the others in the least-squares start."""
    path_of, depth = numbers[:, 0], numbers[:, 1]
    length = np.zeros(path_of.max() + 1, dtype=np.int64)
    np.maximum.at(length, path_of, depth)
    q1, q3 = np.percentile(length, [25, 75])
    limit = q3 + 3 * (q3 - q1)
    long_paths = np.nonzero(length > limit)[0]
    if len(long_paths) == 0:
        return kind, numbers
    print(f"{name}: left out {len(long_paths)} of {len(length)} paths longer than {limit:.0f} moves "
          f"(lengths {', '.join(str(length[p]) for p in long_paths)})", flush=True)
    keep = ~np.isin(path_of, long_paths)
    return kind[keep], numbers[keep]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--alpha", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--held-out", type=int, default=None, metavar="K",
                    help="hold out the last K paths (default: the last tenth), so that runs on "
                         "files of different sizes that end alike are judged on the same paths")
    args = ap.parse_args()
    if not 1 <= args.hidden <= 64:
        sys.exit("--hidden: 1 to 64 units (the kernel keeps their sums in registers)")

    kind, numbers, cells = read(args.data)
    kind, numbers = drop_wandering_paths(kind, numbers, args.data)
    path_of, depth, remaining = numbers[:, 0], numbers[:, 1], numbers[:, 2].astype(float)
    tiles = numbers[:, 3:3 + cells]
    F = numbers[:, 3 + cells:].astype(float)
    is_path = kind == "path"
    where = {(p, d): i for i, (p, d) in enumerate(zip(path_of, depth)) if is_path[i]}
    siblings = np.nonzero(~is_path)[0]
    partner = np.array([where[(path_of[i], depth[i])] for i in siblings], dtype=np.int64)
    if args.held_out is None:
        held_from = int(path_of.max() * 0.9)
    elif 0 < args.held_out <= path_of.max():
        held_from = int(path_of.max()) + 1 - args.held_out
    else:
        sys.exit(f"--held-out {args.held_out}: give 1 to {path_of.max()} (the paths less one)")
    held_rows = path_of >= held_from
    train_paths = np.nonzero(is_path & ~held_rows)[0]
    train_pairs = np.nonzero(~held_rows[siblings])[0]
    held_pairs = np.nonzero(held_rows[siblings])[0]
    if len(train_paths) == 0 or len(train_pairs) == 0:
        sys.exit(f"{args.data}: too few paths to train on (the last tenth is held out)")

    H, nf = args.hidden, F.shape[1]
    slot = tiles * cells + np.arange(cells)  # the table's row for each (tile, cell)
    mu = F[train_paths].mean(0)
    sd = F[train_paths].std(0) + 1e-6
    Fn = (F - mu) / sd
    X = np.c_[Fn[train_paths], np.ones(len(train_paths))]
    lin, *_ = np.linalg.lstsq(X, remaining[train_paths], rcond=None)
    rng = np.random.default_rng(args.seed)
    params = [
        rng.normal(0, 0.01, (cells * cells, H)),  # table
        rng.normal(0, 0.1, (nf, H)),              # mix
        np.zeros(H),                              # bias
        rng.normal(0, 0.01, H),                   # out
        lin[:-1].copy(),                          # lin (normalised features)
        np.array([lin[-1]]),                      # constant
    ]

    def forward(r):
        table, mix, bias, out, linw, const = params
        a = table[slot[r]].sum(1) + Fn[r] @ mix + bias
        z = np.maximum(a, 0)
        return a, z, z @ out + Fn[r] @ linw + const[0]

    def gradients(r, g):  # g: d loss / d rank, per row
        table, mix, bias, out, linw, const = params
        a, z, _ = forward(r)
        ga = np.outer(g, out) * (a > 0)
        gt = np.zeros_like(table)
        np.add.at(gt, slot[r].ravel(), np.repeat(ga, cells, axis=0))
        return [gt, Fn[r].T @ ga, ga.sum(0), z.T @ g, Fn[r].T @ g, np.array([g.sum()])]

    def ordered(pairs):
        _, _, p = forward(np.arange(len(kind)))
        x = p[partner[pairs]] - p[siblings[pairs]]
        return (x < 0).mean() + 0.5 * (x == 0).mean(), p

    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step, rate, batch = 0, 2e-3, 512
    order = train_pairs.copy()
    for epoch in range(args.epochs):
        rng.shuffle(order)
        for k in range(0, len(order), batch):
            pick = order[k:k + batch]
            rc, rs = partner[pick], siblings[pick]
            _, _, pc = forward(rc)
            _, _, ps = forward(rs)
            sig = 1 / (1 + np.exp(-(pc - ps)))
            rp = rng.choice(train_paths, batch)
            _, _, pp = forward(rp)
            gp = args.alpha * 2 * (pp - remaining[rp]) / batch
            G = [a + b + c for a, b, c in zip(gradients(rc, sig / len(pick)),
                                              gradients(rs, -sig / len(pick)),
                                              gradients(rp, gp))]
            for i in (0, 1, 3):
                G[i] += args.l2 * params[i]
            step += 1
            for i, g in enumerate(G):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                params[i] -= rate * (m[i] / (1 - 0.9 ** step)) / (np.sqrt(v[i] / (1 - 0.999 ** step)) + 1e-8)
        train_share, p = ordered(train_pairs)
        held = f"{ordered(held_pairs)[0]:.4f}" if len(held_pairs) else "-"
        held_paths = is_path & held_rows
        rmse = np.sqrt(np.mean((p[held_paths] - remaining[held_paths]) ** 2)) if held_paths.any() else float("nan")
        print(f"epoch {epoch + 1}: pairs ordered right: trained on {train_share:.4f}, held out {held}; "
              f"held-out remaining length RMSE {rmse:.3f}", flush=True)

    table, mix, bias, out, linw, const = params
    # Raw features: f_n = (f - mu) / sd.
    mix_raw = mix / sd[:, None]
    bias_raw = bias - (mu / sd) @ mix
    lin_raw = linw / sd
    const_raw = const[0] - lin_raw @ mu
    with open(args.out, "w") as f:
        f.write(f"# scripts/train-rank-network.py {args.data}: {H} hidden units, {nf} features, {cells} cells\n")
        f.write(f"{H} {nf}\n")
        for arr in [table.ravel(), mix_raw.ravel(), bias_raw, out, np.r_[lin_raw, const_raw]]:
            f.write(" ".join(f"{x:.6g}" for x in arr) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
