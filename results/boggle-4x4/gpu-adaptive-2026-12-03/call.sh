#!/bin/bash
# Issue 45: the split's fixes left to the GPU while its queue has room (prove.rs,
# SPLIT_UNFIXED_PERCENT 0 and SPLIT_UNFIXED_PERCENT_GPU_BEHIND 30; gpu_prove.rs sets
# Split::queue_full from the handover channel). One binary built from the work tree on
# the dev machine; FRONTIER_SPLIT_UNFIXED (a fixed percent; 1000000 = never, main's
# behaviour) read for this measurement only, unset = the adaptive rule. Run with carry
# ["target/devpack", "results/boggle-4x4/gpu-adaptive-2026-12-03/call.sh"]; about 8 minutes.
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; free -g | head -2; } > $r/summary.txt
run() {  # name percent threads sample timeout
  mkdir -p $r/$1
  ( if [ "$2" != adaptive ]; then export FRONTIER_SPLIT_UNFIXED=$2; fi
    GPU_BUILD=merges FRONTIER_BIN=target/device/frontier THREADS=$3 OUT=$r/$1 timeout $5 scripts/boggle-4x4-slice.sh $4 > $r/$1/table.txt 2>&1 )
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds of" $r/$1/stderr.log | cut -c40- | cut -c1-300 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
S1=gpu-sample:256:1:7:16000
S3=gpu-sample:4096:3:7:16000:1/3
run s1-adaptive adaptive 16 $S1 45
run s1-never 1000000 16 $S1 45
run s1-0 0 16 $S1 45
run s1-adaptiveb adaptive 16 $S1 45
run s1-neverb 1000000 16 $S1 45
run s1-0b 0 16 $S1 45
run s3-adaptive adaptive 16 $S3 140
run s3-never 1000000 16 $S3 140
run s3-0 0 16 $S3 130
grep -E "^==|rc=" $r/summary.txt | sed -E 's/rc=0.*wall ([0-9.]+ s), kernel ([0-9.]+ s).*(projected [^(]*\([^;]*).*host ([0-9]+ thread-s).*/wall \1 kernel \2 \3 host \4/' | cut -c1-200
