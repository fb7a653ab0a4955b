#!/bin/bash
# Issue 45 (thirty-fourth session): the driver's hardware work queues. A context
# maps its streams onto CUDA_DEVICE_MAX_CONNECTIONS queues (8 by default, 32 at
# most); a proof has more streams than 8 (a merger's per host thread, two sorters,
# the walk's, the uploads' and read-backs'), so a merge's small launch may queue
# behind a walk launch on a shared queue. Main (868e778, frontier-main from
# pending/build-held.sh) with 32 against the default, on seed 1's 256 and seed 3's
# share 1/3. Carry ["target/devpack", "results/boggle-4x4/gpu-connections-2026-12-03/call.sh",
# "results/boggle-4x4/pending/call-lib.sh"]; about 5 minutes. call-2.sh: the seed 3 pair again, the device time left.
. results/boggle-4x4/pending/call-lib.sh
CUDA_DEVICE_MAX_CONNECTIONS=32 run s1-c32 frontier-main merges $S1 40
run s1-c8 frontier-main merges $S1 40
CUDA_DEVICE_MAX_CONNECTIONS=32 run s3-c32 frontier-main merges $S3 125
run s3-c8 frontier-main merges $S3 125
table
