#!/bin/bash
# Issue 45 (thirty-fifth session; prepared, not run: the device time was spent): the
# merges' read-back appended (now main) against the build before it, on seed 1's 256,
# where the host bounds, alternating. Binaries: frontier-zero is HEAD's build;
# frontier-main is 11e25a0's (build-held.sh's first binary, run at that commit).
# Carry ["target/devpack", "results/boggle-4x4/pending/call-lib.sh",
# "results/boggle-4x4/pending/zero-s1-call.sh"]; about 3 minutes on a started machine.
. results/boggle-4x4/pending/call-lib.sh
run s1-zero frontier-zero merges $S1 45
run s1-main frontier-main merges $S1 45
run s1-zero-b frontier-zero merges $S1 45
run s1-main-b frontier-main merges $S1 45
table
