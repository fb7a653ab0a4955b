#!/bin/bash
# Issue 45: builds target/devpack/bins.txz for reuse-call.sh and modes-call.sh on the dev
# machine: frontier-main (main), frontier-reuse (main with boggle-gpu-prefix-reuse.patch),
# boggle-tests with that patch (its GPU proofs test) and frontier-diag (main with
# boggle-gpu-diag-no-walk.patch). Needs a clean work tree; leaves it as it was. About four
# release builds (1.5 minutes here when little changed).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
P=results/boggle-4x4/pending
git diff --quiet && git diff --cached --quiet || { echo "the work tree is not clean" >&2; exit 1; }
rm -rf target/device target/devpack && mkdir -p target/device target/devpack
cargo build --release --bin frontier
cp target/release/frontier target/device/frontier-main
git apply "$P/boggle-gpu-prefix-reuse.patch"
trap 'git checkout -q domains/boggle/kernels/boggle_prove.cu domains/boggle/src/gpu_prove.rs' EXIT
cargo build --release --bin frontier
cp target/release/frontier target/device/frontier-reuse
tests=$(cargo test --release -p frontier-boggle --test boggle --no-run 2>&1 | grep -o 'target/release/deps/boggle-[0-9a-f]*' | tail -1)
cp "$tests" target/device/boggle-tests
git checkout -q domains/boggle/kernels/boggle_prove.cu
git apply "$P/boggle-gpu-diag-no-walk.patch"
cargo build --release --bin frontier
cp target/release/frontier target/device/frontier-diag
strip target/device/*
tar cJf target/devpack/bins.txz -C target/device .
ls -la target/device target/devpack
