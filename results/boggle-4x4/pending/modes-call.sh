#!/bin/bash
# Issue 45 (prepared in the thirty-second session, not run: the device time was spent).
# Seed 3's share 1/3 is bound by the GPU since 9531a77, with host time to spare:
# 1. main with its merges on the host (--gpu-build tree), and with its fills on the host
#    (paths): does GPU work moved back to the host pay now?
# 2. main with boggle-gpu-diag-no-walk.patch (FRONTIER_DIAG_NO_WALK: the kernel walks
#    nothing; the result is void): the wall of everything but the walk, against main's
#    wall and kernel seconds (reuse-call.sh's s3-main, or 109-110 s and 88.4 s on U, V).
# 3. main with the split at depth 8 (below).
# Binaries from build-reuse.sh. Run with carry ["target/devpack",
# "results/boggle-4x4/pending/modes-call.sh"]; about 8.5 minutes (the last row may be cut).
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $r/summary.txt
run() {  # name binary build sample timeout
  mkdir -p $r/$1
  ( GPU_BUILD=$3 FRONTIER_BIN=target/device/$2 THREADS=16 OUT=$r/$1 timeout $5 scripts/boggle-4x4-slice.sh $4 > $r/$1/table.txt 2>&1 )
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|GPU builds of" $r/$1/stderr.log | cut -c40- | cut -c1-300 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
S1=gpu-sample:256:1:7:16000
S3=gpu-sample:4096:3:7:16000:1/3
run s3-tree frontier-main tree $S3 140
run s3-paths frontier-main paths $S3 140
FRONTIER_DIAG_NO_WALK=1 run s3-diag frontier-diag merges $S3 140
# 3. The split at depth 8 (main): the kernel took 37% less time there in the twenty-sixth
#    session, when the host's fixes at the split made it lose; those fixes are gone.
run s1-d8 frontier-main merges gpu-sample:256:1:8:16000 45
run s3-d8 frontier-main merges gpu-sample:4096:3:8:16000:1/3 120
grep -E "^==|rc=" $r/summary.txt | sed -E 's/rc=0.*wall ([0-9.]+ s), kernel ([0-9.]+ s).*(projected [^(]*\([^;]*).*host ([0-9]+ thread-s).*/wall \1 kernel \2 \3 host \4/' | cut -c1-200
