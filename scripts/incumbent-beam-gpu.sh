#!/usr/bin/env bash
# Issue 43: GPU IDA* below a GPU beam's solution, on the device machine; builds nothing.
# Carry DIR (default target/device-lb) holding `frontier` and `tiles-tests` (the release
# test binary of domains/tiles/tests/tiles.rs, as in scripts/lower-bound-gpu-check.sh) and
# target/deepcubea (puzzle24.tsv). Runs the GPU test of the ceiling and the beam
# (`gpu_ida_below_a_beams_incumbent_reaches_korfs_optima`), then
# configs/deepcubea-own-24-incumbent-gpu.ron (eight boards, no beam and a beam of 10^6);
# rows to $OUT. Prints last, board by board: optimum, seconds and nodes, alone and below
# the beam.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
dir=${DIR:-target/device-lb}
out=${OUT:-/tmp/incumbent-beam-gpu}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
status=0
FRONTIER_REQUIRE_GPU=1 "$dir/tiles-tests" gpu_ida_below --test-threads 1 > "$out/tests.txt" 2>&1 || status=1
grep -E "^test .*(FAILED|ok)$|test result|panicked|nodes under" "$out/tests.txt" | tail -8
csv=$out/deepcubea-own-24-incumbent-gpu.csv
"$dir/frontier" --quiet run configs/deepcubea-own-24-incumbent-gpu.ron --output "$csv" \
  > "$out/run.txt" 2>&1 || status=1
tail -n 3 "$out/run.txt"
python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
by = {}
for r in rows:
    beam = "beam" if "incumbent_beam=1000000" in r["params"] else "alone"
    by.setdefault(r["instance"], {})[beam] = r
print(f'{"board":6} {"cost":>5} {"s alone":>8} {"s beam":>8} {"nodes beam/alone":>17}')
for board, pair in by.items():
    a, b = pair.get("alone"), pair.get("beam")
    if not (a and b):
        continue
    ratio = int(b["expanded"]) / max(int(a["expanded"]), 1)
    same = "" if a["cost"] == b["cost"] else "  COSTS DIFFER"
    print(f'{board:6} {a["cost"]:>5} {float(a["seconds"]):8.2f} {float(b["seconds"]):8.2f} {ratio:17.3f}{same}')
for beam in ("alone", "beam"):
    s = sum(float(p[beam]["seconds"]) for p in by.values() if beam in p)
    print(f"{beam}: {s:.1f} s in all")
PY
echo "exit status $status"
exit $status
