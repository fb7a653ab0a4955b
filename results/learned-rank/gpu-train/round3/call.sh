#!/usr/bin/env bash
# Issue 43, a third round of the network rank in one device call (prepared in the
# fifty-third session). On the GPU machine (its python3 has numpy), carrying
# target/device (a stripped release `frontier`):
#   bash results/learned-rank/gpu-train/round3/call.sh     (about 560 s)
# 1. Paths: ../train35-net.txt solved by the GPU's beam of 4·10^6 ranked by g16b.nn
#    (net-paths-b.ron), for PATHS_S seconds (200: about 100 boards).
# 2. Two networks, each `frontier tiles fit-rank --from-paths --network-data` then
#    scripts/train-rank-network.py (16 units, 6 epochs; the held-out tenth is the last
#    paths of the file, ../train-gpu.json's):
#    g16g.nn: the GPU's paths only (the new ones and ../train-gpu.json's 284);
#    g16h.nn: those and the second round's 100 CPU paths (../round2/tn-*.json).
# 3. Each on our 40 validation boards at 4·10^6, paired with g16.nn's rows
#    (../network-call/val-network.csv) and g16b.nn's (../round2/call/val-b.csv).
# Everything lands in $OUT: the paths (net-paths-b.json), the data's sizes, the
# networks, the rows and the pairings.
set -u
out=${OUT:-/tmp}
here=results/learned-rank/gpu-train
bin=target/device/frontier
start=$(date +%s)
stamp() { echo "$1 at $(( $(date +%s) - start )) s"; }
timeout "${PATHS_S:-200}" $bin --quiet run $here/round3/net-paths-b.ron \
  --output "$out/net-paths-b.json" > "$out/net-paths-b.txt" 2>&1
stamp "paths rc=$?"
# A run stopped by the timeout may leave a last line cut short: keep whole JSON lines.
python3 -c '
import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip()]
whole = []
for l in lines:
    try: json.loads(l); whole.append(l)
    except ValueError: pass
open(sys.argv[1], "w").writelines(whole)
print(sum("\"path\"" in l for l in whole), "boards solved")' "$out/net-paths-b.json"
train() {  # NAME JSON...: fit-rank's data from the paths given, then the network
  local name=$1; shift
  cat "$@" > "$out/$name.json"
  $bin --quiet tiles fit-rank "$out/$name.json" --from-paths --heuristic 5-5-5-5-5-5-5 \
    --reflect --network-data "$out/$name.csv" > "$out/$name-fit.txt" 2>&1 || { stamp "$name: fit-rank failed"; return 1; }
  python3 scripts/train-rank-network.py "$out/$name.csv" "$out/$name.nn" > "$out/$name-train.txt" 2>&1 \
    || { stamp "$name: training failed"; tail -3 "$out/$name-train.txt"; return 1; }
  rm -f "$out/$name.json" "$out/$name.csv"
  stamp "$name trained ($(tail -2 "$out/$name-train.txt" | head -1))"
}
validate() {  # NAME: the 40 validation boards at 4·10^6 ranked by $out/NAME.nn
  local name=$1
  sed "s|results/learned-rank/gpu-train/g16.nn|$out/$name.nn|" $here/val-network.ron > "$out/val-$name.ron"
  grep -q "$out/$name.nn" "$out/val-$name.ron" || { echo "val-network.ron names another network"; return 1; }
  timeout 150 $bin --quiet run "$out/val-$name.ron" --output "$out/val-$name.csv" > "$out/val-$name.txt" 2>&1
  stamp "val $name rc=$?"
  echo "  against g16.nn:  $(python3 results/nn-rank/cmp.py $here/network-call/val-network.csv "$out/val-$name.csv")"
  echo "  against g16b.nn: $(python3 results/nn-rank/cmp.py $here/round2/call/val-b.csv "$out/val-$name.csv")"
}
train g16g "$out/net-paths-b.json" $here/train-gpu.json && validate g16g
train g16h "$out/net-paths-b.json" $here/round2/tn-A.json $here/round2/tn-B.json $here/train-gpu.json && validate g16h
