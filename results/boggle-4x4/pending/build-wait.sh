#!/bin/bash
# Issue 45: builds target/devpack/bins.txz for wait-call.sh on the dev machine: frontier and
# the boggle test binaries (boggle-lib, boggle-tests) with boggle-gpu-wait-flags.patch on
# main (FRONTIER_GPU_WAIT unset is main's behaviour, so one binary gives both sides). Needs
# a clean work tree; leaves it on main.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
git diff --quiet && git diff --cached --quiet || { echo "the work tree is not clean" >&2; exit 1; }
git checkout -q -B try-wait main
git am -q results/boggle-4x4/pending/boggle-gpu-wait-flags.patch
cargo build --release --bin frontier
lib=$(cargo test --release -p frontier-boggle --lib --no-run 2>&1 | grep -o 'target/release/deps/frontier_boggle-[0-9a-f]*' | tail -1)
tests=$(cargo test --release -p frontier-boggle --test boggle --no-run 2>&1 | grep -o 'target/release/deps/boggle-[0-9a-f]*' | tail -1)
rm -rf target/device target/devpack && mkdir -p target/device target/devpack
cp target/release/frontier target/device/frontier
cp "$lib" target/device/boggle-lib
cp "$tests" target/device/boggle-tests
git checkout -q main
strip target/device/*
tar cJf target/devpack/bins.txz -C target/device .
ls -la target/device target/devpack
