#!/bin/bash
# Issue 45: builds target/devpack/bins.txz for kernel-variants-call.sh on the dev machine,
# four builds of the walk's kernel: frontier-main (main as it is), frontier-entries4
# (ENTRIES 4 in boggle_prove.cu: four stack entries a lane a round of a fix),
# frontier-save (boggle-kernel-row-loads.patch: save() and the fix's copy of its
# parent's rows issue every row's load before the first reduction or store),
# frontier-both (the two), and boggle-tests of the last (the GPU
# test then covers both changed blocks). Needs a clean work tree; leaves it as it was.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
git diff --quiet && git diff --cached --quiet || { echo "the work tree is not clean" >&2; exit 1; }
K=domains/boggle/kernels/boggle_prove.cu
P=results/boggle-4x4/gpu-variants-2026-12-04
rm -rf target/device target/devpack && mkdir -p target/device target/devpack
trap 'git checkout -q $K' EXIT
build() {  # name
  cargo build --release --bin frontier
  cp target/release/frontier "target/device/frontier-$1"
}
build main
sed -i 's/^#define ENTRIES 2$/#define ENTRIES 4/' $K
grep -q '^#define ENTRIES 4$' $K || { echo "ENTRIES not found" >&2; exit 1; }
build entries4
git checkout -q $K
git apply $P/boggle-kernel-row-loads.patch
build save
sed -i 's/^#define ENTRIES 2$/#define ENTRIES 4/' $K
build both
tests=$(cargo test --release -p frontier-boggle --test boggle --no-run 2>&1 | grep -o 'target/release/deps/boggle-[0-9a-f]*' | tail -1)
cp "$tests" target/device/boggle-tests
strip target/device/*
tar cJf target/devpack/bins.txz -C target/device .
ls -la target/device target/devpack
