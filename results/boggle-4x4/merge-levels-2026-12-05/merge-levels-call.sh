#!/bin/bash
# Issue 45 (prepared in the forty-seventh session, run 2026-12-05: call-1/, call-2/;
# build: merge-levels-build.sh, carry target/devpack). A merge's levels sized on the
# device, L levels queued a read-back (boggle-merge-levels-on-device.patch): at 16,000, 286 of the merges' 565
# host thread-seconds on S3 were waits for each level's totals. Part 1 checks it (the
# merges word for word against the CPU's with L = 1 and 4, then the GPU proofs with
# L = 4); part 2 measures it on S3 against main's way (L unset), at 16,000 and at
# 13,000 with forcing capped at 2^30 words, where the merges bound (call 3 of
# ../gpu-switchover-2026-12-04).
#   bash results/boggle-4x4/merge-levels-2026-12-05/merge-levels-call.sh 1   (about 250 s)
#   bash results/boggle-4x4/merge-levels-2026-12-05/merge-levels-call.sh 2   (about 450 s)
source results/boggle-4x4/pending/call-lib.sh
case ${1:?part 1 or 2} in
  1)
    for l in 1 4; do
      FRONTIER_MERGE_LEVELS_A_READ=$l FRONTIER_REQUIRE_GPU=1 FRONTIER_DATA=$PWD/data \
        timeout 120 target/device/boggle-lib-tests gpu_merges_equal_the_cpus --nocapture > $r/merges-l$l.txt 2>&1
      { echo "== merges test, L = $l: rc=$?"; grep -E "test result|panicked|merges" $r/merges-l$l.txt | head -5; } >> $r/summary.txt
    done
    export FRONTIER_MERGE_LEVELS_A_READ=4
    mkdir -p $r/proofs
    ( OUT=$r/proofs timeout 200 scripts/boggle-4x4-slice.sh gpu-test > $r/gpu-test.txt 2>&1 )
    { echo "== gpu proofs test, L = 4"; cat $r/gpu-test.txt | grep -E "rc=|test result"; } >> $r/summary.txt
    tar czf $OUT/r.tgz -C $OUT r
    cat $r/summary.txt
    ;;
  2)
    run s3-sw16000 frontier-levels merges gpu-sample:4096:3:7:16000:1/3 130
    export FRONTIER_MERGE_LEVELS_A_READ=8
    run s3-sw16000-l8 frontier-levels merges gpu-sample:4096:3:7:16000:1/3 130
    export FRONTIER_FORCE_CAP=1073741824
    run s3-sw13000-cap-l8 frontier-levels merges gpu-sample:4096:3:7:13000:1/3 130
    unset FRONTIER_MERGE_LEVELS_A_READ
    run s3-sw13000-cap frontier-levels merges gpu-sample:4096:3:7:13000:1/3 130
    table
    ;;
esac
