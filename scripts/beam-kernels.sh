#!/usr/bin/env bash
# Where a GPU beam's time goes, kernel by kernel (the beam logs it at `-vv`,
# waiting for each kernel, so its seconds are a little above a plain run's),
# for one or more frontier binaries on the same boards; builds nothing. On
# the GPU machine:
#   scripts/beam-kernels.sh TSV BOARDS BEAM HEURISTIC BINARY... [-- EXTRA FLAGS]
#   scripts/beam-kernels.sh target/deepcubea/puzzle35.tsv 3 4000000 5-5-5-5-5-5-5 \
#     target/device/frontier-old target/device/frontier -- --rank-conflicts
# TSV: an instance file with the board in its second column (scripts/deepcubea-tsv.py).
# Prints per binary and board: cost, proven lower bound, seconds, and the
# kernels' seconds; last a table of each binary's totals.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
[ $# -ge 5 ] || { sed -n 2,11p "$0"; exit 2; }
tsv=$1 boards=$2 beam=$3 heuristic=$4
shift 4
binaries=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do binaries+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
extra=("$@")
log=$(mktemp)
for bin in "${binaries[@]}"; do
  tail -n +2 "$tsv" | head -n "$boards" | while IFS=$'\t' read -r id board _; do
    out=$("$bin" solve tiles --executor gpu --heuristic "$heuristic" --reflect \
      --beam "$beam" "${extra[@]}" --quiet --json -vv "$board" 2>"$log.err")
    kernels=$(grep -o 'GPU beam, by kernel: .*' "$log.err" | sed 's/GPU beam, by kernel: //')
    echo "$out" | python3 -c '
import json, sys
bin, board, kernels = sys.argv[1:4]
row = json.loads(sys.stdin.read())
s = row["stats"]
cells = [bin, board, row["cost"], s["lower_bound"], "%.3f" % s["seconds"], kernels]
print("\t".join(str(c) for c in cells))
' "$bin" "$id" "$kernels" || { echo "$bin board $id failed:"; tail -5 "$log.err"; }
  done
done | tee "$log"
python3 - "$log" <<'PY'
import collections, re, sys
totals = collections.OrderedDict()
for line in open(sys.argv[1]):
    parts = line.rstrip("\n").split("\t")
    if len(parts) < 6:
        continue
    t = totals.setdefault(parts[0], collections.OrderedDict(boards=0, cost=0, seconds=0.0))
    t["boards"] += 1
    t["cost"] += int(parts[2])
    t["seconds"] += float(parts[4])
    for name, sec in re.findall(r"(\w+) ([0-9.]+) s", parts[5]):
        t[name] = t.get(name, 0.0) + float(sec)
for bin, t in totals.items():
    n = t.pop("boards")
    cost = t.pop("cost")
    sec = t.pop("seconds")
    ks = ", ".join(f"{k} {v / n:.3f}" for k, v in t.items())
    print(f"{bin}: {n} boards, mean cost {cost / n:.2f}, {sec / n:.3f} s a board; kernels a board: {ks}")
PY
rm -f "$log" "$log.err"
