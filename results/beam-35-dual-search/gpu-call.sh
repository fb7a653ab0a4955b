#!/usr/bin/env bash
# The dual search on one GPU: the corner boards forward and as dual instances.
# Carries target/device-lb/frontier and results/beam-35-dual-search.
set -uo pipefail
export XDG_CACHE_HOME=/tmp/frontier-cache
d=results/beam-35-dual-search
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for k in bwd fwd; do
  /usr/bin/time -f "$k %e s" target/device-lb/frontier --quiet run $d/gpu-$k.ron --output "$OUT/gpu-$k.csv" > "$OUT/gpu-$k.log" 2>&1
  tail -n 1 "$OUT/gpu-$k.log"
done
python3 - "$OUT" <<'PY'
import csv, sys, statistics as st
def rows(p):
    return {r['instance']: (int(r['cost']), float(r['seconds'])) for r in csv.DictReader(l for l in open(p) if not l.startswith('#'))}
f, b = rows(sys.argv[1] + '/gpu-fwd.csv'), rows(sys.argv[1] + '/gpu-bwd.csv')
ids = [i for i in f if i in b]
F = [f[i][0] for i in ids]; B = [b[i][0] for i in ids]; M = [min(x, y) for x, y in zip(F, B)]
d = [m - x for m, x in zip(M, F)]
print(len(ids), 'fwd', st.mean(F), 'bwd', st.mean(B), 'min', st.mean(M), 'min-fwd', st.mean(d), '+-', st.stdev(d) / len(d) ** .5)
print('s/board fwd', st.mean(f[i][1] for i in ids), 'bwd', st.mean(b[i][1] for i in ids))
PY
