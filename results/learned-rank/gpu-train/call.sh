#!/usr/bin/env bash
# Issue 43 (prepared in the forty-eighth session, not run). On the GPU machine, carrying
# target/device/frontier (stripped release build) and, for a second call, the first
# call's train-gpu.json copied to results/learned-rank/gpu-train/train-gpu.json:
#   bash results/learned-rank/gpu-train/call.sh        (about 540 s; run it twice)
# Solves the 300 training boards with the GPU's ranked beam of 4·10^6, resuming the
# carried file, and leaves train-gpu.json in $OUT. Then, on the dev machine:
#   frontier tiles fit-rank train-gpu.json --from-paths --heuristic 5-5-5-5-5-5-5 --reflect
# for the linear weights (results/learned-rank/README.md, "Next"), and the network of
# results/nn-rank/ trained on the same paths (its README, "Next").
set -u
out=${OUT:-/tmp}
here=results/learned-rank/gpu-train
[ -f $here/train-gpu.json ] && cp $here/train-gpu.json "$out/train-gpu.json"
start=$(date +%s)
timeout 530 target/device/frontier --quiet run $here/train-paths.ron \
  --output "$out/train-gpu.json" --resume > "$out/train-gpu.txt" 2>&1
echo "rc=$? in $(( $(date +%s) - start )) s; $(( $(wc -l < "$out/train-gpu.json") - 1 )) boards solved of 300"
tail -n 3 "$out/train-gpu.txt"
