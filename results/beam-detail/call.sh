#!/usr/bin/env bash
# The GPU beam's children from their parent's detail (fifty-third session; main's
# a659f8f): checks and the time it saves. On the GPU machine, carrying target/device
# (stripped release `frontier` and `tiles-tests`, both built from one commit of main,
# a659f8f or later) and target/deepcubea (puzzle35.tsv):
#   bash results/beam-detail/call.sh        (about 350 s)
# 1. The tiles tests of the GPU beam and its ranks (FRONTIER_REQUIRE_GPU=1).
# 2. network-30.ron and conflicts-30.ron, from the detail and afresh
#    (FRONTIER_BEAM_AFRESH=1): the rows must be equal in length and expansions; the
#    table says seconds a board each way.
set -u
out=${OUT:-/tmp}
here=results/beam-detail
bin=target/device/frontier
start=$(date +%s)
source results/beam-detail/gpu-beam-tests.sh
for c in network-30 conflicts-30; do
  for way in detail afresh; do
    env $([ $way = afresh ] && echo FRONTIER_BEAM_AFRESH=1) timeout 200 $bin --quiet run \
      $here/$c.ron --output "$out/$c-$way.csv" > "$out/$c-$way.txt" 2>&1
    echo "$c $way: rc=$? at $(( $(date +%s) - start )) s"
  done
done
python3 $here/compare.py detail afresh \
  network-30 "$out/network-30-detail.csv" "$out/network-30-afresh.csv" \
  conflicts-30 "$out/conflicts-30-detail.csv" "$out/conflicts-30-afresh.csv"
