#!/bin/bash
# Issue 45: subclasses at the split handed over without the host's fix where their
# look-ahead bound is far enough above the target (prove.rs, SPLIT_UNFIXED_PERCENT).
# One binary built from the work tree on the dev machine, with FRONTIER_SPLIT_UNFIXED
# (percent above the target; 1000000 = never, main's behaviour) read for this measurement
# only; packed in target/devpack/bins.txz. Run with carry ["target/devpack",
# "results/boggle-4x4/gpu-unfixed-2026-12-03/call.sh"]; about 8 minutes.
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; free -g | head -2; } > $r/summary.txt
# Every subclass at the split unfixed: the most items below the target for the GPU.
FRONTIER_SPLIT_UNFIXED=0 FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/boggle-tests gpu_proofs_equal_cpu_proofs --test-threads 1 > $r/proofs.log 2>&1; echo "proofs test (unfixed 0) rc=$?" >> $r/summary.txt
tar czf $OUT/r.tgz -C $OUT r
run() {  # name percent threads sample timeout
  mkdir -p $r/$1
  ( FRONTIER_SPLIT_UNFIXED=$2 GPU_BUILD=merges FRONTIER_BIN=target/device/frontier THREADS=$3 OUT=$r/$1 timeout $5 scripts/boggle-4x4-slice.sh $4 > $r/$1/table.txt 2>&1 )
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU" $r/$1/stderr.log | cut -c40- | cut -c1-300 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
S1=gpu-sample:256:1:7:16000
S3=gpu-sample:4096:3:7:16000:1/3
run s1-never 1000000 16 $S1 45
run s1-30 30 16 $S1 45
run s1-10 10 16 $S1 45
run s1-0 0 16 $S1 45
run s1-0b 0 16 $S1 45
run s1-neverb 1000000 16 $S1 45
run s3-0 0 16 $S3 150
run s3-never 1000000 16 $S3 150
grep -E "^==|rc=" $r/summary.txt | sed -E 's/rc=0.*wall ([0-9.]+ s), kernel ([0-9.]+ s).*(projected [^(]*\([^;]*).*host ([0-9]+ thread-s).*/wall \1 kernel \2 \3 host \4/' | cut -c1-200
