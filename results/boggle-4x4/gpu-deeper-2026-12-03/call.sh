#!/bin/bash
# Issue 45 (thirty-third session; second run, the host budget's waits counted as
# the GPU behind): a class split one position deeper while the
# GPU's queue is full (`--gpu-deeper when-behind`, the default) against every
# class at depth 7 (`never`), with the prefix reuse merged. The GPU proofs test
# first (it now splits every other class deeper), then seed 3's share 1/3
# (GPU-bound at depth 7, host-bound at 8) and seed 1's 256.
# Binaries: target/device/frontier (this HEAD) and boggle-tests, packed into
# target/devpack/bins.txz. Run with carry ["target/devpack",
# "results/boggle-4x4/pending/deeper-call.sh",
# "results/boggle-4x4/pending/call-lib.sh"]; about 6.5 minutes.
. results/boggle-4x4/pending/call-lib.sh
FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/proofs.log 2>&1; echo "proofs test rc=$?" >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
GPU_DEEPER=when-behind run s3-behind frontier merges $S3 140
GPU_DEEPER=never run s3-never frontier merges $S3 140
GPU_DEEPER=when-behind run s1-behind frontier merges $S1 45
GPU_DEEPER=never run s1-never frontier merges $S1 45
table
