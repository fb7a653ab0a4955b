#!/bin/bash
# Issue 45 (prepared in the thirty-second session, not run: the device time was spent).
# 1. boggle-gpu-prefix-reuse.patch: a warp starts its next item's fixes where the item
#    parts from its last one (same tree), one item a fetch as main. The GPU proofs test
#    first (with the patch), then seed 3's share 1/3 (GPU-bound since 9531a77; kernel
#    88.4 s on machines U and V) and seed 1's 256, main beside the patch.
# (modes-call.sh is the second call, on the same binaries.)
# Binaries from build-reuse.sh. Run with carry ["target/devpack",
# "results/boggle-4x4/pending/reuse-call.sh",
# "results/boggle-4x4/pending/call-lib.sh"]; about 6.5 minutes.
. results/boggle-4x4/pending/call-lib.sh
FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/proofs.log 2>&1; echo "proofs test (reuse) rc=$?" >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
run s3-reuse frontier-reuse merges $S3 140
run s3-main frontier-main merges $S3 140
run s1-reuse frontier-reuse merges $S1 45
run s1-main frontier-main merges $S1 45
table
