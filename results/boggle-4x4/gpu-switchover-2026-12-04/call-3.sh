#!/bin/bash
# Issue 45: forcing stopped in a class whose arena holds 2^30 words or more
# (FRONTIER_FORCE_CAP, force-cap-experiment.diff), so that the switchover can
# fall without the classes whose merges outgrow the GPU's (2^31 words). S3, one
# machine: 16,000 without the cap (main's way), then 13,000 with it.
source results/boggle-4x4/pending/call-lib.sh
run s3-sw16000 frontier-cap merges gpu-sample:4096:3:7:16000:1/3 125
export FRONTIER_FORCE_CAP=1073741824
run s3-sw13000-cap frontier-cap merges gpu-sample:4096:3:7:13000:1/3 125
table
