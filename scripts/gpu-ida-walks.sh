#!/usr/bin/env bash
# Issue 43's 24-puzzle target on the GPU machine; builds nothing (carries
# target/device/frontier): GPU IDA* proves the optimum of random-walk
# 24-puzzles (configs/gpu-ida-walks-24.ron), then a summary per walk length:
# instances proven, mean optimum, mean and largest seconds.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
out=${OUT:-/tmp}
start=$(date +%s)
target/device/frontier --quiet run configs/gpu-ida-walks-24.ron --output "$out/walks24.csv" \
  --overwrite > "$out/walks24.txt" 2>&1
echo "== $(( $(date +%s) - start )) s in all (databases included)"
tail -n 3 "$out/walks24.txt"
grep -v '^#' "$out/walks24.csv" | awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { k = $(col["params"]); n[k]++; if ($(col["status"]) == "optimal") { p[k]++; c[k] += $(col["cost"]) }
    s[k] += $(col["seconds"]); if ($(col["seconds"]) > m[k]) m[k] = $(col["seconds"]) }
  END { for (k in n) printf "%-16s %2d/%2d proven, mean optimum %.2f, mean %.2f s, largest %.2f s\n",
        k, p[k], n[k], (p[k] ? c[k] / p[k] : 0), s[k] / n[k], m[k] }'
