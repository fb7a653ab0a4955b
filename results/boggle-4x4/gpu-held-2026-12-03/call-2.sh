#!/bin/bash
# Issue 45 (thirty-fourth session): the deeper split read from the host budget's
# fill (frontier-new: held at least half, or the queue full) against main before it
# (frontier-main: after a handover that waited), alternating, on seed 1's 256 and
# seed 3's share 1/3; first the GPU proofs test on the new build. Binaries: main's
# build-held.sh for frontier-main; frontier-new and boggle-tests built from the
# change (`cargo build --release --bin frontier`, `cargo test --release -p
# frontier-boggle --test boggle --no-run`). Carry ["target/devpack",
# "results/boggle-4x4/gpu-held-2026-12-03/call.sh" (it ran under that name),
# "results/boggle-4x4/pending/call-lib.sh"]; about 7 minutes.
. results/boggle-4x4/pending/call-lib.sh
mkdir -p $OUT/r/tests
FRONTIER_REQUIRE_GPU=1 FRONTIER_DATA=$PWD/data timeout 200 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $OUT/r/tests/gpu-proofs.log 2>&1
echo "gpu proofs test rc=$?" | tee -a $OUT/r/summary.txt
tail -3 $OUT/r/tests/gpu-proofs.log
run s1-new frontier-new merges $S1 40
run s1-main frontier-main merges $S1 40
run s3-new frontier-new merges $S3 125
run s3-main frontier-main merges $S3 125
table
