#!/bin/bash
# Issue 45: the switchover near 16,000 on S3, main, one machine: 17,500, 16,000, 15,000.
source results/boggle-4x4/pending/call-lib.sh
run s3-sw17500 frontier-main merges gpu-sample:4096:3:7:17500:1/3 150
run s3-sw16000 frontier-main merges gpu-sample:4096:3:7:16000:1/3 150
run s3-sw15000 frontier-main merges gpu-sample:4096:3:7:15000:1/3 150
table
