#!/bin/bash
# Issue 45 (forty-sixth session): the 1% slice's third 201/300 with main (two stack entries a
# lane) through the resumable phase, into results/boggle-4x4/share-201-of-300-gpu.txt, on
# call 1's machine. Carry ["target/devpack"] as built by build.sh (frontier-main).
. results/boggle-4x4/pending/call-lib.sh
run slice-201 frontier-main merges gpu-slice:201/300:500 540
table
