#!/usr/bin/env bash
# Boggle proofs on the GPU machine's host cores (issue 18); builds nothing.
# Usage: scripts/boggle-prove-check.sh [phase ...]; phases: 3x3, 3x4 (samples),
# 3x4:K/N (share K of N of the whole 3x4 proof, under ten minutes each), 4x4;
# on the GPU: gpu-test (GPU proofs = CPU proofs), 3x3-gpu, 3x4-gpu (sample), 3x4-gpu-all
# (the whole 3x4 proof), 3x4-gpu:K/N (a share of it), 4x4-gpu:N:SEED
# (a 4x4 sample of N classes).
# Expects .devdata/bin/frontier, .devdata/bin/boggle-tests (the boggle
# integration tests, for gpu-test) and .devdata/data/boggle/enable2k.txt.
set -u
BIN=${FRONTIER_BIN:-.devdata/bin/frontier}
DICT=${FRONTIER_DICT:-.devdata/data/boggle/enable2k.txt}
OUT=${OUT:-/tmp}
ALL=abcdefghijklmnopqrstuvwxyz
phases=${*:-3x3 3x4}
summary=()
run() { # label, seconds cap, args...
  local label=$1 cap=$2; shift 2
  local log="$OUT/prove-$label.log"
  local start=$(date +%s.%N)
  timeout "$cap" "$BIN" boggle prove --dict "$DICT" "$@" >"$log" 2>&1
  local rc=$? end=$(date +%s.%N)
  tail -3 "$log"
  summary+=("$(printf '%-28s rc=%-3s %7.1f s  %s' "$label" "$rc" "$(awk "BEGIN{print $end - $start}")" "$(grep -E 'board\(s\)|sample:' "$log" | tr '\n' ' ' | cut -c1-150)")")
}
for phase in $phases; do
  case $phase in
    3x3)
      run 3x3-1core 300 --shape 3x3 --target 500 --threads 1
      run 3x3-16cores 300 --shape 3x3 --target 500 --threads 16
      ;;
    3x4)
      run 3x4-sample-cornerfull 280 --shape 3x4 --target 1500 --threads 16 --sample 64 --seed 1
      run 3x4-sample-cornerbuckets 280 --shape 3x4 --target 1500 --threads 16 --sample 64 --seed 1 \
        --buckets "aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz"
      ;;
    3x4:*)
      share=${phase#3x4:}
      run "3x4-share-${share/\//-of-}" 580 --shape 3x4 --target 1500 --threads 16 --share "$share" \
        --buckets "aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz" --max-seconds 560
      cat "$OUT/prove-3x4-share-${share/\//-of-}.log" | grep -v INFO | head -20
      ;;
    4x4)
      run 4x4-sample 560 --shape 4x4 --target 3625 --threads 16 --sample 16 --seed 1 \
        --buckets "aeijou bcdfgmpqvwxz hklnrsty" --max-seconds "${MAXS:-500}"
      ;;
    gpu-test)
      start=$(date +%s.%N)
      FRONTIER_DATA=.devdata/data FRONTIER_REQUIRE_GPU=1 .devdata/bin/boggle-tests gpu_proofs \
        --test-threads 1 >"$OUT/gpu-test.log" 2>&1
      rc=$?
      tail -5 "$OUT/gpu-test.log"
      summary+=("$(printf '%-28s rc=%-3s %7.1f s  %s' gpu-test "$rc" "$(awk "BEGIN{print $(date +%s.%N) - $start}")" "$(grep 'test result' "$OUT/gpu-test.log")")")
      ;;
    3x3-gpu)
      run 3x3-gpu 300 --shape 3x3 --target 500 --threads 16 --gpu -v
      grep -E "GPU|kernel" "$OUT/prove-3x3-gpu.log" | tail -4
      ;;
    3x4-gpu)
      run 3x4-gpu-sample 280 --shape 3x4 --target 1500 --threads 16 --sample 64 --seed 1 --gpu -v \
        --buckets "aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz"
      grep -E "GPU|kernel" "$OUT/prove-3x4-gpu-sample.log" | tail -4
      ;;
    3x4-gpu-all|3x4-gpu:*)
      share=${phase#3x4-gpu}; share=${share#:}; share=${share#-all}
      label=3x4-gpu-${share:-all}; label=${label/\//-of-}
      run "$label" 580 --shape 3x4 --target 1500 --threads 16 --gpu -v --max-seconds "${MAXS:-560}" \
        ${share:+--share "$share"} \
        --buckets "aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz"
      grep -E "GPU |^1[5-9][0-9][0-9]" "$OUT/prove-$label.log" | grep -v INFO | head -40
      ;;
    4x4-gpu:*)
      spec=${phase#4x4-gpu:}
      run "4x4-gpu-sample-${spec/:/-seed}" 560 --shape 4x4 --target 3625 --threads 16 --gpu -v \
        --sample "${spec%%:*}" --seed "${spec##*:}" --buckets "aeijou bcdfgmpqvwxz hklnrsty" --max-seconds "${MAXS:-500}"
      grep -E "GPU|kernel" "$OUT/prove-4x4-gpu-sample-${spec/:/-seed}.log" | tail -4
      ;;
    *) echo "unknown phase $phase"; exit 2 ;;
  esac
done
echo "== summary"
printf '%s\n' "${summary[@]}"
