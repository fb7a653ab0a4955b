#!/bin/bash
# Issue 45 (2026-12-02, twenty-eighth session): the merges' read-back split into growing the
# host's arena and the copy; the host's arenas grown with huge pages advised
# (FRONTIER_TMP_HUGE, h; results/boggle-4x4/pending/boggle-huge-arenas.patch on f130520) or
# not (p); seed 1's 256, 16 host threads. Tarred after each run.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled) defrag: $(cat /sys/kernel/mm/transparent_hugepage/defrag)"; nproc; free -g | head -2; } > $r/summary.txt
for run in p1 h1 p2 h2; do
  mkdir -p $r/$run
  huge=; [ "${run:0:1}" = h ] && huge=1
  FRONTIER_TMP_HUGE=$huge GPU_BUILD=merges FRONTIER_BIN=target/device/frontier THREADS=16 OUT=$r/$run timeout 70 scripts/boggle-4x4-slice.sh gpu-sample:256:1:7:16000 > $r/$run/table.txt 2>&1
  echo "== $run" >> $r/summary.txt; grep rc= $r/$run/table.txt | cut -c1-300 >> $r/summary.txt; grep -hE "host threads' .* on classes|merges on the GPU|GPU builds|arena pool" $r/$run/stderr.log | cut -c40- >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
done
cat $r/summary.txt
