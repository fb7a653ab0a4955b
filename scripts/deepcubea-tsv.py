#!/usr/bin/env python3
"""Turns one of DeepCubeA's sliding-tile test sets into a frontier instance file.

DeepCubeA (github.com/forestagostinelli/DeepCubeA, MIT licence) keeps its test
states in pickles (data/puzzleN/test/data_0.pkl) and its own solution lengths
in results/puzzleN/output.txt. This reads both and writes a TSV that `frontier
run` takes as `instances: File(path: ...)`: columns `id` (DeepCubeA's state
number), `tiles_standard_goal` (its goal is 1 2 ... N 0, frontier's standard
goal) and `deepcubea_length` (its solution's length; frontier ignores the
column, `scripts/deepcubea-kind.sh own-*` compares against it). The files are
not frontier's to ship: fetch them and pass their paths.

    python3 scripts/deepcubea-tsv.py data_0.pkl output.txt > puzzle35.tsv

No numpy is needed: the pickle is read by a restricted unpickler that knows
only the three classes these files hold (the state class, numpy's array
reconstructor and dtype) and refuses any other, so a pickle from elsewhere
cannot run code here.
"""

import pickle
import re
import struct
import sys


class _Captured:
    """Stands in for a class of the pickle: keeps what it was built from."""

    def __init__(self, *args):
        self.args = args
        self.state = None

    def __setstate__(self, state):
        self.state = state


class _NPuzzleState(_Captured):
    pass


class _Array(_Captured):
    pass


class _Dtype(_Captured):
    pass


ALLOWED = {
    ("environments.n_puzzle", "NPuzzleState"): _NPuzzleState,
    ("numpy.core.multiarray", "_reconstruct"): lambda cls, shape, dtype: _Array(),
    ("numpy._core.multiarray", "_reconstruct"): lambda cls, shape, dtype: _Array(),
    ("numpy", "ndarray"): _Array,
    ("numpy", "dtype"): _Dtype,
}

# numpy dtype codes of integer arrays, as struct formats.
FORMATS = {"u1": "B", "i1": "b", "u2": "H", "i2": "h", "u4": "I", "i4": "i", "u8": "Q", "i8": "q"}


class _Restricted(pickle.Unpickler):
    def find_class(self, module, name):
        try:
            return ALLOWED[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(
                f"{module}.{name} is not a class of DeepCubeA's puzzle test files"
            ) from None


def tiles_of(state):
    """The tiles of one NPuzzleState, row by row, 0 for the blank."""
    slots = state.state[1] if isinstance(state.state, tuple) else state.state
    array = slots["tiles"]
    _version, shape, dtype, _fortran, raw = array.state
    code = dtype.args[0]
    if code not in FORMATS:
        raise ValueError(f"tiles of dtype {code!r}: expected an integer array")
    width = struct.calcsize(FORMATS[code])
    count = len(raw) // width
    order = "<" if dtype.state is None or dtype.state[1] in "<|=" else ">"
    return list(struct.unpack(f"{order}{count}{FORMATS[code]}", raw))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: deepcubea-tsv.py data_0.pkl [output.txt] > instances.tsv")
    try:
        with open(sys.argv[1], "rb") as f:
            data = _Restricted(f).load()
        states = data["states"] if isinstance(data, dict) else data
        lengths = []
        if len(sys.argv) == 3:
            with open(sys.argv[2]) as f:
                lengths = [int(float(m)) for m in re.findall(r"SolnCost: ([0-9.]+)", f.read())]
    except OSError as e:
        sys.exit(f"{e.filename}: {e.strerror}")
    except (pickle.UnpicklingError, EOFError, KeyError, TypeError, ValueError) as e:
        sys.exit(f"{sys.argv[1]}: not one of DeepCubeA's puzzle test files ({e})")
        if len(lengths) != len(states):
            sys.exit(f"{sys.argv[2]}: {len(lengths)} solutions for {len(states)} states")
    print("id\ttiles_standard_goal" + ("\tdeepcubea_length" if lengths else ""))
    for i, state in enumerate(states):
        tiles = tiles_of(state)
        cells = len(tiles)
        if sorted(tiles) != list(range(cells)):
            sys.exit(f"state {i}: not a permutation of 0..{cells - 1}")
        row = f"{i}\t{' '.join(map(str, tiles))}"
        print(row + (f"\t{lengths[i]}" if lengths else ""))


if __name__ == "__main__":
    main()
