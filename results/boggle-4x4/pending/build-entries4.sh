#!/bin/bash
# Issue 45: builds target/devpack/bins.txz for entries4-call.sh on the dev machine:
# frontier-main (main as it is), frontier-entries4 and boggle-tests (main with ENTRIES 4
# in boggle_prove.cu: four stack entries a lane a round of a fix). Needs a clean work
# tree; leaves it as it was.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
git diff --quiet && git diff --cached --quiet || { echo "the work tree is not clean" >&2; exit 1; }
rm -rf target/device target/devpack && mkdir -p target/device target/devpack
cargo build --release --bin frontier
cp target/release/frontier target/device/frontier-main
K=domains/boggle/kernels/boggle_prove.cu
sed -i 's/^#define ENTRIES 2$/#define ENTRIES 4/' $K
grep -q '^#define ENTRIES 4$' $K || { git checkout $K; echo "ENTRIES not found" >&2; exit 1; }
trap 'git checkout -q $K' EXIT
cargo build --release --bin frontier
cp target/release/frontier target/device/frontier-entries4
tests=$(cargo test --release -p frontier-boggle --test boggle --no-run 2>&1 | grep -o 'target/release/deps/boggle-[0-9a-f]*' | tail -1)
cp "$tests" target/device/boggle-tests
strip target/device/*
tar cJf target/devpack/bins.txz -C target/device .
ls -la target/device target/devpack
