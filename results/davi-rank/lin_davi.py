# Linear approximate value iteration over random-walk states; usage: lin_davi.py ITERS FILE...
import sys, numpy as np
iters = int(sys.argv[1]); files = sys.argv[2:]
raw = np.concatenate([np.fromfile(f, dtype=np.uint8).reshape(-1, 5, 72) for f in files])
F = raw[:, :, 36:70].copy().view('<u2').astype(np.float64)  # (N,5,17)
exists = raw[:, :, 70].astype(bool); goal = raw[:, :, 71].astype(bool)
N = len(raw); nf = F.shape[2]
X = np.c_[F[:, 0], np.ones(N)]
C = np.concatenate([F[:, 1:], np.ones((N, 4, 1))], axis=2)  # children
w = np.zeros(nf + 1); w[14] = 1.0
import os
if os.environ.get('W0'): w = np.load(os.environ['W0'])
XtXi = np.linalg.pinv(X.T @ X); C32 = C.astype(np.float32)
val = np.loadtxt('/tmp/nn/d600.csv', delimiter=',', max_rows=20000)
VX = np.c_[val[:, 37:], np.ones(len(val))]; vy = val[:, 0]
for it in range(iters):
    vc = (C32 @ w.astype(np.float32)).astype(np.float64)
    vc[goal[:, 1:]] = 0.0
    vc[~exists[:, 1:]] = np.inf
    y = 1.0 + vc.min(1)
    y[goal[:, 0]] = 0.0
    w_new = XtXi @ (X.T @ y)
    step = np.abs(w_new - w).max(); w = w_new
    if it % 100 == 0 or it == iters - 1:
        r = X @ w - y; pv = VX @ w
        print(f"it {it}: fit rmse {np.sqrt((r*r).mean()):.3f}; mean V {np.mean(X@w):.2f}; on beam paths bias {np.mean(pv-vy):+.2f} rmse {np.sqrt(np.mean((pv-vy)**2)):.2f}; step {step:.4f}", flush=True)
print(",".join(f"{x:.3f}" for x in w[:-1]))
np.save(os.environ.get('WOUT','w.npy'), w)
