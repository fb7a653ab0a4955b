#!/usr/bin/env python3
"""Issue 43 experiment: a beam's path, then beams restarted from states along it.

A beam of width B keeps, at each layer, the B best children of the whole layer. A beam
restarted from the state s_k at depth k of the first beam's path gives all B places to
s_k's descendants. If k + (the restart's length) is shorter than the first path, the
solution improves. Compared at equal work with one beam of the restarts' total width.

    python3 results/beam-35-restarts/restarts.py BIN TSV FIRST WIDTH FRACTIONS > rows.tsv

$RESTART_ARGS adds arguments to every `frontier solve` (`--executor gpu` for GPU beams).
"""
import json
import os
import subprocess
import sys

BIN, TSV, FIRST, WIDTH = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
FRACTIONS = [float(f) for f in sys.argv[5].split(",")] if len(sys.argv) > 5 else []
ARGS = ["solve", "tiles", "--json", "--heuristic", "5-5-5-5-5-5-5", "--reflect",
        "--rank-conflicts", "--quiet", *os.environ.get("RESTART_ARGS", "").split()]


def beam(tiles, width):
    out = subprocess.run([BIN, *ARGS, "--beam", str(width), " ".join(map(str, tiles))],
                         capture_output=True, text=True, check=True).stdout
    row = json.loads(out.strip().splitlines()[-1])
    return row["path"], row["stats"]["seconds"], row["lower_bound"]


def apply(tiles, move, side):
    """The blank moves one cell: U, D, L or R (the blank's direction)."""
    blank = tiles.index(0)
    r, c = divmod(blank, side)
    dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[move]
    other = (r + dr) * side + (c + dc)
    tiles = list(tiles)
    tiles[blank], tiles[other] = tiles[other], 0
    return tiles


def main():
    rows = [line.rstrip("\n").split("\t") for line in open(TSV)][1:FIRST + 1]
    print("id\tdeepcubea\tbeam\tbest_restart\tbest\tlower\tseconds")
    for ident, text, theirs in rows:
        tiles = [int(t) for t in text.split()]
        side = int(len(tiles) ** 0.5)
        goal = list(range(1, len(tiles))) + [0]
        path, seconds, lower = beam(tiles, WIDTH)
        states = [tiles]
        for move in path:
            states.append(apply(states[-1], move, side))
        assert states[-1] == goal, f"{ident}: the path does not reach the goal"
        best_restart = None
        for fraction in FRACTIONS:
            k = int(len(path) * fraction)
            rest, more, _ = beam(states[k], WIDTH)
            seconds += more
            total = k + len(rest)
            best_restart = total if best_restart is None else min(best_restart, total)
        best = min(len(path), best_restart or len(path))
        print(f"{ident}\t{theirs}\t{len(path)}\t{best_restart}\t{best}\t{lower}\t{seconds:.2f}",
              flush=True)


main()
