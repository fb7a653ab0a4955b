#!/usr/bin/env bash
# Issue 43 (fifty-fourth session): after beam.cu took the detail only where the rank has
# one. On the GPU machine, carrying target/device (stripped `frontier` and `tiles-tests`
# of one commit) and target/deepcubea:
#   bash results/beam-detail/width-call.sh        (about 450 s)
# 1. The GPU beam's rank and bound tests (FRONTIER_REQUIRE_GPU=1).
# 2. Where the network beam's time goes, kernel by kernel (2 boards, scripts/beam-kernels.sh).
# 3. network-dual-wide-30.ron (5.5·10^6 and 8·10^6 with --dual), paired with 4·10^6.
set -u
out=${OUT:-/tmp}
here=results/beam-detail
start=$(date +%s)
source results/beam-detail/gpu-beam-tests.sh
bash scripts/beam-kernels.sh target/deepcubea/puzzle35.tsv 2 4000000 5-5-5-5-5-5-5 \
  target/device/frontier -- --rank-network results/learned-rank/gpu-train/g16.nn \
  > "$out/kernels-network.txt" 2>&1
tail -n 4 "$out/kernels-network.txt"
timeout "${WIDE_S:-330}" target/device/frontier --quiet run $here/network-dual-wide-30.ron \
  --output "$out/network-dual-wide.csv" > "$out/network-dual-wide.txt" 2>&1
echo "wide rc=$? at $(( $(date +%s) - start )) s"
pair=results/learned-rank/gpu-train/round2/pair.py
for b in 5500000 8000000; do
  python3 - "$out/network-dual-wide.csv" $b <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#'))
        if f"beam={sys.argv[2]} " in r['params'] + " "]
if rows:
    print(f"beam {sys.argv[2]}: {len(rows)} boards, {sum(float(r['seconds']) for r in rows) / len(rows):.2f} s/board")
PY
  python3 $pair "$out/network-dual-wide.csv" \
    results/deepcubea-own-35-network/deepcubea-own-35-network.csv "beam=$b dual=true" "dual=true"
done
