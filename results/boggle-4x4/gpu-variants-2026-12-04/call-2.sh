#!/bin/bash
# Issue 45 (forty-sixth session): the two kernel variants alone on seed 3's share 1/3, on
# call 1's machine while it was warm (main's row of call 1 stands beside them). Carry
# ["target/devpack"] as built by build.sh.
. results/boggle-4x4/pending/call-lib.sh
run s3-save frontier-save merges $S3 170
run s3-entries4 frontier-entries4 merges $S3 170
table
grep -h "prove kernel:" $r/*/stderr.log | cut -c40-300
