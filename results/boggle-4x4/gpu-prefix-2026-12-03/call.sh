#!/bin/bash
# Issue 45: the prove kernel's warps take ITEMS_AT_ONCE consecutive items and start each
# item's fixes where it parts from the last (boggle_prove.cu). Binaries built from the work
# tree on the dev machine (frontier, boggle-tests); FRONTIER_ITEMS_AT_ONCE prepends the
# define, read by this measuring build only (1 is close to main's one item a fetch).
# Run with carry ["target/devpack", "results/boggle-4x4/gpu-prefix-2026-12-03/call.sh"];
# about 6 minutes.
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; free -g | head -2; } > $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/proofs.log 2>&1; echo "proofs test (8 at once) rc=$?" >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
run() {  # name at-once threads sample timeout
  mkdir -p $r/$1
  ( FRONTIER_ITEMS_AT_ONCE=$2 GPU_BUILD=merges FRONTIER_BIN=target/device/frontier THREADS=$3 OUT=$r/$1 timeout $5 scripts/boggle-4x4-slice.sh $4 > $r/$1/table.txt 2>&1 )
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|GPU builds of" $r/$1/stderr.log | cut -c40- | cut -c1-300 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
S1=gpu-sample:256:1:7:16000
S3=gpu-sample:4096:3:7:16000:1/3
run s1-8 8 16 $S1 45
run s1-1 1 16 $S1 45
run s1-16 16 16 $S1 45
run s1-8b 8 16 $S1 45
run s1-1b 1 16 $S1 45
run s3-8 8 16 $S3 140
grep -E "^==|rc=" $r/summary.txt | sed -E 's/rc=0.*wall ([0-9.]+ s), kernel ([0-9.]+ s).*(projected [^(]*\([^;]*).*host ([0-9]+ thread-s).*/wall \1 kernel \2 \3 host \4/' | cut -c1-200
