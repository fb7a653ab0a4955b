#!/usr/bin/env bash
# Device call E (2026-11-28 fifteenth session): --gpu-host-copies always
# against the default (queue-full), 1,024 classes, 32 host threads.
set -u
export CUDA_VISIBLE_DEVICES=0 XDG_CACHE_HOME=/tmp/frontier-cache RUST_LOG=info
R=$OUT/r; mkdir -p $R
t() { echo "$*" >> $OUT/table.txt; }
t "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
go() { # label bin threads phase
  local label=$1 bin=$2 th=$3 phase=$4
  mkdir -p $R/$label
  THREADS=$th OUT=$R/$label FRONTIER_BIN=$bin scripts/boggle-4x4-slice.sh "$phase" | tail -n 1 | sed "s/^/$label /" >> $OUT/table.txt
  cp $R/$label/*.json $OUT/$label.json
}
go always-32-d7-1024 target/device/frontier-up4-always 32 gpu-sample:1024:1:7:16000
go queuefull-32-d7-1024 target/device/frontier-up4 32 gpu-sample:1024:1:7:16000
cat $OUT/table.txt
