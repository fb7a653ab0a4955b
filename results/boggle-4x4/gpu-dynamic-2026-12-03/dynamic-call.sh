#!/bin/bash
# Issue 45: the host budget for classes handed over, past its floor while memory is to spare (gpu_prove/host_budget.rs). The
# wait-flags call (results/boggle-4x4/gpu-wait-2026-12-03/) lost seed 3's share 1/3 at 24
# host threads: the process was killed at 104 s (rc 137), likely for memory. Binaries built
# from the work tree on the dev machine (frontier with the budget, frontier-main = main,
# boggle-tests with the budget's GPU test), packed in target/devpack/bins.txz. Run with
# carry ["target/devpack", "results/boggle-4x4/pending/dynamic-call.sh"]; about 4 minutes.
# Ran with its s3-dynamic-16 line deleted on the device (the device time left); its
# budget rule, the floor, is not main's (docs/RESULTS.md).
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; free -g | head -2; } > $r/summary.txt
# (the GPU proofs test passed with the fixed budget: ../gpu-budget-2026-12-03/)
tar czf $OUT/r.tgz -C $OUT r
run() {  # name binary threads sample timeout
  mkdir -p $r/$1
  # main logs no peak: sample every frontier process's resident memory each second.
  ( peak=0; while sleep 1; do kb=$(ps -o rss= -C $2 | sort -n | tail -1); [ -n "$kb" ] && [ "$kb" -gt "$peak" ] && peak=$kb && echo "$peak" > $r/$1/peak-rss-kb; done ) & sampler=$!
  ( GPU_BUILD=merges FRONTIER_BIN=target/device/$2 THREADS=$3 OUT=$r/$1 timeout $5 scripts/boggle-4x4-slice.sh $4 > $r/$1/table.txt 2>&1 )
  kill $sampler; echo "sampled peak resident: $(( $(cat $r/$1/peak-rss-kb 2>/dev/null || echo 0) / 1048576 )) GiB" >> $r/summary.txt
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|host budget|peak resident|arena pool" $r/$1/stderr.log | cut -c40- | cut -c1-400 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
S1=gpu-sample:256:1:7:16000
S3=gpu-sample:4096:3:7:16000:1/3
run s3-dynamic-24 frontier 24 $S3 130
run s3-dynamic-16 frontier 16 $S3 130
# main at 16 beside them, if device time allows: run s3-main-16 frontier-main 16 $S3 150
grep -E "^==|rc=|peak|budget|sampled" $r/summary.txt | sed -E 's/rc=0.*(projected [^(]*).*/\1/' | cut -c1-200
