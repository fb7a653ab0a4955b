#!/usr/bin/env bash
# After the move of every domain onto the plugin seam: each GPU path of the
# bundled domains still runs from the command line, with the same answers as
# A* on the CPU. Builds nothing (target/release/frontier); prints a table last.
set -uo pipefail
bin=${FRONTIER_BIN:-target/release/frontier}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
rows=()
check() { # label, expected cost, then the command's arguments
  local label=$1 want=$2; shift 2
  local start got
  start=$(date +%s%N)
  got=$("$bin" --quiet --json "$@" 2>&1 | python3 -c 'import json,sys
rows=[json.loads(l) for l in sys.stdin if l.startswith("{")]
print(",".join(str(r.get("cost")) for r in rows) or "error")')
  local ms=$(( ($(date +%s%N) - start) / 1000000 ))
  local verdict=ok; [ "$got" = "$want" ] || verdict=WRONG
  rows+=("$(printf '%-34s %-8s %-8s %6s ms %s' "$label" "$want" "$got" "$ms" "$verdict")")
}
t15="0 9 12 4 5 3 2 8 10 1 7 6 11 14 13 15"
cpu=$("$bin" --quiet --json solve tiles "$t15" 2>/dev/null | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["cost"])')
check "tiles A* (CPU)" "$cpu" solve tiles "$t15"
check "tiles gpu" "$cpu" solve tiles "$t15" --executor gpu
check "tiles gpu-ida" "$cpu" solve tiles "$t15" --executor gpu-ida
check "tiles multi-gpu split" "$cpu" solve tiles "$t15" --executor multi-gpu --partition split
stack="12 3 7 1 15 9 4 14 2 11 8 16 5 13 10 6 18 17 20 19"
pcpu=$("$bin" --quiet --json solve pancake "$stack" 2>/dev/null | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["cost"])')
check "pancake A* (CPU)" "$pcpu" solve pancake "$stack"
check "pancake gpu" "$pcpu" solve pancake "$stack" --executor gpu
check "pancake multi-gpu zobrist" "$pcpu" solve pancake "$stack" --executor multi-gpu --partition zobrist
check "pancake multi-gpu bottom" "$pcpu" solve pancake "$stack" --executor multi-gpu --partition bottom
check "pancake gpu-ida" "$pcpu" solve pancake "$stack" --executor gpu-ida
maze=$("$bin" --quiet --json solve grid "S..#/.#../...G" 2>/dev/null | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["cost"])')
big=$(python3 -c 'import random; random.seed(3); n=60
rows=[["#" if random.random()<0.25 else random.choice(".....123") for _ in range(n)] for _ in range(n)]
rows[0][0]="S"; rows[n-1][n-1]="G"; print("/".join("".join(r) for r in rows))')
bigcost=$("$bin" --quiet --json solve grid "$big" 2>/dev/null | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline()).get("cost"))')
for ex in gpu gpu-ida multi-gpu; do
  check "grid $ex (small)" "$maze" solve grid "S..#/.#../...G" --executor $ex
done
# IDA* on a weighted maze meets a new bound at almost every cost: the big
# maze is for the best-first executors only.
for ex in gpu multi-gpu; do
  check "grid $ex (60x60, weighted)" "$bigcost" solve grid "$big" --executor $ex
done
echo "== Boggle and nonogram batch kernels (each checked against the CPU by the command)"
"$bin" boggle bench --gpu --count 200000 2>&1 | tail -1
"$bin" nonogram bench --gpu --count 20000 --size 20x20 2>&1 | tail -1
echo "== plugin GPU paths: label, expected cost, got, wall time"
printf '%s\n' "${rows[@]}"
