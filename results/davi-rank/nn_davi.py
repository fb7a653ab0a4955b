# Approximate value iteration for the network rank (nn-rank's shape) over
# random-walk states and their children.
# usage: nn_davi.py OUT H ITERS SAMPLE FILE...   (env W0=linear start .npy)
import sys, os, time, numpy as np
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'nn-rank'))
from nnfile import write_network
out, H, iters, sample = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
files = sys.argv[5:]
raw = np.concatenate([np.fromfile(f, dtype=np.uint8).reshape(-1, 5, 72) for f in files])
N = len(raw)
cells = raw[:, 0, :36].astype(np.int64)
F = raw[:, :, 36:70].copy().view('<u2').astype(np.float32)  # (N,5,17)
exists = raw[:, :, 70].astype(bool); goal = raw[:, :, 71].astype(bool)
nf = F.shape[2]
blank_p = np.argmax(cells == 0, axis=1)
blank_c = np.argmax(raw[:, 1:, :36] == 0, axis=2)  # (N,4); 0 where absent
tile_m = np.take_along_axis(cells, blank_c, axis=1)  # tile that moves
mu = F[:, 0].mean(0); sd = F[:, 0].std(0) + 1e-3
Fn = (F - mu) / sd
rng = np.random.default_rng(3)
w0 = np.load(os.environ['W0']) if os.environ.get('W0') else np.r_[np.eye(nf)[14], 0.0]
linw = (w0[:-1] * sd).astype(np.float32); linb = np.float32(w0[-1] + w0[:-1] @ mu)
W1 = rng.normal(0, 0.01, (1296, H)).astype(np.float32); U = rng.normal(0, 0.1, (nf, H)).astype(np.float32)
b1 = np.zeros(H, np.float32); w2 = np.zeros(H, np.float32)
P = [W1, U, b1, w2, linw, np.array([linb], np.float32)]
m = [np.zeros_like(p) for p in P]; v = [np.zeros_like(p) for p in P]
t = 0; lr = float(os.environ.get('LR', '1e-3')); L2 = 1e-5
base_idx = np.arange(36) 
def acc_of(r, W1):
    return W1[cells[r] * 36 + base_idx].sum(1)
def values(r, Q):  # V of states r and of their 4 children, with params Q
    W1, U, b1, w2, lw, lb = Q
    A = acc_of(r, W1)
    vs = np.maximum(A + Fn[r, 0] @ U + b1, 0) @ w2 + Fn[r, 0] @ lw + lb[0]
    bp = blank_p[r][:, None]; bc = blank_c[r]; tm = tile_m[r]
    Ac = A[:, None, :] - W1[tm * 36 + bc] - W1[bp] + W1[tm * 36 + bp] + W1[bc]
    vc = np.maximum(Ac + Fn[r, 1:] @ U + b1, 0) @ w2 + Fn[r, 1:] @ lw + lb[0]
    return vs, vc
def targets(r, Q):
    _, vc = values(r, Q)
    vc[goal[r, 1:]] = 0.0
    vc[~exists[r, 1:]] = np.inf
    y = 1.0 + vc.min(1)
    y[goal[r, 0]] = 0.0
    return y
val = np.loadtxt('/tmp/nn/d600.csv', delimiter=',', max_rows=20000).astype(np.float32)
vidx = val[:, 1:37].astype(np.int64) * 36 + base_idx; vF = (val[:, 37:] - mu) / sd
def on_paths(Q):
    W1, U, b1, w2, lw, lb = Q
    p = np.maximum(W1[vidx].sum(1) + vF @ U + b1, 0) @ w2 + vF @ lw + lb[0]
    return np.mean(p - val[:, 0]), np.sqrt(np.mean((p - val[:, 0]) ** 2))
B = 2048
t0 = time.time()
for it in range(iters):
    Q = [p.copy() for p in P]
    r = rng.choice(N, sample, replace=False)
    y = targets(r, Q)
    loss = 0.0
    for k in range(0, sample, B):
        rb = r[k:k+B]; yb = y[k:k+B]
        a = acc_of(rb, W1) + Fn[rb, 0] @ U + b1
        z = np.maximum(a, 0)
        pred = z @ w2 + Fn[rb, 0] @ linw + P[5][0]
        g = 2 * (pred - yb) / len(rb); loss += np.sum((pred - yb) ** 2)
        ga = np.outer(g, w2) * (a > 0)
        ix = (cells[rb] * 36 + base_idx).ravel()
        gW1 = np.stack([np.bincount(ix, weights=np.repeat(ga[:, j], 36), minlength=1296) for j in range(H)], 1).astype(np.float32)
        G = [gW1 + L2 * W1, Fn[rb, 0].T @ ga + L2 * U, ga.sum(0), z.T @ g + L2 * w2, Fn[rb, 0].T @ g, np.array([g.sum()], np.float32)]
        t += 1
        for i, gr in enumerate(G):
            m[i] = 0.9 * m[i] + 0.1 * gr; v[i] = 0.999 * v[i] + 0.001 * gr * gr
            P[i] -= (lr * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)).astype(np.float32)
    W1, U, b1, w2, linw = P[:5]
    if it % 5 == 0 or it == iters - 1:
        bias, rm = on_paths(P)
        print(f"it {it}: loss {np.sqrt(loss/sample):.3f}; mean target {y.mean():.2f}; beam paths bias {bias:+.2f} rmse {rm:.2f}; {time.time()-t0:.0f} s", flush=True)
    if it % 20 == 19 or it == iters - 1:
        write_network(out, W1, U, b1, w2, linw, P[5][0], mu, sd)
print("written", out)
