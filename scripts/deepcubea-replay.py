#!/usr/bin/env python3
"""Replays DeepCubeA's own sliding-tile solutions, state by state.

DeepCubeA (github.com/forestagostinelli/DeepCubeA, MIT licence) keeps the paths
it found in results/puzzleN/results.pkl (`paths`: one list of states a board).
This checks each path without trusting DeepCubeA's move names: the first state
is the board of the instance file (made by scripts/deepcubea-tsv.py), each step
swaps the blank with a tile beside it, the last state is the goal (1 2 ... N 0),
and the number of steps is the length the instance file states. With a lower
bound that frontier proved for a board (a cut IDA* row's `lower`, or the
`bound` of its checkpoint), a replayed path of that length is an optimal one.

    python3 scripts/deepcubea-replay.py results.pkl puzzle24.tsv

Prints one line per board whose path fails, then a summary; exits 1 if any
failed. The pickle is read by deepcubea-tsv.py's restricted unpickler.
"""

import importlib.util
import math
import os
import pickle
import sys


def load_tsv_module():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "deepcubea-tsv.py")
    spec = importlib.util.spec_from_file_location("deepcubea_tsv", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def step_is_a_move(before, after, side):
    """True when `after` is `before` with the blank swapped with a neighbour."""
    changed = [i for i in range(len(before)) if before[i] != after[i]]
    if len(changed) != 2:
        return False
    a, b = changed
    if 0 not in (before[a], before[b]) or before[a] != after[b] or before[b] != after[a]:
        return False
    same_row = a // side == b // side
    return (same_row and abs(a - b) == 1) or abs(a - b) == side


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: deepcubea-replay.py results.pkl instances.tsv")
    tsv = load_tsv_module()
    try:
        with open(sys.argv[1], "rb") as f:
            data = tsv._Restricted(f).load()
        with open(sys.argv[2]) as f:
            rows = [line.rstrip("\n").split("\t") for line in f][1:]
    except (OSError, ValueError, KeyError, pickle.UnpicklingError) as e:
        sys.exit(f"deepcubea-replay.py: {e}")
    if not isinstance(data, dict) or "paths" not in data:
        sys.exit(f"deepcubea-replay.py: {sys.argv[1]} holds no `paths`")
    paths = data["paths"]
    failed = 0
    for row in rows:
        if len(row) != 3:
            sys.exit(f"deepcubea-replay.py: {sys.argv[2]}: expected id, tiles, length: {row}")
        board, start, length = int(row[0]), [int(t) for t in row[1].split()], int(row[2])
        side = math.isqrt(len(start))
        goal = list(range(1, len(start))) + [0]
        if board >= len(paths):
            print(f"board {board}: no path in {sys.argv[1]}")
            failed += 1
            continue
        states = [tsv.tiles_of(s) for s in paths[board]]
        why = None
        if states[0] != start:
            why = "starts elsewhere than the instance file's board"
        elif states[-1] != goal:
            why = "does not end on the goal"
        elif len(states) - 1 != length:
            why = f"has {len(states) - 1} steps, the file says {length}"
        else:
            for k, (a, b) in enumerate(zip(states, states[1:])):
                if not step_is_a_move(a, b, side):
                    why = f"step {k + 1} is not a move"
                    break
        if why:
            print(f"board {board}: DeepCubeA's path {why}")
            failed += 1
    print(f"{len(rows) - failed} of {len(rows)} paths replay")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
