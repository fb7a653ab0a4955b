#!/usr/bin/env bash
# Issue 43's Pareto table, GPU side, on the GPU machine; builds nothing
# (carries target/device/frontier). Runs configs/order-pareto-N-gpu.ron and
# configs/order-beam-N-gpu.ron for each N given (35, 48; default both) and
# prints per row: rows, solved, mean cost, mean proven lower bound, mean s.
# The 48-puzzle's databases take the host's 16 cores about 3 minutes the
# first time; a device command is held to 10 minutes, so run 35 and 48 apart.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
out=${OUT:-/tmp}
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(35 48)
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
configs=()
for n in "${sizes[@]}"; do configs+=("order-pareto-$n-gpu" "order-beam-$n-gpu"); done
for c in "${configs[@]}"; do
  start=$(date +%s)
  target/device/frontier --quiet run "configs/$c.ron" --output "$out/$c.csv" --overwrite \
    > "$out/$c.txt" 2>&1
  rc=$?
  echo "== $c: $(( $(date +%s) - start )) s (databases included), rc $rc"
done
echo "== config row: rows solved mean-cost mean-lower mean-s"
for c in "${configs[@]}"; do
  grep -v '^#' "$out/$c.csv" | awk -F, -v c="$c" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { k = $(col["executor"]); n[k]++; s[k] += $(col["seconds"]);
      if ($(col["cost"]) != "-") { ok[k]++; cost[k] += $(col["cost"]) }
      if ($(col["lower"]) != "-") { nl[k]++; lo[k] += $(col["lower"]) } }
    END { for (k in n) printf "%s %-24s %3d %3d %8.2f %8.2f %7.2f\n", c, k, n[k], ok[k],
          (ok[k] ? cost[k] / ok[k] : 0), (nl[k] ? lo[k] / nl[k] : 0), s[k] / n[k] }'
done
