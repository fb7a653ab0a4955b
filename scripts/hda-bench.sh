#!/usr/bin/env bash
# HDA* CPU scaling on the GPU machine's host (16 cores). Builds nothing: needs
# a prebuilt target/release/frontier and the shared data under $FRONTIER_DATA.
# Usage (from the repo root): scripts/hda-bench.sh [configs...]
set -euo pipefail
bin=${FRONTIER_BIN:-target/release/frontier}
out=${OUT:-/tmp/hda-bench}
mkdir -p "$out"
echo "== machine"
nproc; lscpu | grep -E 'Model name|Thread|Core|Socket|NUMA node\(s\)' || true
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(configs/bench-hda-15.ron configs/bench-hda-24.ron)
for c in "${configs[@]}"; do
  name=$(basename "$c" .ron)
  echo "== $c"
  "$bin" run --quiet --json "$c" | tee "$out/$name.jsonl" | cut -c1-160
done
echo "== summary (speedup = HDA* expansions/s over A* expansions/s on one thread)"
python3 - "$out"/*.jsonl <<'PY'
import json, sys
# The A* baseline is per file: the same instance may appear with other heuristics elsewhere.
rows = [dict(json.loads(l), file=f) for f in sys.argv[1:] for l in open(f) if l.strip()]
base = {(r["file"], r["instance"]): r["stats"]["expansions_per_second"] for r in rows if r["executor"] == "astar"}
print(f'{"instance":10} {"executor":16} {"cost":>4} {"expanded":>10} {"sec":>8} {"Mexp/s":>7} {"speedup":>7} {"SO":>6} {"CO":>6} {"TO":>6}')
for r in rows:
    s = r["stats"]; b = base.get((r["file"], r["instance"]))
    f = lambda k: f'{s[k]:.3f}' if s.get(k) is not None else '-'
    sp = f'{s["expansions_per_second"] / b:.2f}' if b else '-'
    print(f'{r["instance"]:10} {r["executor"]:16} {str(r["cost"]):>4} {s["expanded"]:>10} {s["seconds"]:>8.3f} {s["expansions_per_second"]/1e6:>7.2f} {sp:>7} {f("search_overhead"):>6} {f("communication_overhead"):>6} {f("termination_overhead"):>6}')
PY
