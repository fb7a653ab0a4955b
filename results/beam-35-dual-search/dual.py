"""Backward (dual) instances of sliding-tile boards whose blank is in a corner.

s -> G reversed is G -> s. A board symmetry phi moves s's blank to the last
cell; relabelling the tiles so that phi(s) reads as the standard goal turns
phi(G) into a standard instance B with the same optimal (and any) path length.
"""
import sys, random

def sym_for(n, blank):
    w = n
    r, c = divmod(blank, w)
    last = w - 1
    if (r, c) == (last, last):
        return lambda rr, cc: (rr, cc)
    if (r, c) == (0, 0):
        return lambda rr, cc: (last - rr, last - cc)
    if (r, c) == (0, last):
        return lambda rr, cc: (last - rr, cc)
    if (r, c) == (last, 0):
        return lambda rr, cc: (rr, last - cc)
    return None

def dual(s, w):
    n = w * w
    goal = list(range(1, n)) + [0]
    phi = sym_for(w, s.index(0))
    if phi is None:
        return None
    def phicell(cell):
        r, c = divmod(cell, w)
        rr, cc = phi(r, c)
        return rr * w + cc
    s2 = [None] * n
    g2 = [None] * n
    for cell in range(n):
        s2[phicell(cell)] = s[cell]
        g2[phicell(cell)] = goal[cell]
    lam = {}
    for cell in range(n):
        lam[s2[cell]] = goal[cell]
    assert lam[0] == 0
    return [lam[t] for t in g2]

if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "tsv":
        w = int(sys.argv[3])
        out_f = open(sys.argv[4], "w"); out_b = open(sys.argv[5], "w")
        for f in (out_f, out_b):
            f.write("id\ttiles_standard_goal\tdeepcubea_length\n")
        for line in open(sys.argv[2]).read().splitlines()[1:]:
            i, board, length = line.split("\t")
            s = [int(x) for x in board.split()]
            b = dual(s, w)
            if b is None:
                continue
            out_f.write(f"{i}\t{board}\t{length}\n")
            out_b.write(f"{i}\t{' '.join(map(str, b))}\t{length}\n")
