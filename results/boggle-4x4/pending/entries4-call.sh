#!/bin/bash
# Issue 45: four stack entries a lane (frontier-entries4) against main's two
# (frontier-main), seed 3's share 1/3, after the GPU test of the four-entry build. Build
# with build-entries4.sh; carry ["target/devpack",
# "results/boggle-4x4/pending/entries4-call.sh"]; about 6.5 minutes on a fresh machine.
. results/boggle-4x4/pending/call-lib.sh
mkdir -p $r/test
( OUT=$r/test timeout 170 scripts/boggle-4x4-slice.sh gpu-test > $r/test/table.txt 2>&1 )
echo "== test" >> $r/summary.txt; grep rc= $r/test/table.txt >> $r/summary.txt; tar czf $OUT/r.tgz -C $OUT r
grep -q "rc=0" $r/test/table.txt || { tail -30 $r/test/gpu-test.log; exit 1; }
run s3-entries4 frontier-entries4 merges $S3 170
run s3-main frontier-main merges $S3 170
table
grep -h "prove kernel:" $r/*/stderr.log | cut -c40-300
