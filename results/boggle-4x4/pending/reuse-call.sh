#!/bin/bash
# Issue 45 (prepared in the thirty-second session, not run: the device time was spent).
# 1. boggle-gpu-prefix-reuse.patch: a warp starts its next item's fixes where the item
#    parts from its last one (same tree), one item a fetch as main. The GPU proofs test
#    first (with the patch), then seed 3's share 1/3 (GPU-bound since 9531a77; kernel
#    88.4 s on machines U and V) and seed 1's 256, main beside the patch.
# (modes-call.sh is the second call, on the same binaries.)
# Binaries from build-reuse.sh. Run with carry ["target/devpack",
# "results/boggle-4x4/pending/reuse-call.sh"]; about 6.5 minutes.
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $r/summary.txt
FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/proofs.log 2>&1; echo "proofs test (reuse) rc=$?" >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
run() {  # name binary build sample timeout
  mkdir -p $r/$1
  ( GPU_BUILD=$3 FRONTIER_BIN=target/device/$2 THREADS=16 OUT=$r/$1 timeout $5 scripts/boggle-4x4-slice.sh $4 > $r/$1/table.txt 2>&1 )
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|GPU builds of" $r/$1/stderr.log | cut -c40- | cut -c1-300 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
S1=gpu-sample:256:1:7:16000
S3=gpu-sample:4096:3:7:16000:1/3
run s3-reuse frontier-reuse merges $S3 140
run s3-main frontier-main merges $S3 140
run s1-reuse frontier-reuse merges $S1 45
run s1-main frontier-main merges $S1 45
grep -E "^==|rc=" $r/summary.txt | sed -E 's/rc=0.*wall ([0-9.]+ s), kernel ([0-9.]+ s).*(projected [^(]*\([^;]*).*host ([0-9]+ thread-s).*/wall \1 kernel \2 \3 host \4/' | cut -c1-200
