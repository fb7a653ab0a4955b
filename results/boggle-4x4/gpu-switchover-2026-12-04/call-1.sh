#!/bin/bash
# Issue 45: the GPU proof's switchover again on seed 3's share 1/3 (S3), main
# (one build), one machine: 16,000 (the default of the GPU runs), 13,000, 20,000,
# then 16,000 again for the machine's drift.
source results/boggle-4x4/pending/call-lib.sh
run s3-sw16000 frontier-main merges gpu-sample:4096:3:7:16000:1/3 140
run s3-sw13000 frontier-main merges gpu-sample:4096:3:7:13000:1/3 140
run s3-sw20000 frontier-main merges gpu-sample:4096:3:7:20000:1/3 140
run s3-sw16000b frontier-main merges gpu-sample:4096:3:7:16000:1/3 140
table
