#!/bin/bash
# Issue 45 (forty-sixth session): the 1% slice's first third again with main (two stack
# entries a lane), so that the slice's figure is one kernel's: the gpu-share phase (no
# results file; the resumable file of the forty-fifth session, from the kernel before,
# is complete). A fresh machine. Carry ["target/devpack"] as built by build.sh.
. results/boggle-4x4/pending/call-lib.sh
run share-1 frontier-main merges gpu-share:1/300:7:16000:500 540
table
