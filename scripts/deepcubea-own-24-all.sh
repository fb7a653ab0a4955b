#!/usr/bin/env bash
# Issue 43: GPU IDA* proofs of all 496 of DeepCubeA's own 24-puzzles
# (configs/deepcubea-own-24-all.ron), over several device calls; builds nothing. Carry
# the binary (BIN, default target/device/frontier), target/deepcubea (puzzle24.tsv) and
# results/deepcubea-own-24-all.csv (the rows so far), and on a fresh machine
# results/deepcubea-own-24-all-checkpoints (it comes back as $OUT/checkpoints.tgz; on a
# warm machine the machine's own copy is newer: leave it out). Each call resumes whichever copy
# holds more rows (the carried file, or on a warm machine the last call's in /tmp), stops
# at LIMIT seconds (default 560; the board in progress runs again next time) and copies
# the rows to $OUT. Once every board has a row, the time left goes to the boards the 60 s
# limit cut, from their checkpoints (--retry-cut, their own --max-seconds; the file then
# records that limit, so later calls' first run refuses it and only the retry runs).
# Prints last: boards done, proven optimal, the mean seconds, and the proven rows paired
# with DeepCubeA's lengths for the same states.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
bin=${BIN:-target/device/frontier}
out=${OUT:-/tmp}
carried=results/deepcubea-own-24-all.csv
csv=/tmp/frontier-own-24-all.csv
rows() { [ -f "$1" ] && wc -l < "$1" || echo 0; }
if [ "$(rows "$carried")" -gt "$(rows "$csv")" ]; then cp "$carried" "$csv"; fi
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
resume=()
[ -s "$csv" ] && resume=(--resume)
timeout "${LIMIT:-560}" "$bin" --quiet run configs/deepcubea-own-24-all.ron \
  --output "$csv" "${resume[@]}" > "$out/deepcubea-own-24-all.txt" 2>&1
echo "frontier exit: $?"
left=$((${LIMIT:-560} - SECONDS))
boards=$(($(wc -l < target/deepcubea/puzzle24.tsv) - 1))
if [ "$(grep -vc '^#' "$csv")" -gt "$boards" ] && [ "$left" -gt 120 ]; then
  timeout "$left" "$bin" --quiet run configs/deepcubea-own-24-all.ron --output "$csv" \
    --resume --retry-cut --max-seconds $((left - 45)) > "$out/deepcubea-own-24-cut.txt" 2>&1
  echo "the cut boards again: frontier exit $?"
fi
cp "$csv" "$out/deepcubea-own-24-all.csv" 2>/dev/null
tar czf "$out/checkpoints.tgz" results/deepcubea-own-24-all-checkpoints 2>/dev/null
python3 - "$csv" target/deepcubea/puzzle24.tsv <<'PY'
import csv, sys
lines = [l for l in open(sys.argv[1]) if not l.startswith("#")]
rows = list(csv.DictReader(lines))
theirs = {}
for line in list(open(sys.argv[2]))[1:]:
    _, tiles, length = line.rstrip("\n").split("\t")
    theirs[tiles] = int(length)
proven = [r for r in rows if r["status"] == "optimal"]
seconds = [float(r["seconds"]) for r in rows]
longer = sum(1 for r in proven if theirs[r["instance_text"]] > int(r["cost"]))
below = sum(1 for r in proven if theirs[r["instance_text"]] < int(r["cost"]))
print(f"boards {len(rows)}, optimal {len(proven)}, cut {len(rows) - len(proven)}; "
      f"mean s {sum(seconds) / max(len(rows), 1):.2f}, max s {max(seconds, default=0):.1f}")
if proven:
    mine = sum(int(r["cost"]) for r in proven) / len(proven)
    dca = sum(theirs[r["instance_text"]] for r in proven) / len(proven)
    print(f"on the proven: mean optimum {mine:.2f}, DeepCubeA {dca:.2f}; "
          f"DeepCubeA longer on {longer}, shorter than the optimum on {below} (must be 0)")
# A cut row's `lower` (builds after 2026-12-03) is the bound its search proved; where it
# equals DeepCubeA's length, DeepCubeA's path (scripts/deepcubea-replay.py) is optimal.
cut = [r for r in rows if r["status"] != "optimal"]
if cut:
    print("cut (board: proven lower bound / DeepCubeA): " + ", ".join(
        f"{r['instance']}: {r.get('lower', '-')}/{theirs[r['instance_text']]}"
        for r in cut))
PY
