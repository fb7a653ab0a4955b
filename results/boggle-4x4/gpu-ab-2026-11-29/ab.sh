#!/usr/bin/env bash
# Device A/B driver (issue 45, not committed): ab.sh SECONDS [--tests] LABEL=BIN:THREADS:PHASE ...
# Every run writes its JSON and log under $OUT/LABEL as it goes; table in $OUT/table.txt.
set -u
export XDG_CACHE_HOME=/tmp/fc
end=$(( $(date +%s) + $1 )); shift
T=$OUT/table.txt
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > "$T"
if [ "${1:-}" = --tests ]; then
  shift
  for t in main new; do
    s=$(date +%s)
    FRONTIER_DATA=$PWD/data FRONTIER_REQUIRE_GPU=1 timeout 200 target/device/boggle-tests-$t gpu_proofs --test-threads 1 > "$OUT/test-$t.log" 2>&1
    echo "tests-$t rc=$? in $(( $(date +%s) - s )) s: $(grep 'test result' "$OUT/test-$t.log")" >> "$T"
  done
fi
for run in "$@"; do
  label=${run%%=*}
  IFS=: read -r bin threads phase <<< "${run#*=}"
  left=$(( end - $(date +%s) ))
  if [ $left -lt 30 ]; then echo "$label: not run (time)" >> "$T"; continue; fi
  mkdir -p "$OUT/$label"
  THREADS=$threads OUT=$OUT/$label FRONTIER_BIN=target/device/$bin timeout $left scripts/boggle-4x4-slice.sh "$phase" \
    | tail -n 1 | sed "s/^/$label /" >> "$T"
done
cat "$T"
