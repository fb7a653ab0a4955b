#!/usr/bin/env bash
# Issue 43: the 24-puzzle set of DeepCubeA's size (configs/deepcubea-24-496.ron), on the GPU
# machine over several calls; builds nothing (carries target/device/frontier). Each call
# resumes the rows done so far, stops before the device's command limit (LIMIT seconds,
# default 560; the board in progress is run again next time) and copies the rows to $OUT.
# Carry results/deepcubea-24-496.csv to a fresh machine; on a warm one the rows of the last
# call wait in /tmp, and whichever copy holds more rows is resumed (a carried file replaces
# the machine's, so a stale carry would otherwise undo the last call). Rows the config's
# limit cut are not run again here: the one such board, 334, goes on in
# configs/deepcubea-24-334.ron (its start split 16 times finer, so that its checkpoints come
# every minute), after the set, for the time left (its own --max-seconds: LIMIT less the
# time spent, less 45 s for writing its rows after its limit; loading the databases and
# splitting count in that limit), so that it stops at its own last checkpoint rather than by
# timeout. Its checkpoint folder is the set's,
# results/deepcubea-24-496-checkpoints: carry it to a fresh machine only (on a warm one the
# machine's copy is newer); it comes back as $OUT/deepcubea-24-496-checkpoints.tgz, and
# board 334's rows as $OUT/deepcubea-24-334.csv. Retrying 334 in the set's config would
# split it otherwise and start its iteration over, overwriting the finer split's progress.
# Prints last: boards done, proven optimal, mean optimum, mean and largest seconds.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
out=${OUT:-/tmp}
carried=results/deepcubea-24-496.csv
csv=/tmp/frontier-deepcubea-24-496.csv
rows() { [ -f "$1" ] && wc -l < "$1" || echo 0; }
if [ "$(rows "$carried")" -gt "$(rows "$csv")" ]; then cp "$carried" "$csv"; fi
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
limit=${LIMIT:-560}
resume=()
[ -s "$csv" ] && resume=(--resume)
timeout "$limit" target/device/frontier --quiet run configs/deepcubea-24-496.ron \
  --output "$csv" "${resume[@]}" > "$out/deepcubea-24-496.txt" 2>&1
echo "frontier exit: $?"
cp "$csv" "$out/deepcubea-24-496.csv" 2>/dev/null
left=$((limit - SECONDS))
if [ "$left" -gt 240 ]; then
  [ -f results/deepcubea-24-334.csv ] && again=(--resume --retry-cut) || again=()
  timeout "$left" target/device/frontier -v --quiet run configs/deepcubea-24-334.ron \
    "${again[@]}" --max-seconds $((left - 45)) > "$out/deepcubea-24-334.log" 2>&1
  echo "board 334: frontier exit $?"
  cp results/deepcubea-24-334.csv "$out/" 2>/dev/null
  grep -v '^#' results/deepcubea-24-334.csv | cut -d, -f1,4,5,7,9
fi
# The checkpoints come back as one archive (the device tool returns few files).
tar czf "$out/deepcubea-24-496-checkpoints.tgz" results/deepcubea-24-496-checkpoints 2>/dev/null
grep -v '^#' "$csv" | awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { n++; s += $(col["seconds"]); if ($(col["seconds"]) > m) m = $(col["seconds"]);
    if ($(col["status"]) == "optimal") { opt++; cost += $(col["cost"]) } }
  END { printf "boards %d, optimal %d, mean optimum %.2f, mean s %.2f, max s %.1f\n",
        n, opt, opt ? cost / opt : 0, n ? s / n : 0, m }'
