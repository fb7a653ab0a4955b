#!/bin/bash
# Issue 45 (thirty-fifth session; ran as pending/one-call.sh): one call, since starts were refused and the device
# time ran short for combo-call.sh and zero-call.sh both. On seed 3's share 1/3:
# main; 32 hardware queues with every class at depth 8 (combo-call.sh's first
# variant); the merges' read-back appended instead of copied over zeroed words
# (frontier-zero); then the GPU proofs test on frontier-zero's library. Binaries:
# build-held.sh, then frontier-zero and boggle-tests from the change (zero-call.sh
# says how). Carry ["target/devpack", "results/boggle-4x4/pending/one-call.sh",
# "results/boggle-4x4/pending/call-lib.sh"]; about 8 minutes.
. results/boggle-4x4/pending/call-lib.sh
run s3-main frontier-main merges $S3 125
CUDA_DEVICE_MAX_CONNECTIONS=32 GPU_DEEPER=never run s3-c32-d8 frontier-main merges gpu-sample:4096:3:8:16000:1/3 130
run s3-zero frontier-zero merges $S3 125
mkdir -p $r/tests
FRONTIER_REQUIRE_GPU=1 timeout 170 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/tests/gpu-proofs.log 2>&1
echo "gpu proofs test rc=$?" >> $r/summary.txt
tail -3 $r/tests/gpu-proofs.log >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
table
grep "gpu proofs" -A3 $r/summary.txt
