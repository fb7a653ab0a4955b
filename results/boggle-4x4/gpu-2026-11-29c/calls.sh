#!/usr/bin/env bash
# calls.sh SECONDS PHASE...: scripts/boggle-4x4-slice.sh on 16 threads with
# --gpu-host-copies always (BIN overrides), cut at SECONDS; outputs tarred.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info XDG_CACHE_HOME=/tmp/fc
limit=$1; shift
mkdir -p $OUT/r
OUT=$OUT/r THREADS=16 FRONTIER_BIN=${BIN:-target/device/frontier-always} timeout $limit scripts/boggle-4x4-slice.sh "$@" > $OUT/table.txt 2>&1
echo "rc=$?" >> $OUT/table.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $OUT/table.txt
tar czf $OUT/runs.tgz -C $OUT r && rm -rf $OUT/r
cat $OUT/table.txt
