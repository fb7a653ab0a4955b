#!/usr/bin/env bash
# Issue 43 (fifty-fifth session): 27fa132 made beam_expand and the tests'
# beam_child_rank_of share one child_h_and_rank. Checks on the GPU machine, carrying
# target/device (stripped `frontier` and `tiles-tests` of one commit, 27fa132 or later)
# and target/deepcubea:
#   bash results/beam-detail/verify-call.sh        (about 200 s)
# 1. The GPU beam's rank and bound tests (FRONTIER_REQUIRE_GPU=1).
# 2. network-30.ron and conflicts-30.ron with the build's default paths (the network
#    from the parent's detail, the conflicts afresh): every row must equal bc4dabb's
#    (call/reversed) in length and expansions; the table says seconds a board.
set -u
out=${OUT:-/tmp}
here=results/beam-detail
start=$(date +%s)
source results/beam-detail/gpu-beam-tests.sh
for c in network-30 conflicts-30; do
  timeout 200 target/device/frontier --quiet run $here/$c.ron --output "$out/$c.csv" > "$out/$c.txt" 2>&1
  echo "$c: rc=$? at $(( $(date +%s) - start )) s"
done
python3 $here/compare.py now before \
  network-30 "$out/network-30.csv" $here/call/reversed/network-30-detail.csv \
  conflicts-30 "$out/conflicts-30.csv" $here/call/reversed/conflicts-30-afresh.csv
