#!/usr/bin/env bash
# CPU IDA* per core before and after the in-place path (issue 44), on the
# same machine, instance and heuristic: Korf–Felner #1 with 6-6-6-6 and
# reflection, each binary for a fixed time (the rate is what is compared:
# both expand the same tree), then ida on every core. Builds nothing: OLD and
# NEW are prebuilt binaries. Prints a table last.
set -uo pipefail
old=${OLD:-target/bench/frontier-old}
new=${NEW:-target/bench/frontier-new}
seconds=${SECONDS_EACH:-40}
kf1=$(awk -F'\t' '$1=="1"{print $2}' data/tiles/korf-felner-24.tsv)
cores=$(nproc)
echo "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
# The databases are built (or loaded) once, before any timing.
start=$(date +%s)
"$new" --quiet solve tiles "$kf1" --goal korf --heuristic 6-6-6-6 --reflect --max-expanded 1 >/dev/null 2>&1
echo "databases ready in $(( $(date +%s) - start )) s"
rows=()
run() { # label, binary, threads
  local out
  out=$("$2" --quiet --json solve tiles "$kf1" --goal korf --heuristic 6-6-6-6 --reflect \
    --executor ida --threads "$3" --max-seconds "$seconds" 2>&1 | grep '^{')
  rows+=("$(echo "$out" | python3 -c "import json,sys
r=json.loads(sys.stdin.readline()); s=r['stats']
print('%-22s %-8s %14d %8.1f s %8.2f M/s' % ('$1', r['status'], s['expanded'], s['seconds'], s['expanded']/s['seconds']/1e6))")")
}
run "ida-1 before" "$old" 1
run "ida-1 in place" "$new" 1
run "ida-$cores in place" "$new" "$cores"
echo "== Korf-Felner #1, 6-6-6-6 + reflection, ${seconds} s each: executor, status, expanded, time, rate"
printf '%s\n' "${rows[@]}"
