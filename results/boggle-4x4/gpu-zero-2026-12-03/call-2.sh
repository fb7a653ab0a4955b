#!/bin/bash
# Issue 45 (thirty-fifth session): call 1's machine, still warm, right after it: the
# merges' read-back appended (frontier-zero) against main again, alternating, on seed
# 3's share 1/3. Binaries as call-1.sh's. Ran as one command line; about 5.5 minutes.
. results/boggle-4x4/pending/call-lib.sh
run s3-zero-b frontier-zero merges $S3 125
run s3-main-b frontier-main merges $S3 125
run s3-zero-c frontier-zero merges $S3 125
table
