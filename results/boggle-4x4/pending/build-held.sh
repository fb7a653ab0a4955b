#!/bin/bash
# Issue 45: builds target/devpack/bins.txz for held-call.sh (now
# ../gpu-held-2026-12-03/call-1.sh) on the dev machine:
# frontier-main (HEAD) and frontier-held (HEAD with boggle-deeper-held.patch, the
# deeper split read from the host budget's fill when a class starts, with
# FRONTIER_DEEPER_HELD set). Needs a clean work tree; leaves it as it was. Two release
# builds.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
P=results/boggle-4x4/pending
git diff --quiet && git diff --cached --quiet || { echo "the work tree is not clean" >&2; exit 1; }
rm -rf target/device target/devpack && mkdir -p target/device target/devpack
cargo build --release --bin frontier
cp target/release/frontier target/device/frontier-main
git apply "$P/boggle-deeper-held.patch"
trap 'git checkout -q domains/boggle/src/handover.rs domains/boggle/src/prove.rs domains/boggle/src/gpu_prove.rs domains/boggle/src/gpu_prove/host_budget.rs' EXIT
cargo build --release --bin frontier
cp target/release/frontier target/device/frontier-held
strip target/device/*
tar cJf target/devpack/bins.txz -C target/device .
ls -la target/device target/devpack
