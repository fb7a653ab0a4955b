#!/bin/bash
# Issue 45: builds target/devpack/bins.txz for merge-levels-call.sh on the dev machine:
# frontier and the boggle crate's test binaries with boggle-merge-levels-on-device.patch
# (FRONTIER_MERGE_LEVELS_A_READ=L: a merge's levels sized on the device, L queued a
# read-back; unset, main's read-back a level) and
# ../gpu-switchover-2026-12-04/force-cap-experiment.diff (FRONTIER_FORCE_CAP).
# Needs a clean work tree; leaves it as it was.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
git diff --quiet && git diff --cached --quiet || { echo "the work tree is not clean" >&2; exit 1; }
trap 'git checkout -q domains/boggle' EXIT
git apply results/boggle-4x4/merge-levels-2026-12-05/boggle-merge-levels-on-device.patch
git apply results/boggle-4x4/gpu-switchover-2026-12-04/force-cap-experiment.diff
cargo build --release --bin frontier
rm -rf target/device target/devpack && mkdir -p target/device target/devpack
cp target/release/frontier target/device/frontier-levels
lib=$(cargo test --release -p frontier-boggle --lib --no-run 2>&1 | grep -o 'target/release/deps/frontier_boggle-[0-9a-f]*' | tail -1)
tests=$(cargo test --release -p frontier-boggle --test boggle --no-run 2>&1 | grep -o 'target/release/deps/boggle-[0-9a-f]*' | tail -1)
cp "$lib" target/device/boggle-lib-tests
cp "$tests" target/device/boggle-tests
strip target/device/*
tar cJf target/devpack/bins.txz -C target/device .
ls -la target/devpack
