#!/bin/bash
# Issue 45 (prepared in the thirty-third session; ran in the thirty-fourth as
# results/boggle-4x4/pending/held-call.sh, call 1 of gpu-held-2026-12-03).
# Main's deeper split (a class one position deeper after a handover that waited for
# the GPU) against boggle-deeper-held.patch (deeper while the host budget holds at
# least F of itself when the class starts: F = 0.5 and 0.75) and depth 8 for every
# class, all on one machine: seed 1's 256 first, then seed 3's share 1/3.
# Binaries from build-held.sh. Run with carry ["target/devpack",
# "results/boggle-4x4/pending/held-call.sh",
# "results/boggle-4x4/pending/call-lib.sh"]; about 9 minutes (timeout_s 600).
. results/boggle-4x4/pending/call-lib.sh
S1D8=gpu-sample:256:1:8:16000
S3D8=gpu-sample:4096:3:8:16000:1/3
run s1-main frontier-main merges $S1 40
FRONTIER_DEEPER_HELD=0.5 run s1-held50 frontier-held merges $S1 40
FRONTIER_DEEPER_HELD=0.75 run s1-held75 frontier-held merges $S1 40
GPU_DEEPER=never run s1-d8 frontier-main merges $S1D8 40
run s3-main frontier-main merges $S3 125
FRONTIER_DEEPER_HELD=0.5 run s3-held50 frontier-held merges $S3 125
FRONTIER_DEEPER_HELD=0.75 run s3-held75 frontier-held merges $S3 125
GPU_DEEPER=never run s3-d8 frontier-main merges $S3D8 115
table
