import numpy as np, sys
rows = [(fi,) + tuple(l.rstrip('\n').split('\t')) for fi, f in enumerate(sys.argv[1:]) for l in open(f)]
ids = np.array([f"{r[0]}:{r[1]}" for r in rows]); depth = np.array([int(r[2]) for r in rows])
on = np.array([int(r[3]) for r in rows]); total = np.array([int(r[4]) for r in rows])
F = np.array([[float(x) for x in r[5:]] for r in rows])
P = on == 1
y = (total - depth)[P].astype(float)
h, mn, conf = F[:, 14], F[:, 15], F[:, 16]
def fit(cols, name):
    X = np.vstack([c[P] for c in cols] + [np.ones(P.sum())]).T
    w = np.linalg.lstsq(X, y, rcond=None)[0]
    r = y - X @ w
    print(f"{name}: R2 {1 - r.var() / y.var():.5f} rmse {r.std():.3f} w {np.round(w, 3)}")
    return w
fit([h], "h")
fit([h, conf], "h, conf")
fit([h, mn, conf], "h, min, conf")
w = fit([F[:, i] for i in range(17)], "all")
# pairs
key_on = {(ids[i], depth[i]): i for i in np.nonzero(P)[0]}
D = np.array([F[key_on[(ids[i], depth[i])]] - F[i] for i in np.nonzero(~P)[0]])
def acc(v):
    s = D @ v
    return (s < 0).mean() + 0.5 * (s == 0).mean()
for k in [0, 1, 1.5, 2, 3]:
    v = np.zeros(17); v[14] = 1; v[16] = k
    print("pair acc h +", k, "conf:", round(acc(v), 4))
print("pair acc all-reg:", round(acc(w[:17]), 4))
