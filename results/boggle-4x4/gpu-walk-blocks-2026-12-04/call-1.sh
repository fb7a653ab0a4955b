#!/bin/bash
# Issue 45, call 1: the walk's blocks end after a few items (FRONTIER_WALK_ITEMS,
# FRONTIER_WALK_ROOM: a temporary build's variables) against persistent blocks.
# The GPU proofs test with blocks of one item a warp, then seed 3's share 1/3 (S3):
# persistent (main's way), then 4 items a warp with no room, then 16.
source results/boggle-4x4/pending/call-lib.sh
export FRONTIER_WALK_ITEMS=1 FRONTIER_WALK_ROOM=0
( OUT=$r FRONTIER_BIN=target/device/frontier-main timeout 200 scripts/boggle-4x4-slice.sh gpu-test > $r/gpu-test.txt 2>&1 )
{ echo "== gpu-test items 1"; grep -E "rc=|test result" $r/gpu-test.txt | head -3; } >> $r/summary.txt; tar czf $OUT/r.tgz -C $OUT r
unset FRONTIER_WALK_ITEMS FRONTIER_WALK_ROOM
run s3-persistent frontier-main merges $S3 150
export FRONTIER_WALK_ITEMS=4 FRONTIER_WALK_ROOM=0
run s3-items4 frontier-main merges $S3 150
export FRONTIER_WALK_ITEMS=16 FRONTIER_WALK_ROOM=0
run s3-items16 frontier-main merges $S3 150
table
