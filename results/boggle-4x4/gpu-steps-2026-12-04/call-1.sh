#!/bin/bash
# Issue 45 (forty-fifth session): main (70e57f2) on the GPU: the GPU proofs test, then a
# third of the 1% slice through the resumable gpu-slice phase (share 1/300, into
# results/boggle-4x4/share-1-of-300-gpu.txt), with the report's kernel_wait_seconds.
# Carry ["target/devpack"]; at most about 9 minutes.
. results/boggle-4x4/pending/call-lib.sh
mkdir -p $r/test
( OUT=$r/test timeout 170 scripts/boggle-4x4-slice.sh gpu-test > $r/test/table.txt 2>&1 )
echo "== test" >> $r/summary.txt; grep rc= $r/test/table.txt >> $r/summary.txt; tar czf $OUT/r.tgz -C $OUT r
run slice-1 frontier-main merges gpu-slice:1/300:330 360
table
grep -E "rc=" $r/summary.txt | cut -c1-900
