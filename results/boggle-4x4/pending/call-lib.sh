# Issue 45: what reuse-call.sh and modes-call.sh share, sourced by both on the device:
# the binaries unpacked from target/devpack/bins.txz, the environment, $r for the rows,
# and run NAME BINARY BUILD SAMPLE TIMEOUT (one scripts/boggle-4x4-slice.sh phase, its
# lines added to $r/summary.txt and everything packed into $OUT/r.tgz after each row, so
# that a cut call still brings back what ran). table prints the rows last.
mkdir -p target/device && tar xJf target/devpack/bins.txz -C target/device
export CUDA_VISIBLE_DEVICES=0 RUST_LOG=info FRONTIER_DATA=$PWD/data
r=$OUT/r; mkdir -p $r
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $r/summary.txt
S1=gpu-sample:256:1:7:16000
S3=gpu-sample:4096:3:7:16000:1/3
run() {  # name binary build sample timeout
  mkdir -p $r/$1
  ( GPU_BUILD=$3 FRONTIER_BIN=target/device/$2 THREADS=16 OUT=$r/$1 timeout $5 scripts/boggle-4x4-slice.sh $4 > $r/$1/table.txt 2>&1 )
  echo "== $1" >> $r/summary.txt; grep rc= $r/$1/table.txt | cut -c1-330 >> $r/summary.txt; grep -hE "host threads' .* on classes|GPU builds of" $r/$1/stderr.log | cut -c40- | cut -c1-300 >> $r/summary.txt
  tar czf $OUT/r.tgz -C $OUT r
}
table() {
  grep -E "^==|rc=" $r/summary.txt | sed -E 's/rc=0.*wall ([0-9.]+ s), kernel ([0-9.]+ s).*(projected [^(]*\([^;]*).*host ([0-9]+ thread-s).*/wall \1 kernel \2 \3 host \4/' | cut -c1-200
}
