#!/bin/bash
# Issue 45 (thirty-fourth session): seed 1's 256 with 32 hardware queues against
# the default, twice each, alternating (call 1 had 32 an hour worse there). Same
# binaries and carry as call.sh, with this script; about 2 minutes.
. results/boggle-4x4/pending/call-lib.sh
CUDA_DEVICE_MAX_CONNECTIONS=32 run s1-c32-a frontier-main merges $S1 40
run s1-c8-a frontier-main merges $S1 40
CUDA_DEVICE_MAX_CONNECTIONS=32 run s1-c32-b frontier-main merges $S1 40
run s1-c8-b frontier-main merges $S1 40
table
