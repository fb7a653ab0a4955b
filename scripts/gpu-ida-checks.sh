#!/usr/bin/env bash
# Issue 43's GPU IDA* checkpoint checks on the GPU machine; builds nothing
# (carries target/device/frontier).
#   scripts/gpu-ida-checks.sh PHASE...
# Phases:
#   segments  segments closed by time (configs/gpu-ida-segments.ron: every
#             row optimal at the known cost; about 10 minutes on an H200,
#             since segments of 0.5 s cost 3-10x, and a first run builds the
#             6-6-6-6 databases, about a minute)
#   deadline  the close before the run's time limit
#             (configs/gpu-ida-deadline.ron, 240 s: the row is cut and its
#             checkpoint holds finished roots of the iteration in flight)
# Logs and CSVs go to $OUT; prints a table last.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
out=${OUT:-/tmp}
bin=${FRONTIER_BIN:-target/device/frontier}
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
summary=()
segments() {
  start=$SECONDS
  "$bin" --quiet run configs/gpu-ida-segments.ron --overwrite > "$out/gpu-ida-segments.log" 2>&1
  rc=$?
  cp results/gpu-ida-segments.csv "$out/" 2>/dev/null
  rows=$(grep -v '^#' results/gpu-ida-segments.csv 2>/dev/null | awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { n++; if ($(col["status"]) == "optimal") opt++ }
    END { printf "rows %d, optimal %d", n, opt }')
  summary+=("$(printf 'segments  rc=%s %4d s  %s' "$rc" $((SECONDS - start)) "$rows")")
}
deadline() {
  start=$SECONDS
  rm -rf results/gpu-ida-deadline
  "$bin" -v --quiet run configs/gpu-ida-deadline.ron --overwrite > "$out/gpu-ida-deadline.log" 2>&1
  rc=$?
  cp results/gpu-ida-deadline.csv "$out/" 2>/dev/null
  kept=$(python3 - <<'PY'
import glob, json
files = glob.glob("results/gpu-ida-deadline/*.json")
if not files:
    print("no checkpoint")
else:
    d = json.load(open(files[0]))
    p = d.get("partial") or {}
    print(f"bound {d['bound']}, iterations {d['iterations']}, roots done {p.get('done', 0)}, "
          f"next {p.get('next', '-')}, seconds {d['seconds']:.1f}")
PY
  )
  status=$(grep -v '^#' results/gpu-ida-deadline.csv 2>/dev/null | sed -n 2p | cut -d, -f4,5,9)
  summary+=("$(printf 'deadline  rc=%s %4d s  row %s; checkpoint %s' "$rc" $((SECONDS - start)) "$status" "$kept")")
}
for phase in "$@"; do
  case $phase in
    segments | deadline) "$phase" ;;
    *) echo "unknown phase $phase"; exit 2 ;;
  esac
done
printf '%s\n' "${summary[@]}"
