#!/bin/bash
# Issue 45 (prepared in the forty-seventh session, not run): cheaper merges, then a
# lower switchover. At 13,000 with forcing capped at 2^30 arena words the kernel took
# 15% less than at 16,000 and the merges 76% more, the wall the same
# (../gpu-switchover-2026-12-04/call-3). 32 hardware queues halved the merges' waits
# for their totals in the thirty-fourth session without moving the wall at 16,000,
# where the merges were not the bound. Here the two together. S3, one machine, about
# 450 s on a started machine (build: cap-build.sh; carry target/devpack and this
# folder). Run: bash results/boggle-4x4/pending/cap-call.sh
source results/boggle-4x4/pending/call-lib.sh
run s3-sw16000 frontier-cap merges gpu-sample:4096:3:7:16000:1/3 130
export FRONTIER_FORCE_CAP=1073741824 CUDA_DEVICE_MAX_CONNECTIONS=32
run s3-sw13000-cap-q32 frontier-cap merges gpu-sample:4096:3:7:13000:1/3 130
run s3-sw14000-cap-q32 frontier-cap merges gpu-sample:4096:3:7:14000:1/3 130
unset FRONTIER_FORCE_CAP
run s3-sw16000-q32 frontier-cap merges gpu-sample:4096:3:7:16000:1/3 130
table
