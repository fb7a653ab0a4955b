#!/bin/bash
# Issue 45 (forty-sixth session): the 1% slice's third 101/300 with main (two stack entries a
# lane) through the resumable phase, into results/boggle-4x4/share-101-of-300-gpu.txt, on
# call 1's machine. Carry ["target/devpack"] as built by build.sh (frontier-main).
. results/boggle-4x4/pending/call-lib.sh
run slice-101 frontier-main merges gpu-slice:101/300:500 540
table
