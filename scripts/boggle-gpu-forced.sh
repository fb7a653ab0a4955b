#!/usr/bin/env bash
# Issue 45: GPU proofs whose CPU threads force cells near the root and ship
# the forced trees to the GPU (domains/boggle/src/handover.rs); builds
# nothing. Carry target/device/frontier and target/device/boggle-tests
# (the boggle integration tests: cargo test --release -p frontier-boggle
# --test boggle --no-run, stripped). Runs
#   1. the GPU proof tests (GPU = CPU, unforced and forced);
#   2. the 4x4 sample of 256 classes (seed 1, cost order, the slice's
#      buckets, target 3500) with --gpu for each DEPTH:SWITCHOVER of $RUNS
#      (default 6:16000; a switchover of 0 forces nothing);
# each run's JSON to $OUT. Prints a table last.
set -u
BIN=${FRONTIER_BIN:-target/device/frontier}
OUT=${OUT:-/tmp}
BUCKETS="aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz"
summary=()
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
start=$(date +%s.%N)
FRONTIER_DATA=$PWD/data FRONTIER_REQUIRE_GPU=1 target/device/boggle-tests gpu_proofs \
  --test-threads 1 > "$OUT/gpu-test.log" 2>&1
rc=$?
tail -4 "$OUT/gpu-test.log"
summary+=("$(printf '%-24s rc=%-3s %7.1f s  %s' gpu-tests "$rc" \
  "$(awk "BEGIN{print $(date +%s.%N) - $start}")" "$(grep 'test result' "$OUT/gpu-test.log")")")
sample() { # label, args...
  local label=$1; shift
  local json="$OUT/$label.json" begin=$(date +%s.%N)
  "$BIN" --json boggle prove --dict data/boggle/enable2k.txt --shape 4x4 --target 3500 \
    --buckets "$BUCKETS" --threads 16 --sample 256 --seed 1 --gpu "$@" \
    > "$json" 2>> "$OUT/stderr.log"
  local rc=$?
  local line
  line=$(python3 - "$json" <<'PY'
import json, sys
try:
    d = json.loads(open(sys.argv[1]).read().splitlines()[0])
except Exception as e:
    print(f"no result ({e})"); sys.exit()
g = d["gpu"]
print(f"wall {d['seconds']:.1f} s, kernel {g['kernel_seconds']:.1f} s, subclasses "
      f"{d['subclasses'] / 1e9:.3f} G ({g['subclasses'] / 1e9:.3f} G on the GPU, "
      f"{g['handed_over'] / 1e6:.2f} M handed over, {g['walked_on_cpu']} back on the CPU), "
      f"boards {len(d['boards'])}, projected {g['projected_gpu_hours']:.1f} GPU-h "
      f"({g['projected_kernel_hours']:.1f} in the kernel), complete {d['complete']}")
PY
)
  summary+=("$(printf '%-24s rc=%-3s %7.1f s  %s' "$label" "$rc" \
    "$(awk "BEGIN{print $(date +%s.%N) - $begin}")" "$line")")
}
for run in ${RUNS:-6:16000}; do
  depth=${run%%:*} switchover=${run##*:}
  sample "sample-256-1-d$depth-sw$switchover" --gpu-depth "$depth" --switchover "$switchover"
done
echo "== summary"
printf '%s\n' "${summary[@]}"
