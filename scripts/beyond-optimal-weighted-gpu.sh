#!/usr/bin/env bash
# Issue 43 on the GPU machine, second batch; builds nothing: the GPU tests of
# pancake and tiles (carried in target/device as pancake-test, tiles-test),
# then weighted GA* on the 35-puzzle (configs/order-gpu-weighted-35.ron). GPU
# tests run one at a time: each sizes its buffers from the free memory, so
# tests run side by side can leave each other out of memory.
export XDG_CACHE_HOME=/tmp/frontier-cache
for t in pancake tiles; do FRONTIER_REQUIRE_GPU=1 target/device/$t-test gpu --test-threads 1 2>&1 | grep -E "^test .*FAIL|panicked|test result"; done
FRONTIER_REQUIRE_GPU=1 target/device/pancake-test weighted_gpu 2>&1 | grep -E "^test |panicked|result"
target/device/frontier --quiet run configs/order-gpu-weighted-35.ron --output /tmp/w35.csv --overwrite 2>&1 | tail -n 34
