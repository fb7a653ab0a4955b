#!/usr/bin/env bash
# [BIN=frontier-split2] half.sh K SECONDS: share K/2 of seed 3's 4,096-class sample on the GPU, 16 threads, with the monitor.
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info XDG_CACHE_HOME=/tmp/fc
mkdir -p $OUT/r
target/device/mon.sh $OUT/r/mon.txt & mon=$!
s=$(date +%s.%N)
timeout $2 target/device/${BIN:-frontier-split} --json boggle prove --dict data/boggle/enable2k.txt --shape 4x4 --target 3500 \
  --buckets "aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz" --threads 16 --sample 4096 --seed 3 --share $1/2 \
  --gpu --gpu-depth 7 --switchover 16000 --gpu-host-copies always > $OUT/r/half$1.json 2> $OUT/r/half$1.log
echo "half $1 rc=$? wall $(awk "BEGIN{print $(date +%s.%N) - $s}") s" > $OUT/table.txt
kill $mon
python3 - $OUT/r/half$1.json >> $OUT/table.txt <<'PY'
import json,sys
try: d=json.loads(open(sys.argv[1]).read().splitlines()[0])
except Exception as e: print("no result", e); sys.exit()
g=d["gpu"]
print({k:d[k] for k in ("classes","seconds","complete","subclasses")}, "boards", len(d["boards"]))
print({k:g.get(k) for k in ("projected_gpu_hours","projected_gpu_hours_stderr","projected_kernel_hours","projected_host_thread_hours","host_threads_to_keep_kernel_busy","kernel_seconds","walked_on_cpu","relaunched","host_class_seconds","handover_wait_seconds")})
PY
cp $OUT/r/mon.txt $OUT/; tar czf $OUT/runs.tgz -C $OUT r && rm -rf $OUT/r
cat $OUT/table.txt
