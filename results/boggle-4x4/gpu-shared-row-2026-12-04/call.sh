#!/bin/bash
# Issue 45 (forty-fourth session): the walk kernel's row under construction in shared
# memory (frontier-shared, this session's boggle_prove.cu) against main (c7cabd7).
# The variant's GPU proofs test first, then seed 1's 256 and seed 3's share 1/3,
# alternating. Carry ["target/devpack",
# "results/boggle-4x4/pending/shared-row-call.sh"] (now this file).
. results/boggle-4x4/pending/call-lib.sh
( cd $r && FRONTIER_REQUIRE_GPU=1 FRONTIER_DATA=$OLDPWD/data timeout 120 $OLDPWD/target/device/boggle-tests-shared gpu_proofs --test-threads 1 > gpu-test.txt 2>&1; echo "gpu test rc=$?" >> summary.txt )
tail -3 $r/gpu-test.txt >> $r/summary.txt
run s1-shared frontier-shared merges $S1 40
run s1-main frontier-main merges $S1 40
run s1-shared-b frontier-shared merges $S1 40
run s1-main-b frontier-main merges $S1 40
run s3-shared frontier-shared merges $S3 125
run s3-main frontier-main merges $S3 125
table
cat $r/summary.txt | grep -E "gpu test|test result"
