#!/bin/bash
# Issue 45 (forty-fifth session): where the GPU's thread spends its time, step by step
# (frontier-steps: main plus the thread's step timers, logged at the end), on seed 3's
# share 1/3 and seed 1's 256. Carry ["target/devpack"]; about 2.5 minutes.
. results/boggle-4x4/pending/call-lib.sh
run s3 frontier-steps merges $S3 200
run s1 frontier-steps merges $S1 60
table
grep -h "by step" $r/*/stderr.log | cut -c1-400
