#!/usr/bin/env bash
# Issue 43: the 24-puzzle set of DeepCubeA's size (configs/deepcubea-24-496.ron), on the GPU
# machine over several calls; builds nothing (carries target/device/frontier). Each call
# resumes the rows done so far, stops before the device's command limit (LIMIT seconds,
# default 560; the board in progress is run again next time) and copies the rows to $OUT.
# Carry results/deepcubea-24-496.csv to a fresh machine; on a warm one the rows of the last
# call wait in /tmp, and whichever copy holds more rows is resumed (a carried file replaces
# the machine's, so a stale carry would otherwise undo the last call). Once every board has
# a row, the time left goes to the boards the config's limit cut: each is searched again by
# `frontier solve` with a checkpoint (results/deepcubea-24-496-checkpoints, carried like the
# rows; seconds and expansions add up over calls) until proven; its JSON row lands in
# $OUT/deepcubea-24-496-tail-ID.json. Prints last: boards done, proven optimal, mean
# optimum, mean and largest seconds.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
out=${OUT:-/tmp}
carried=results/deepcubea-24-496.csv
csv=/tmp/frontier-deepcubea-24-496.csv
rows() { [ -f "$1" ] && wc -l < "$1" || echo 0; }
if [ "$(rows "$carried")" -gt "$(rows "$csv")" ]; then cp "$carried" "$csv"; fi
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
resume=()
[ -s "$csv" ] && resume=(--resume)
deadline=$(( $(date +%s) + ${LIMIT:-560} ))
timeout "${LIMIT:-560}" target/device/frontier --quiet run configs/deepcubea-24-496.ron \
  --output "$csv" "${resume[@]}" > "$out/deepcubea-24-496.txt" 2>&1
echo "frontier exit: $?"
cp "$csv" "$out/deepcubea-24-496.csv" 2>/dev/null
# The cut boards, once every board has a row (496 and a header, after the fingerprint line).
carried_ckpt=results/deepcubea-24-496-checkpoints
ckpt=/tmp/frontier-deepcubea-24-496-checkpoints
if [ ! -d "$ckpt" ] && [ -d "$carried_ckpt" ]; then cp -r "$carried_ckpt" "$ckpt"; fi
mkdir -p "$ckpt"
if [ "$(grep -vc '^#' "$csv")" -ge 497 ]; then
  grep -v '^#' "$csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $(col["status"]) == "time limit" { print $(col["instance"]) "," $(col["instance_text"]) }' |
  while IFS=, read -r id board; do
    left=$(( deadline - $(date +%s) - 15 ))
    [ "$left" -lt 60 ] && break
    echo "board $id: $left s with checkpoints"
    target/device/frontier --quiet --json solve tiles "$board" --executor gpu-ida \
      --heuristic 6-6-6-6 --reflect --move-pruning 12 --checkpoint "$ckpt" \
      --max-seconds "$left" > "$out/deepcubea-24-496-tail-$id.json" 2>> "$out/deepcubea-24-496.txt"
    python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().splitlines()[0]); s=d["stats"]; print(d["status"], d["cost"], s["expanded"], "expanded", s["seconds"], "s")' \
      "$out/deepcubea-24-496-tail-$id.json"
  done
fi
mkdir -p "$out/checkpoints" && cp -r "$ckpt"/. "$out/checkpoints/"
grep -v '^#' "$csv" | awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { n++; s += $(col["seconds"]); if ($(col["seconds"]) > m) m = $(col["seconds"]);
    if ($(col["status"]) == "optimal") { opt++; cost += $(col["cost"]) } }
  END { printf "boards %d, optimal %d, mean optimum %.2f, mean s %.2f, max s %.1f\n",
        n, opt, opt ? cost / opt : 0, n ? s / n : 0, m }'
