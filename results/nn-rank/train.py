# Fits linear + small network (residual) on path states dumped by FRONTIER_NN_DUMP.
# usage: train.py DUMP OUT [HIDDEN] [EPOCHS]
import sys, numpy as np
dump, out = sys.argv[1], sys.argv[2]
H = int(sys.argv[3]) if len(sys.argv) > 3 else 32
EPOCHS = int(sys.argv[4]) if len(sys.argv) > 4 else 30
L2 = float(sys.argv[5]) if len(sys.argv) > 5 else 1e-4
import os
rows = np.loadtxt(dump, delimiter=",")
SIB = os.environ.get("SIBLINGS")
npath = len(rows)
if SIB:
    srows = np.loadtxt(SIB, delimiter=",")
    srows[:, 0] = -srows[:, 0]
    rows = np.r_[rows, srows]
y = rows[:, 0]
cells = rows[:, 1:37].astype(np.int64)
F = rows[:, 37:]
nf = F.shape[1]
# boards: a new board starts where remaining length jumps up
yp = y[:npath]
starts = np.r_[0, np.nonzero(np.diff(yp) > 0)[0] + 1]
nb = len(starts)
rng = np.random.default_rng(1)
val = np.zeros(len(y), dtype=bool)
val[starts[int(nb * 0.9)]:npath] = True
if SIB:
    val[npath + int((len(y) - npath) * 0.9):] = True
tr = ~val
onpath = np.arange(len(y)) < npath
print(f"{len(y)} states, {nb} boards, {val.sum()} held out", flush=True)
# one-hot index: tile * 36 + cell
idx = cells * 1 + 0
idx = (cells * 36 + np.arange(36)[None, :])
# linear least squares with intercept
X = np.c_[F, np.ones(len(y))]
lin, *_ = np.linalg.lstsq(X[tr], y[tr], rcond=None)
base = X @ lin
def rmse(p, m):
    m = m & onpath
    return float(np.sqrt(np.mean((p[m] - y[m]) ** 2)))
print(f"linear: train rmse {rmse(base, tr):.3f}, held out {rmse(base, val):.3f}", flush=True)
mu, sd = F[tr].mean(0), F[tr].std(0) + 1e-6
Fn = (F - mu) / sd
r = y - base
W1 = rng.normal(0, 0.05, (36 * 36, H))
U = rng.normal(0, 0.1, (nf, H))
b1 = np.zeros(H)
w2 = rng.normal(0, 0.05, H)
params = [W1, U, b1, w2]
m = [np.zeros_like(p) for p in params]
v = [np.zeros_like(p) for p in params]
lr, beta1, beta2, t = 3e-3, 0.9, 0.999, 0
def forward(sel):
    a = W1[idx[sel]].sum(1) + Fn[sel] @ U + b1
    z = np.maximum(a, 0)
    return a, z, z @ w2
tri = np.nonzero(tr)[0]
B = 256
for epoch in range(EPOCHS):
    rng.shuffle(tri)
    for s in range(0, len(tri), B):
        sel = tri[s:s + B]
        a, z, p = forward(sel)
        g = 2 * (p - r[sel]) / len(sel)
        gw2 = z.T @ g + L2 * w2
        ga = np.outer(g, w2) * (a > 0)
        gb1 = ga.sum(0)
        gU = Fn[sel].T @ ga + L2 * U
        gW1 = np.zeros_like(W1)
        np.add.at(gW1, idx[sel].ravel(), np.repeat(ga, 36, axis=0))
        gW1 += L2 * W1
        t += 1
        for i, gr in enumerate([gW1, gU, gb1, gw2]):
            m[i] = beta1 * m[i] + (1 - beta1) * gr
            v[i] = beta2 * v[i] + (1 - beta2) * gr * gr
            params[i] -= lr * (m[i] / (1 - beta1 ** t)) / (np.sqrt(v[i] / (1 - beta2 ** t)) + 1e-8)
    _, _, p = forward(np.arange(len(y)))
    print(f"epoch {epoch}: train rmse {rmse(base + p, tr):.3f}, held out {rmse(base + p, val):.3f}", flush=True)
# export: fold the features' normalisation into U and b1
Ue = U / sd[:, None]
b1e = b1 - (mu / sd) @ U
with open(out, "w") as f:
    f.write(f"{H} {nf}\n")
    for arr in [W1.ravel(), Ue.ravel(), b1e, w2, lin]:
        f.write(" ".join(f"{x:.6g}" for x in arr) + "\n")
# check the folded export against the trained forward
_, _, p = forward(np.arange(5))
a = W1[idx[:5]].sum(1) + F[:5] @ Ue + b1e
q = np.maximum(a, 0) @ w2
print("export check (max diff):", float(np.abs(p - q).max()))
print("written", out)
