#!/usr/bin/env bash
# Issue 43 on the GPU machine; builds nothing. Carried in $DEV (default
# target/device): frontier (this build) and pancake-test (the pancake test
# binary). Runs
#   1. the GPU beam test (bounds against A*, breadth-first optimum);
#   2. GPU beams on the 35-puzzle (configs/order-gpu-35.ron);
#   3. GPU beams on the 48-puzzle (configs/order-gpu-48.ron);
#   4. the 35-puzzle by walk length (configs/order-gpu-35-walks.ron);
# and prints, per row kind, mean cost, mean proven bound and mean seconds
# last. Databases are built on the host's cores first (cached in
# $XDG_CACHE_HOME). `scripts/beyond-optimal-gpu.sh 35` runs 1 and 2 only, `… 48` 1, 3 and 4.
set -uo pipefail
part=${1:-all}
dev=${DEV:-target/device}
out=${OUT:-/tmp}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
echo "$(nproc) cores"
FRONTIER_REQUIRE_GPU=1 "$dev/pancake-test" the_gpu_beam 2>&1 | grep -E "^test |panicked|result" | head -5
sizes="35"
[ "$part" = all ] && sizes="35 48 35-walks"
[ "$part" = 48 ] && sizes="48 35-walks"
for n in $sizes; do
  start=$(date +%s)
  "$dev/frontier" --quiet run "configs/order-gpu-$n.ron" --output "$out/gpu$n.csv" --overwrite \
    > "$out/gpu$n.txt" 2>&1
  echo "== $n-puzzle: $(( $(date +%s) - start )) s in all (databases included)"
  tail -n 40 "$out/gpu$n.txt"
done
echo "== summary: row, instances, mean cost, mean lower bound, mean cost/lower, mean s"
for n in $sizes; do
  grep -v '^#' "$out/gpu$n.csv" | awk -F, -v n="$n" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { k = $(col["executor"]) " " $(col["params"]); c[k]++; cost[k] += $(col["cost"]);
      b[k] += $(col["bound"]); s[k] += $(col["seconds"]); lo[k] += $(col["lower"]) }
    END { for (k in c) printf "%s %-36s %3d %8.2f %8.2f %6.3f %8.3f\n", n, k, c[k], cost[k]/c[k], lo[k]/c[k], b[k]/c[k], s[k]/c[k] }'
done
