import sys, numpy as np
d = np.loadtxt("d400.csv", delimiter=","); s = np.loadtxt("s400.csv", delimiter=",")
def boards(labels):
    b = np.r_[0, np.cumsum(np.diff(labels) > 0)]
    return b
bd, bs = boards(d[:, 0]), boards(-s[:, 0])
# index of path child: (board, remaining)
key = {(int(b), int(r)): i for i, (b, r) in enumerate(zip(bd, d[:, 0]))}
pc = np.array([key[(int(b), int(-l - 2))] for b, l in zip(bs, s[:, 0])])
held = bs >= int(bs.max() * 0.9)
def load(path):
    t = open(path).read().split()
    H, nf = int(float(t[0])), int(float(t[1])); v = np.array(t[2:], dtype=float); o = 0
    def take(n):
        nonlocal o; a = v[o:o+n]; o += n; return a
    W1 = take(36*36*H).reshape(1296, H); U = take(nf*H).reshape(nf, H); b1 = take(H); w2 = take(H); lin = take(nf+1)
    def f(rows):
        cells = rows[:, 1:37].astype(int); F = rows[:, 37:]
        idx = cells * 36 + np.arange(36)
        a = W1[idx].sum(1) + F @ U + b1
        return np.maximum(a, 0) @ w2 + F @ lin[:-1] + lin[-1]
    return f
def linear(w):
    w = np.array(w)
    return lambda rows: rows[:, 37:] @ w
models = {"h+conf": linear([0]*14 + [1, 0, 1]),
          "lin-it2": linear([0.174,0.129,0.094,-0.011,0.136,0.152,0.132,0.003,0.091,0.121,-0.02,-0.087,0.095,0.143,0.867,0.286,1.47])}
for name in sys.argv[1:]:
    models[name] = load(name)
for name, f in models.items():
    pd, ps = f(d), f(s)
    diff = pd[pc] - ps
    for sel, tag in [(~held, "train"), (held, "held")]:
        x = diff[sel]
        print(f"{name:10s} {tag}: path child ranked better {(x < 0).mean() + 0.5 * (x == 0).mean():.4f}")
