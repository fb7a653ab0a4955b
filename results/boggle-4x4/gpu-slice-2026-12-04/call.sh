#!/bin/bash
# Issue 45 (forty-fourth session): the 1% slice (share 1/100, the CPU's measured slice) on
# the GPU, a third a call: gpu-slice-call.sh K with K = 1, 101 or 201 runs share K/300.
# main (c7cabd7) as frontier-main in target/devpack/bins.txz. Carry ["target/devpack",
# "results/boggle-4x4/pending/gpu-slice-call.sh"] (now this file); at most about 9.5 minutes.
. results/boggle-4x4/pending/call-lib.sh
run share-$1 frontier-main merges gpu-share:$1/300:7:16000:520 560
table
grep -E "rc=" $r/summary.txt | cut -c1-700
