#!/bin/bash
# temporary: the mirror tie-break on the GPU beam, DeepCubeA's own 35-puzzles
export CUDA_VISIBLE_DEVICES=0
mkdir -p $OUT/r
run() { # name first width env
  sed "s#FIRST#$2#; s#WIDTH#$3#; s#OUTPUT#$OUT/r/$1.csv#" target/device/own35.ron > /tmp/$1.ron
  local t=$(date +%s.%N)
  env $4 target/device/frontier run /tmp/$1.ron > $OUT/r/$1.log 2>&1
  echo "$1 rc=$? $(awk "BEGIN{print $(date +%s.%N) - $t}") s" | tee -a $OUT/r/times.txt
  tail -n 1 $OUT/r/$1.log
}
run base30 30 4000000 X=1
run mirror100 100 4000000 FRONTIER_RANK_MIRROR=1
run mirror30w 30 9000000 FRONTIER_RANK_MIRROR=1
tar czf $OUT/r.tgz -C $OUT r
