#!/bin/bash
# Issue 45 (prepared in the thirty-second session, not run: the device time was spent).
# Seed 3's share 1/3 is bound by the GPU since 9531a77, with host time to spare:
# 1. main with its merges on the host (--gpu-build tree), and with its fills on the host
#    (paths): does GPU work moved back to the host pay now?
# 2. main with boggle-gpu-diag-no-walk.patch (FRONTIER_DIAG_NO_WALK: the kernel walks
#    nothing; the result is void): the wall of everything but the walk, against main's
#    wall and kernel seconds (reuse-call.sh's s3-main, or 109-110 s and 88.4 s on U, V).
# 3. main with the split at depth 8 (below).
# Binaries from build-reuse.sh. Run with carry ["target/devpack",
# "results/boggle-4x4/pending/modes-call.sh",
# "results/boggle-4x4/pending/call-lib.sh"]; about 8.5 minutes (the last row may be cut).
. results/boggle-4x4/pending/call-lib.sh
run s3-tree frontier-main tree $S3 140
run s3-paths frontier-main paths $S3 140
FRONTIER_DIAG_NO_WALK=1 run s3-diag frontier-diag merges $S3 140
# 3. The split at depth 8 (main): the kernel took 37% less time there in the twenty-sixth
#    session, when the host's fixes at the split made it lose; those fixes are gone.
run s1-d8 frontier-main merges gpu-sample:256:1:8:16000 45
run s3-d8 frontier-main merges gpu-sample:4096:3:8:16000:1/3 120
table
