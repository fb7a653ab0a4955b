#!/usr/bin/env bash
# Issue 43: GPU IDA* proofs of all 496 of DeepCubeA's own 24-puzzles
# (configs/deepcubea-own-24-all.ron), over several device calls; builds nothing. Carry
# the binary (BIN, default target/device/frontier), target/deepcubea (puzzle24.tsv),
# results/deepcubea-own-24-all.csv (the rows so far) and
# results/deepcubea-own-24-all-checkpoints. Each call resumes whichever copy holds more
# rows (the carried file, or on a warm machine the last call's in /tmp), and keeps the
# checkpoints in /tmp too (on a warm machine they are newer than the carried ones). It stops
# at LIMIT seconds (default 560) and copies the rows to $OUT, the checkpoints to
# $OUT/checkpoints.tgz.
# First the boards without a row, at the config's 60 s. Once every board has one (or the
# file already records a longer limit), the time left goes to the boards without a proof:
# in the order RETRY_ORDER gives (ids, space-separated; the rest after, in file order),
# from their checkpoints, each under RETRY_SECONDS (default 3000, so in practice until the
# call's time runs out: a board killed then keeps its checkpoint, every finished bound and
# every 60 s inside an iteration, and its next run adds up the seconds). INCUMBENT_BEAM=W
# gives those retries a GPU beam of width W first (IDA* below the beam's solution).
# Prints last: boards done, proven optimal, the mean seconds, and the proven rows paired
# with DeepCubeA's lengths for the same states.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
bin=${BIN:-target/device/frontier}
out=${OUT:-/tmp}
tsv=target/deepcubea/puzzle24.tsv
carried=results/deepcubea-own-24-all.csv
csv=/tmp/frontier-own-24-all.csv
rows() { [ -f "$1" ] && wc -l < "$1" || echo 0; }
if [ "$(rows "$carried")" -gt "$(rows "$csv")" ]; then cp "$carried" "$csv"; fi
checkpoints=results/deepcubea-own-24-all-checkpoints
kept=/tmp/frontier-own-24-checkpoints
[ -d "$kept" ] || cp -r "$checkpoints" "$kept" 2>/dev/null || mkdir -p "$kept"
rm -rf "$checkpoints" && ln -s "$kept" "$checkpoints"
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
limit=${LIMIT:-560}
if [ ! -s "$csv" ] || head -1 "$csv" | grep -q 'max_seconds: Some(60.0)'; then
  resume=()
  [ -s "$csv" ] && resume=(--resume)
  timeout "$limit" "$bin" --quiet run configs/deepcubea-own-24-all.ron \
    --output "$csv" "${resume[@]}" > "$out/deepcubea-own-24-all.txt" 2>&1
  echo "frontier exit: $?"
fi
left=$((limit - SECONDS))
boards=$(($(wc -l < "$tsv") - 1))
if [ "$(grep -vc '^#' "$csv")" -gt "$boards" ] || ! head -1 "$csv" | grep -q 'Some(60.0)'; then
  if [ "$left" -gt 60 ]; then
    # The boards without a proven row, in the chosen order, under the same ids.
    python3 - "$csv" "$tsv" "${RETRY_ORDER:-}" > /tmp/frontier-own-24-retry.tsv <<'PY'
import csv, sys
proven = {r["instance"] for r in csv.DictReader(
    l for l in open(sys.argv[1]) if not l.startswith("#")) if r["status"] == "optimal"}
lines = open(sys.argv[2]).read().splitlines()
by_id = {line.split("\t")[0]: line for line in lines[1:]}
first = [i for i in sys.argv[3].split() if i in by_id]
order = first + [i for i in by_id if i not in first]
print("\n".join([lines[0]] + [by_id[i] for i in order if i not in proven]))
PY
    # INCUMBENT_BEAM=W: a GPU beam of width W first, whose path IDA* proves optimal without
    # its last iteration where the beam found the optimum (docs/RESULTS.md, "IDA* below a
    # beam's solution").
    beam=${INCUMBENT_BEAM:+incumbent_beam: $INCUMBENT_BEAM, }
    sed -e "s#$tsv#/tmp/frontier-own-24-retry.tsv#" -e "s#GpuIda(#GpuIda($beam#" \
      configs/deepcubea-own-24-all.ron > /tmp/frontier-own-24-retry.ron
    echo "without a proof: $(($(wc -l < /tmp/frontier-own-24-retry.tsv) - 1)) boards"
    timeout "$left" "$bin" --quiet run /tmp/frontier-own-24-retry.ron --output "$csv" \
      --resume --retry-cut --max-seconds "${RETRY_SECONDS:-3000}" \
      > "$out/deepcubea-own-24-cut.txt" 2>&1
    echo "the boards without a proof: frontier exit $?"
  fi
fi
cp "$csv" "$out/deepcubea-own-24-all.csv" 2>/dev/null
tar czf "$out/checkpoints.tgz" -C "$(dirname "$kept")" "$(basename "$kept")" 2>/dev/null
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
missing = sorted(set(theirs) - {r["instance_text"] for r in rows})
if missing:
    print(f"no row yet (a run in progress when the call ended): {len(missing)} boards")
PY
