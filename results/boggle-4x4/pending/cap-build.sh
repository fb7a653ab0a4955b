#!/bin/bash
# Issue 45: builds target/devpack/bins.txz for cap-call.sh on the dev machine: frontier
# with ../gpu-switchover-2026-12-04/force-cap-experiment.diff (FRONTIER_FORCE_CAP: no
# forcing in a class whose arena holds that many words; unset, main's behaviour).
# Needs a clean work tree; leaves it as it was.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
git diff --quiet && git diff --cached --quiet || { echo "the work tree is not clean" >&2; exit 1; }
trap 'git checkout -q domains/boggle/src' EXIT
git apply results/boggle-4x4/gpu-switchover-2026-12-04/force-cap-experiment.diff
cargo build --release --bin frontier
rm -rf target/device target/devpack && mkdir -p target/device target/devpack
cp target/release/frontier target/device/frontier-cap
strip target/device/*
tar cJf target/devpack/bins.txz -C target/device .
ls -la target/devpack
