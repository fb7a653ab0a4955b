# The network file FRONTIER_RANK_NN reads (nn-rank-experiment.diff): "H NF", then W1,
# U, b1, w2 and the linear part (NF weights and a constant), one line each. The
# trainers work on normalised features, (f - mu) / sd; the file holds raw-feature
# weights, so the normalisation is folded into U, b1 and the linear part here.
import numpy as np

def write_network(path, W1, U, b1, w2, linw, linb, mu, sd):
    H, nf = U.shape[1], U.shape[0]
    Ue = U / sd[:, None]; b1e = b1 - (mu / sd) @ U
    le = np.r_[linw / sd, linb - (linw / sd) @ mu]
    with open(path, "w") as f:
        f.write(f"{H} {nf}\n")
        for arr in [W1.ravel(), Ue.ravel(), b1e, w2, le]:
            f.write(" ".join(f"{x:.6g}" for x in arr) + "\n")
