import random, sys
side, count, seed, lo, hi = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(seed)
n = side * side
for _ in range(count):
    t = list(range(1, n)) + [0]
    b = n - 1
    for _ in range(rng.randint(lo, hi)):
        r, c = divmod(b, side)
        d = rng.randrange(4)
        nr, nc = r + (-1, 1, 0, 0)[d], c + (0, 0, -1, 1)[d]
        if 0 <= nr < side and 0 <= nc < side:
            o = nr * side + nc
            t[b], t[o] = t[o], 0
            b = o
    print(" ".join(map(str, t)))
