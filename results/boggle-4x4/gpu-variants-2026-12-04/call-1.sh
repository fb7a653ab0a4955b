#!/bin/bash
# Issue 45 (forty-sixth session): the walk's kernel variants of build.sh on seed 3's share
# 1/3. Ran as `call-1.sh 1`: the GPU test of frontier-both, then seed 3's share with it and
# with main (341 s on a fresh machine). `call-1.sh 2` (entries4, save, main) was prepared;
# call-2.sh ran instead, the two variants alone on the same warm machine, beside call 1's
# main. Carry ["target/devpack"] as built by build.sh.
. results/boggle-4x4/pending/call-lib.sh
if [ "$1" = 1 ]; then
  mkdir -p $r/test
  ( OUT=$r/test timeout 170 scripts/boggle-4x4-slice.sh gpu-test > $r/test/table.txt 2>&1 )
  echo "== test" >> $r/summary.txt; grep rc= $r/test/table.txt >> $r/summary.txt; tar czf $OUT/r.tgz -C $OUT r
  grep -q "rc=0" $r/test/table.txt || { tail -30 $r/test/gpu-test.log; exit 1; }
  run s3-both frontier-both merges $S3 170
  run s3-main frontier-main merges $S3 170
else
  run s3-entries4 frontier-entries4 merges $S3 170
  run s3-save frontier-save merges $S3 170
  run s3-main frontier-main merges $S3 170
fi
table
grep -h "prove kernel:" $r/*/stderr.log | cut -c40-300
