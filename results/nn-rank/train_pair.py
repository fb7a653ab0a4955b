# Pairwise (path child before its siblings) + MSE; usage: train_pair.py OUT H EPOCHS L2 ALPHA
import sys, os, numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nnfile import write_network
out, H, EPOCHS, L2, ALPHA = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
import os; D = os.environ.get("DATA", "400"); d = np.loadtxt(f"d{D}.csv", delimiter=","); s = np.loadtxt(f"s{D}.csv", delimiter=",")
bd = np.r_[0, np.cumsum(np.diff(d[:, 0]) > 0)]; bs = np.r_[0, np.cumsum(np.diff(-s[:, 0]) > 0)]
key = {(int(b), int(r)): i for i, (b, r) in enumerate(zip(bd, d[:, 0]))}
pc = np.array([key[(int(b), int(-l - 2))] for b, l in zip(bs, s[:, 0])])
cut = int(bs.max() * 0.9)
held_s = bs >= cut; held_d = bd >= cut
rows = np.r_[d, s]; y = rows[:, 0].copy(); y[len(d):] = -y[len(d):]
F = rows[:, 37:]; nf = F.shape[1]
idx = rows[:, 1:37].astype(int) * 36 + np.arange(36)
mu, sd = F[:len(d)][~held_d].mean(0), F[:len(d)][~held_d].std(0) + 1e-6
Fn = (F - mu) / sd
X = np.c_[F[:len(d)], np.ones(len(d))]
lin, *_ = np.linalg.lstsq(X[~held_d], d[~held_d, 0], rcond=None)
rng = np.random.default_rng(2)
W1 = rng.normal(0, 0.01, (1296, H)); U = rng.normal(0, 0.1, (nf, H)); b1 = np.zeros(H); w2 = rng.normal(0, 0.01, H)
linw = lin[:-1] * sd; linb = lin[-1] + lin[:-1] @ mu  # linear on normalised features
params = [W1, U, b1, w2, linw, np.array([linb])]
m = [np.zeros_like(p) for p in params]; v = [np.zeros_like(p) for p in params]
t = 0; lr = 2e-3
def fwd(r):
    a = W1[idx[r]].sum(1) + Fn[r] @ U + b1
    z = np.maximum(a, 0)
    return a, z, z @ w2 + Fn[r] @ linw + params[5][0]
def grads(r, g):  # g = dL/dpred per row
    a, z, _ = fwd(r)
    ga = np.outer(g, w2) * (a > 0)
    gW1 = np.zeros_like(W1); np.add.at(gW1, idx[r].ravel(), np.repeat(ga, 36, axis=0))
    return [gW1, Fn[r].T @ ga, ga.sum(0), z.T @ g, Fn[r].T @ g, np.array([g.sum()])]
def acc(sel):
    _, _, p = fwd(np.arange(len(rows)))
    x = p[pc[sel]] - p[len(d):][sel]
    return (x < 0).mean() + 0.5 * (x == 0).mean(), p
pairs = np.nonzero(~held_s)[0]; paths = np.nonzero(~held_d)[0]
B = 512
for ep in range(EPOCHS):
    rng.shuffle(pairs)
    for k in range(0, len(pairs), B):
        sp = pairs[k:k+B]
        rc, rs = pc[sp], len(d) + sp
        _, _, pcp = fwd(rc); _, _, psp = fwd(rs)
        sig = 1 / (1 + np.exp(-(pcp - psp)))
        gc = sig / len(sp); gs = -sig / len(sp)
        pp = rng.choice(paths, B)
        _, _, ppp = fwd(pp)
        gp = ALPHA * 2 * (ppp - y[pp]) / B
        G = [a + b + c for a, b, c in zip(grads(rc, gc), grads(rs, gs), grads(pp, gp))]
        G[0] += L2 * W1; G[1] += L2 * U; G[3] += L2 * w2
        t += 1
        for i, gr in enumerate(G):
            m[i] = 0.9 * m[i] + 0.1 * gr; v[i] = 0.999 * v[i] + 0.001 * gr * gr
            params[i] -= lr * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)
    a_tr, p = acc(~held_s); a_h, _ = acc(held_s)
    rm = np.sqrt(np.mean((p[:len(d)][held_d] - d[held_d, 0]) ** 2))
    print(f"epoch {ep}: pair acc train {a_tr:.4f} held {a_h:.4f}; held rmse {rm:.3f}", flush=True)
write_network(out, W1, U, b1, w2, linw, params[5][0], mu, sd)
print("written", out)
