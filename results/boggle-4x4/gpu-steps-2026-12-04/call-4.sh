#!/bin/bash
# Issue 45 (forty-fifth session): the GPU thread's buffers kept between launches
# (frontier-released: launch buffers, timing events and the records' page-locked staging
# kept, arenas freed on a thread of their own) against main with the step timers
# (frontier-steps), seed 3's share 1/3, one after the other; the GPU test of the released
# build first. Carry ["target/devpack"]; about 6 minutes.
. results/boggle-4x4/pending/call-lib.sh
mkdir -p $r/test
( OUT=$r/test timeout 170 scripts/boggle-4x4-slice.sh gpu-test > $r/test/table.txt 2>&1 )
echo "== test" >> $r/summary.txt; grep rc= $r/test/table.txt >> $r/summary.txt; tar czf $OUT/r.tgz -C $OUT r
run s3-steps frontier-steps merges $S3 170
run s3-released frontier-released merges $S3 170
table
grep -h "by step" $r/*/stderr.log | cut -c40-400
