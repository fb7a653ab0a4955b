#!/bin/bash
# Issue 45, for the next session: the three pending patches on one machine (builds nothing).
# Build first, on the dev machine: results/boggle-4x4/pending/build-next.sh (frontier-main,
# frontier-{fused,sorters,noclear,all}, and the test binaries of all three).
# Run with carry ["target/device", "results/boggle-4x4/pending/next-call.sh"]. Tarred after
# each step.
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
for b in main all fused sorters noclear main all; do
  k=1; [ -d $r/${b}1 ] && k=2
  run $b$k frontier-$b gpu-sample:256:1:7:16000 60
done
run all-s3 frontier-all gpu-sample:4096:3:7:16000:1/3 170
cat $r/summary.txt
