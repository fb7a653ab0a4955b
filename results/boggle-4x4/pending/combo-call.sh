#!/bin/bash
# Issue 45 (prepared in the thirty-fourth session, not run: the device time was spent).
# 32 hardware queues (CUDA_DEVICE_MAX_CONNECTIONS) halve the merges' waits for their
# totals but left the wall where it was: the host's freed time went to waiting on the
# budget. Here they go with a split that leans deeper, to spend that time on the host's
# walk: depth 8 for every class, and the held level (boggle-deeper-held.patch, F = 0.5).
# Seed 3's share 1/3 first (the GPU bounds it), then seed 1's 256. Binaries from
# build-held.sh. Carry ["target/devpack", "results/boggle-4x4/pending/combo-call.sh",
# "results/boggle-4x4/pending/call-lib.sh"]; about 9 minutes (timeout_s 600).
. results/boggle-4x4/pending/call-lib.sh
S1D8=gpu-sample:256:1:8:16000
S3D8=gpu-sample:4096:3:8:16000:1/3
run s3-main frontier-main merges $S3 125
CUDA_DEVICE_MAX_CONNECTIONS=32 GPU_DEEPER=never run s3-c32-d8 frontier-main merges $S3D8 130
CUDA_DEVICE_MAX_CONNECTIONS=32 FRONTIER_DEEPER_HELD=0.5 run s3-c32-held50 frontier-held merges $S3 125
CUDA_DEVICE_MAX_CONNECTIONS=32 run s3-c32 frontier-main merges $S3 125
run s1-main frontier-main merges $S1 40
CUDA_DEVICE_MAX_CONNECTIONS=32 GPU_DEEPER=never run s1-c32-d8 frontier-main merges $S1D8 40
CUDA_DEVICE_MAX_CONNECTIONS=32 FRONTIER_DEEPER_HELD=0.5 run s1-c32-held50 frontier-held merges $S1 40
table
