#!/usr/bin/env bash
# Issue 43 (prepared in the fifty-first session, not run). On the GPU machine,
# carrying target/device/ with `frontier` (stripped release build of main) and,
# optionally, `tiles-tests` (the stripped release build of domains/tiles/tests/tiles.rs:
# `cargo test --release -p frontier-tiles --test tiles --no-run`):
#   bash results/learned-rank/gpu-train/network-call.sh     (about 300 s with the databases)
# 1. The GPU's network rank against the CPU's: the test gpu_ranks_equal_cpu_ranks (a
#    network of 16 units among its cases), and four validation boards' beams of 10^4 on
#    both, whose rows must be equal (network-check.ron).
# 2. g16.nn ranking the 40 validation boards' beams of 4·10^6 (val-network.ron), paired
#    with iteration 2's linear rank at the same width.
set -u
out=${OUT:-/tmp}
here=results/learned-rank/gpu-train
bin=target/device/frontier
start=$(date +%s)
if [ -x target/device/tiles-tests ]; then
  timeout 200 target/device/tiles-tests gpu_ranks_equal_cpu_ranks --nocapture \
    > "$out/gpu-ranks.txt" 2>&1
  echo "gpu_ranks_equal_cpu_ranks: rc=$? ($(grep -c SKIPPED "$out/gpu-ranks.txt") skipped)"
fi
timeout 200 $bin --quiet run $here/network-check.ron --output "$out/network-check.csv" \
  > "$out/network-check.txt" 2>&1
echo "check rc=$? at $(( $(date +%s) - start )) s"
python3 - "$out/network-check.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and r[0].isdigit()]
cpu = {r[0]: (r[4], r[6]) for r in rows if not r[1].startswith("gpu")}
gpu = {r[0]: (r[4], r[6]) for r in rows if r[1].startswith("gpu")}
same = sum(cpu[k] == gpu.get(k) for k in cpu)
print(f"CPU = GPU (length, expanded) on {same} of {len(cpu)} boards: {cpu} {gpu}")
PY
timeout 330 $bin --quiet run $here/val-network.ron --output "$out/val-network.csv" \
  > "$out/val-network.txt" 2>&1
echo "val rc=$? at $(( $(date +%s) - start )) s"
python3 results/nn-rank/cmp.py results/learned-rank/gpu-val-4e6-linear-it2.csv "$out/val-network.csv"
