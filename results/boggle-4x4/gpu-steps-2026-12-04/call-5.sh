#!/bin/bash
# Issue 45 (forty-fifth session): the kernel's fix reads two stack entries a lane a
# round, each load step for both before the next (frontier-entries, ENTRIES 2), against
# main with the step timers (frontier-steps); the GPU test of the new build first, then
# seed 3's share 1/3 with each. Carry ["target/devpack"]; about 6 minutes.
. results/boggle-4x4/pending/call-lib.sh
mkdir -p $r/test
( OUT=$r/test timeout 170 scripts/boggle-4x4-slice.sh gpu-test > $r/test/table.txt 2>&1 )
echo "== test" >> $r/summary.txt; grep rc= $r/test/table.txt >> $r/summary.txt; tar czf $OUT/r.tgz -C $OUT r
grep -q "rc=0" $r/test/table.txt || { cat $r/test/gpu-test.log | tail -30; exit 1; }
run s3-entries frontier-entries merges $S3 170
run s3-steps frontier-steps merges $S3 170
table
grep -h "kernel:" $r/*/stderr.log | cut -c40-300
