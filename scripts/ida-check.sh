#!/usr/bin/env bash
# IDA* checks on the device machine (issue 16). Builds nothing: needs the
# stripped binaries in .devdata/bin (frontier, tiles-tests, pancake-tests;
# see scripts/multi-gpu-check.sh) and the shared data under $FRONTIER_DATA.
# Phases, as arguments:
#   tests       GPU IDA* tests (exact 8-puzzle distances, Korf optima, pancakes)
#   kf24:A-B    GPU IDA* on Korf–Felner instances A..B, or a list kf24:2,9,17
#               (configs/gpu-ida-kf24.ron),
#               KF24_SECONDS a cap per instance (default the config's)
#   korf        Korf's 100 (7-8 PDB) on CPU IDA* (16 threads) and GPU IDA*
#               (configs/ida-korf100.ron)
#   scaling     KF #17 and #33 from scratch on one GPU, then two
#               (configs/gpu-ida-scaling.ron)
#   profile     ncu counters of one launch into KF #1
#   cpu         CPU IDA* on one core and 16 threads (configs/ida-kf24-cpu.ron)
# JSON lines land in $OUT; a table prints last.
set -uo pipefail
export NCCL_NVLS_ENABLE=0
bin=${FRONTIER_BIN:-.devdata/bin/frontier}
out=${OUT:-/tmp/ida-check}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
status=0
# The Korf–Felner config for instances A-B; checkpoints in $KF24_CHECKPOINTS
# (default .devdata/ida-checkpoints, which travels with .devdata and is
# tarred into $OUT at the end, so cut runs resume next session).
checkpoints=${KF24_CHECKPOINTS:-.devdata/ida-checkpoints}
kf24_config() {
  local range=$1 ids
  case $range in
    *,*) ids=$(echo "$range" | sed 's/[0-9]*/"&"/g') ;;
    *) ids=$(seq -s, "${range%-*}" "${range#*-}" | sed 's/[0-9]*/"&"/g') ;;
  esac
  sed -e "s|instances: File(path: \"\([^\"]*\)\")|instances: File(path: \"\1\", ids: Some([$ids]))|" \
      -e "s|checkpoint: Some(\"[^\"]*\")|checkpoint: Some(\"$checkpoints\")|" configs/gpu-ida-kf24.ron |
    if [ -n "${KF24_SECONDS:-}" ]; then sed "s|max_seconds: Some([0-9.]*)|max_seconds: Some($KF24_SECONDS)|"; else cat; fi
}
run_config() {
  local cfg=$1 name=$2
  local start=$(date +%s%N)
  RUST_LOG=${RUST_LOG:-info} "$bin" run --quiet --json "$cfg" > "$out/$name.jsonl" 2> "$out/$name.err" || { echo "FAILED $cfg"; tail -3 "$out/$name.err"; status=1; }
  echo "$cfg: $(( ($(date +%s%N) - start) / 1000000 )) ms wall"
}
for phase in "$@"; do
  case $phase in
    tests)
      FRONTIER_REQUIRE_GPU=1 .devdata/bin/tiles-tests gpu_ida --test-threads 1 2>&1 | tail -4
      [ "${PIPESTATUS[0]}" = 0 ] || status=1
      FRONTIER_REQUIRE_GPU=1 .devdata/bin/pancake-tests gpu_ --test-threads 1 2>&1 | tail -4
      [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
    kf24:*)
      range=${phase#kf24:}
      name=kf24-${range//,/_}  # the device tool refuses names with commas
      kf24_config "$range" > "$out/$name.ron"
      run_config "$out/$name.ron" "gpu-ida-$name" ;;
    profile)
      # Hardware counters of one launch well into KF #1 (clocks left alone).
      KF24_SECONDS=${KF24_SECONDS:-30} kf24_config 1-1 > "$out/profile.ron"
      ncu --clock-control none -k ida_search -s 12 -c 1 --section SpeedOfLight \
        --section Occupancy --section WarpStateStats --section SchedulerStats \
        --section MemoryWorkloadAnalysis --section LaunchStats \
        "$bin" run --quiet "$out/profile.ron" > "$out/ncu.txt" 2>&1
      grep -E "Duration|Throughput|Achieved Occupancy|Registers|Eligible|Issued Warp|No Eligible|Stall|L1/TEX Hit|L2 Hit|Warp Cycles|Theoretical Occ" "$out/ncu.txt" | head -40 ;;
    scaling) run_config configs/gpu-ida-scaling.ron gpu-ida-scaling ;;
    korf) run_config configs/ida-korf100.ron ida-korf100 ;;
    cpu) run_config configs/ida-kf24-cpu.ron ida-kf24-cpu ;;
    *) echo "unknown phase $phase"; exit 2 ;;
  esac
done
# One file: the device tool brings back only so many.
[ -d "$checkpoints" ] && tar -cf "$out/ida-checkpoints.tar" -C "$checkpoints" .
python3 - "$out"/*.jsonl <<'PY'
import json, sys
print(f'{"file":24} {"inst":5} {"executor":10} {"status":15} {"cost":>4} {"known":>5} {"expanded":>14} {"sec":>8} {"Mnodes/s":>9}')
for f in sys.argv[1:]:
    if f.endswith('*.jsonl'): continue
    for l in open(f):
        if not l.strip(): continue
        r = json.loads(l); s = r["stats"]
        print(f'{f.split("/")[-1][:-6]:24} {r["instance"]:5} {r["executor"]:10} {r["status"]:15} {str(r["cost"]):>4} {str(r["known_cost"]):>5} {s["expanded"]:>14} {s["seconds"]:>8.2f} {s["expansions_per_second"]/1e6:>9.1f}')
PY
exit $status
