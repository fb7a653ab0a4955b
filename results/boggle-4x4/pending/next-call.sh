#!/bin/bash
# Issue 45, for the next session: the two pending patches on one machine (builds nothing).
# Build first (here, on the dev machine), from main:
#   for b in fused sorters both; do git checkout -b try-$b main; ... git am the patch(es) ...;
#     cargo build --release --bin frontier; cp target/release/frontier target/device/frontier-$b; done
#   (fused: boggle-gpu-merge-levels-fused.patch; sorters: boggle-gpu-two-sorters.patch; both: the two)
#   on try-both also: cargo test --release -p frontier-boggle --lib --no-run, and --test boggle --no-run:
#     copy them to target/device/boggle-lib and target/device/boggle-tests
#   main's frontier as target/device/frontier-main; strip target/device/*
# Run with carry ["target/device", "results/boggle-4x4/pending/next-call.sh"]. Tarred after each step.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 120 target/device/boggle-lib gpu_merges_equal_the_cpus --test-threads 1 > $r/merges.log 2>&1; echo "merges test rc=$?" >> $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 200 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/proofs.log 2>&1; echo "proofs test rc=$?" >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
run() {  # name binary sample timeout
  mkdir -p $r/$1
  GPU_BUILD=merges FRONTIER_BIN=target/device/$2 THREADS=16 OUT=$r/$1 timeout $4 scripts/boggle-4x4-slice.sh $3 > $r/$1/table.txt 2>&1
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds" $r/$1/stderr.log | cut -c40- | cut -c1-600 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
for k in 1 2; do
  for b in main fused sorters both; do run $b$k frontier-$b gpu-sample:256:1:7:16000 60; done
done
run both-s3 frontier-both gpu-sample:4096:3:7:16000:1/3 170
cat $r/summary.txt
