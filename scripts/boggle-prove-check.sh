#!/usr/bin/env bash
# Boggle proofs on the GPU machine's host cores (issue 18); builds nothing.
# Usage: scripts/boggle-prove-check.sh [phase ...]; phases: 3x3, 3x4 (samples),
# 3x4:K/N (share K of N of the whole 3x4 proof, under ten minutes each), 4x4.
# Expects .devdata/bin/frontier and .devdata/data/boggle/enable2k.txt.
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
        --buckets "aeijou bcdfgmpqvwxz hklnrsty" --max-seconds 500
      ;;
    *) echo "unknown phase $phase"; exit 2 ;;
  esac
done
echo "== summary"
printf '%s\n' "${summary[@]}"
