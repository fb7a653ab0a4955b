#!/bin/bash
# Issue 45: builds target/device/ for next-call.sh, from main, on the dev machine: frontier-main,
# frontier-{fused,sorters,noclear} (each pending patch alone), frontier-all (the three), and
# boggle-lib / boggle-tests (the unit and integration test binaries of the three). Needs a
# clean work tree; leaves it on main. About five release builds.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
P=results/boggle-4x4/pending
FUSED=$P/boggle-gpu-merge-levels-fused.patch
SORTERS=$P/boggle-gpu-two-sorters.patch
NOCLEAR=$P/boggle-gpu-merge-no-clear.patch
git diff --quiet && git diff --cached --quiet || { echo "the work tree is not clean" >&2; exit 1; }
rm -rf target/device && mkdir -p target/device
build() {  # name patch...
  local name=$1; shift
  git checkout -q -B "try-$name" main
  for patch in "$@"; do git am -q "$patch"; done
  cargo build --release --bin frontier
  cp target/release/frontier "target/device/frontier-$name"
}
build main
build fused "$FUSED"
build sorters "$SORTERS"
build noclear "$NOCLEAR"
build all "$FUSED" "$SORTERS" "$NOCLEAR"
lib=$(cargo test --release -p frontier-boggle --lib --no-run 2>&1 | grep -o 'target/release/deps/frontier_boggle-[0-9a-f]*' | tail -1)
tests=$(cargo test --release -p frontier-boggle --test boggle --no-run 2>&1 | grep -o 'target/release/deps/boggle-[0-9a-f]*' | tail -1)
cp "$lib" target/device/boggle-lib
cp "$tests" target/device/boggle-tests
git checkout -q main
strip target/device/*
ls -la target/device
