#!/usr/bin/env bash
# HDA* CPU scaling on the GPU machine's host (16 cores). Builds nothing: needs
# a prebuilt target/release/frontier and the shared data under $FRONTIER_DATA.
# Usage (from the repo root): [REPEAT=n] scripts/hda-bench.sh [configs...]
# Each config runs REPEAT times (default 1); the last table gives, for every
# instance and executor, the median over the repeats of the exp/s speedup over
# the same repeat's A*.
set -euo pipefail
bin=${FRONTIER_BIN:-target/release/frontier}
out=${OUT:-/tmp/hda-bench}
mkdir -p "$out"
echo "== machine"
nproc; lscpu | grep -E 'Model name|Thread|Core|Socket|NUMA node\(s\)' || true
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(configs/bench-hda-15.ron configs/bench-hda-24.ron)
for rep in $(seq 1 "${REPEAT:-1}"); do
  for c in "${configs[@]}"; do
    name=$(basename "$c" .ron)
    echo "== $c (run $rep)"
    "$bin" run --quiet --json "$c" | tee "$out/$name.run$rep.jsonl" | cut -c1-160
  done
done
echo "== summary (speedup = HDA* expansions/s over A* expansions/s on one thread)"
python3 - "$out"/*.run*.jsonl <<'PY'
import json, statistics, sys
# The A* baseline is per file: the same instance may appear with other heuristics elsewhere.
rows = [dict(json.loads(l), file=f) for f in sys.argv[1:] for l in open(f) if l.strip()]
base = {(r["file"], r["instance"]): r["stats"]["expansions_per_second"] for r in rows if r["executor"] == "astar"}
def load(s):
    w = s.get("worker_rates") or []
    return max(w) / (sum(w) / len(w)) if w and sum(w) > 0 else None
print(f'{"file":28} {"instance":9} {"executor":22} {"cost":>4} {"expanded":>10} {"sec":>8} {"Mexp/s":>7} {"speedup":>7} {"SO":>6} {"CO":>6} {"hand":>6} {"TO":>6} {"load":>5}')
groups = {}
for r in rows:
    s = r["stats"]; b = base.get((r["file"], r["instance"]))
    f = lambda k: f'{s[k]:.3f}' if s.get(k) is not None else '-'
    sp = s["expansions_per_second"] / b if b else None
    lb = load(s)
    config = r["file"].rsplit("/", 1)[-1].split(".run")[0]
    groups.setdefault((config, r["instance"], r["executor"]), []).append((sp, s, lb))
    print(f'{r["file"].rsplit("/", 1)[-1]:28} {r["instance"]:9} {r["executor"]:22} {str(r["cost"]):>4} {s["expanded"]:>10} {s["seconds"]:>8.3f} {s["expansions_per_second"]/1e6:>7.2f} {sp or 0:>7.2f} {f("search_overhead"):>6} {f("communication_overhead"):>6} {f("handoff_share"):>6} {f("termination_overhead"):>6} {lb or 0:>5.2f}')
print()
print("== medians over repeats")
print(f'{"config":20} {"instance":9} {"executor":22} {"runs":>4} {"speedup":>7} {"min":>6} {"max":>6} {"A* s":>7} {"CO":>6} {"hand":>6} {"TO":>6} {"load":>5}')
astar_sec = {}
for (config, inst, ex), v in groups.items():
    if ex == "astar":
        astar_sec[(config, inst)] = statistics.median(s["seconds"] for _, s, _ in v)
for (config, inst, ex), v in groups.items():
    if ex == "astar":
        continue
    med = lambda xs: statistics.median(xs) if xs else float("nan")
    sps = [x for x, _, _ in v if x is not None]
    key = lambda k: med([s[k] for _, s, _ in v if s.get(k) is not None])
    print(f'{config:20} {inst:9} {ex:22} {len(v):>4} {med(sps):>7.2f} {min(sps, default=0):>6.2f} {max(sps, default=0):>6.2f} {astar_sec.get((config, inst), 0):>7.3f} {key("communication_overhead"):>6.3f} {key("handoff_share"):>6.3f} {key("termination_overhead"):>6.3f} {med([l for _, _, l in v if l]):>5.2f}')
PY
