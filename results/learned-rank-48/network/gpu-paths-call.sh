#!/usr/bin/env bash
# Issue 43 (prepared in the fifty-third session). On the GPU machine, carrying
# target/device (a stripped release `frontier`):
#   bash results/learned-rank-48/network/gpu-paths-call.sh    (LIMIT seconds, 540 by default)
# Solves train300.txt with a GPU beam of 4·10^6 (gpu-paths.ron; the 48-puzzle's databases
# take the host's cores about 3 minutes first), resuming a gpu-paths.json left here by an
# earlier call, and leaves gpu-paths.json in $OUT. Then, on the dev machine:
#   frontier tiles fit-rank gpu-paths.json --from-paths --heuristic 5-5-5-5-5-5-5-5-5-3
#     --reflect --network-data DATA && scripts/train-rank-network.py DATA NET
set -u
out=${OUT:-/tmp}
here=results/learned-rank-48/network
[ -f $here/gpu-paths.json ] && cp $here/gpu-paths.json "$out/gpu-paths.json"
start=$(date +%s)
timeout "${LIMIT:-540}" target/device/frontier --quiet run $here/gpu-paths.ron \
  --output "$out/gpu-paths.json" --resume > "$out/gpu-paths.txt" 2>&1
echo "rc=$? in $(( $(date +%s) - start )) s; $(grep -c '"path"' "$out/gpu-paths.json") boards solved of 300"
tail -n 3 "$out/gpu-paths.txt"
