#!/usr/bin/env bash
# Issue 43 (fifty-second session). On the GPU machine, carrying target/device/frontier:
#   bash results/learned-rank/gpu-train/net-paths-call.sh    (LIMIT seconds, 290 by default)
# Solves train35-net.txt with the beam ranked by g16.nn (net-paths.ron), resuming a
# carried train-net.json, and leaves train-net.json in $OUT for
#   frontier tiles fit-rank train-net.json --from-paths … --network-data DATA
set -u
out=${OUT:-/tmp}
here=results/learned-rank/gpu-train
[ -f $here/train-net.json ] && cp $here/train-net.json "$out/train-net.json"
start=$(date +%s)
timeout "${LIMIT:-290}" target/device/frontier --quiet run $here/net-paths.ron \
  --output "$out/train-net.json" --resume > "$out/train-net.txt" 2>&1
echo "rc=$? in $(( $(date +%s) - start )) s; $(( $(wc -l < "$out/train-net.json") - 1 )) boards solved of 200"
tail -n 3 "$out/train-net.txt"
