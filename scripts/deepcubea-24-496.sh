#!/usr/bin/env bash
# Issue 43: the 24-puzzle set of DeepCubeA's size (configs/deepcubea-24-496.ron), on the GPU
# machine over several calls; builds nothing (carries target/device/frontier). Each call
# resumes the rows done so far, stops before the device's command limit (LIMIT seconds,
# default 560; the board in progress is run again next time) and copies the rows to $OUT.
# Carry results/deepcubea-24-496.csv to a fresh machine; on a warm one the rows of the last
# call wait in /tmp, and whichever copy holds more rows is resumed (a carried file replaces
# the machine's, so a stale carry would otherwise undo the last call). Rows the config's
# limit cut are run again (--retry-cut), each from its IDA* checkpoint in
# results/deepcubea-24-496-checkpoints (the config's), whose seconds and expansions add up
# over calls: carry that folder to a fresh machine only (on a warm one the machine's copy is
# newer); it comes back as $OUT/deepcubea-24-496-checkpoints.tgz. Prints last: boards done,
# proven optimal, mean optimum, mean and largest seconds.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
out=${OUT:-/tmp}
carried=results/deepcubea-24-496.csv
csv=/tmp/frontier-deepcubea-24-496.csv
rows() { [ -f "$1" ] && wc -l < "$1" || echo 0; }
if [ "$(rows "$carried")" -gt "$(rows "$csv")" ]; then cp "$carried" "$csv"; fi
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
resume=()
[ -s "$csv" ] && resume=(--resume --retry-cut)
timeout "${LIMIT:-560}" target/device/frontier --quiet run configs/deepcubea-24-496.ron \
  --output "$csv" "${resume[@]}" > "$out/deepcubea-24-496.txt" 2>&1
echo "frontier exit: $?"
cp "$csv" "$out/deepcubea-24-496.csv" 2>/dev/null
# The checkpoints come back as one archive (the device tool returns few files).
tar czf "$out/deepcubea-24-496-checkpoints.tgz" results/deepcubea-24-496-checkpoints 2>/dev/null
grep -v '^#' "$csv" | awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { n++; s += $(col["seconds"]); if ($(col["seconds"]) > m) m = $(col["seconds"]);
    if ($(col["status"]) == "optimal") { opt++; cost += $(col["cost"]) } }
  END { printf "boards %d, optimal %d, mean optimum %.2f, mean s %.2f, max s %.1f\n",
        n, opt, opt ? cost / opt : 0, n ? s / n : 0, m }'
