#!/usr/bin/env bash
# Issue 44 on the GPU machine; builds nothing. Everything it runs is carried
# in $DEV (default target/device):
#   frontier, frontier-nopf   this build, and the same without prefetching
#   frontier-before           an earlier build (optional: ida-1 on KF #1 beside this one)
#   pancake-test              the pancake test binary (GPU = CPU with move pruning)
#   peer/                     domsleee/15puzzle, built in /tmp from its public
#                             repository by scripts/peers/build-15puzzle.sh
#                             (its changes: the walking-distance term off, one
#                             include), with its boards and database specs
# Measures, one core each, the same Korf–Felner instances (standard goal),
# the same 6-6-6-6 partition, reflection on both sides:
#   1. ida-1 against the dedicated solver, nodes/s (and the 15-puzzle, 5-5-5);
#   2. ida on every core, Korf–Felner #1, with and without move pruning;
#   3. gpu-ida with and without move pruning on five Korf–Felner instances;
#   4. the GPU = CPU iteration-by-iteration test.
# Prints a table last. `scripts/ida-side-by-side.sh cpu` runs 1 and 2,
# `… gpu` runs 3 and 4 (a device command is held to 10 minutes); no
# argument runs all. Databases already built are kept.
# `… cores` runs only frontier's part of 1 and 2 on Korf–Felner #1 (no peer):
# ida-1, then ida on every core with this build and, if carried, with
# $dev/frontier-before (an earlier build, for a same-host comparison).
set -uo pipefail
part=${1:-all}
dev=${DEV:-target/device}
bin=$dev/frontier
seconds=${SECONDS_EACH:-25}
depth=${DEPTH:-12}
cap=${GPU_CAP:-90}
tsv=data/tiles/korf-felner-24.tsv
kf() { awk -F'\t' -v id="$1" '$1==id{print $3}' "$tsv"; }
korf() { awk -F'\t' -v id="$1" '$1==id{print $3}' data/tiles/korf100.tsv; }
cores=$(nproc)
echo "$cores cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
rows=()
row() { rows+=("$(printf '%-44s %s' "$1" "$2")"); echo "$1 | $2"; }


# Databases: the peer builds its four, one process each, while ours build.
if [ "$part" != cores ]; then
start=$(date +%s)
(
  cd "$dev/peer" || exit 1
  for i in 0 1 2 3; do
    [ -e "databases/6666-reg-$i.dat" ] && continue
    (./bin/puzzle -d "databases/6666-reg-single$i" -b boards/none5 -f 2 >/dev/null 2>&1
     mv "databases/6666-reg-single$i-0.dat" "databases/6666-reg-$i.dat") &
  done
  wait
) &
peer_build=$!
"$bin" --quiet solve tiles "$(kf 1)" --heuristic 6-6-6-6 --reflect --max-expanded 1 >/dev/null 2>&1
"$bin" --quiet solve tiles "$(korf 1)" --heuristic 5-5-5 --reflect --max-expanded 1 >/dev/null 2>&1
wait "$peer_build"
ls -la "$dev/peer/databases/" | grep dat
echo "databases ready in $(( $(date +%s) - start )) s"
fi

# frontier: one JSON row -> "status cost expanded seconds rate [iterations]".
ours() {
  "$@" --quiet --json 2>&1 | grep '^{' | python3 -c "import json,sys
r=json.loads(sys.stdin.readline()); s=r['stats']
it=' '.join('%d:%d' % (i['bound'], i['expanded']) for i in s.get('iterations', [])[-3:])
lb=s.get('load_balance'); extra='' if lb is None else ' lb %.2f, %s donated' % (lb, s.get('donations'))
print('%s %s %d exp %.2f s %.2f M/s [%s]%s' % (r['status'], r.get('cost'), s['expanded'], s['seconds'], s['expanded']/max(s['seconds'],1e-9)/1e6, it, extra))"
}

# The peer: its iteration lines (" bound, nodes so far") timed as they come;
# the rate between the first and the last, or over the whole solve if it ends.
peer() { # board file, database spec, seconds
  (cd "$dev/peer" && timeout "${3}s" stdbuf -oL ./bin/puzzle -d "databases/$2" -b "boards/$1" -f 2 2>&1) |
    python3 -c "import sys,time,re
pts=[]; nodes=None; secs=None
for line in sys.stdin:
    t=time.time()
    m=re.match(r'^\s*(\d+), (\d+)\s*$', line)
    if m and nodes is None: pts.append((t,int(m.group(1)),int(m.group(2))))
    m=re.match(r'Nodes expanded: (\d+)', line)
    if m: nodes=int(m.group(1)); continue
    m=re.match(r'Time elapsed: ([0-9.e+-]+)', line)
    if m and nodes is not None and secs is None: secs=float(m.group(1))
if nodes is not None and secs:
    print('solved %d nodes %.2f s %.2f M/s' % (nodes, secs, nodes/secs/1e6))
elif len(pts) >= 2:
    (t0,_,n0),(t1,b1,n1)=pts[0],pts[-1]
    print('cut, bound %d begun: %d nodes in %.2f s, %.2f M/s' % (b1, n1-n0, t1-t0, (n1-n0)/max(t1-t0,1e-9)/1e6))
else:
    print('no rate: %d iteration lines' % len(pts))"
}

if [ "$part" = cores ]; then
  "$bin" --quiet solve tiles "$(kf 1)" --heuristic 6-6-6-6 --reflect --max-expanded 1 >/dev/null 2>&1
  row "KF #1 ida-1" "$(ours "$bin" solve tiles "$(kf 1)" --heuristic 6-6-6-6 --reflect --executor ida --threads 1 --max-seconds "$seconds")"
  for build in "$bin" "$dev/frontier-before"; do
    [ -x "$build" ] || continue
    name=$(basename "$build")
    row "KF #1 ida-$cores $name" "$(ours "$build" solve tiles "$(kf 1)" --heuristic 6-6-6-6 --reflect --executor ida --threads "$cores" --max-seconds 120)"
    row "KF #1 ida-$cores pruning $depth $name" "$(ours "$build" solve tiles "$(kf 1)" --heuristic 6-6-6-6 --reflect --executor ida --threads "$cores" --move-pruning "$depth" --max-seconds 120)"
  done
  printf '%s\n' "${rows[@]}"
  exit 0
fi

if [ "$part" != gpu ]; then
echo "== 1. one core each"
for id in 1 2 3 4; do
  row "KF #$id ida-1 frontier" "$(ours "$bin" solve tiles "$(kf "$id")" --heuristic 6-6-6-6 --reflect --executor ida --threads 1 --max-seconds "$seconds")"
  row "KF #$id dedicated (domsleee)" "$(peer "kf$id" 6666-reg "$seconds")"
done
if [ -x "$dev/frontier-before" ]; then
  row "KF #1 ida-1 frontier-before" "$(ours "$dev/frontier-before" solve tiles "$(kf 1)" --heuristic 6-6-6-6 --reflect --executor ida --threads 1 --max-seconds "$seconds")"
fi
if [ -x "$dev/frontier-nopf" ]; then
  row "KF #1 ida-1 frontier, no prefetch" "$(ours "$dev/frontier-nopf" solve tiles "$(kf 1)" --heuristic 6-6-6-6 --reflect --executor ida --threads 1 --max-seconds "$seconds")"
fi
for id in 1 88; do
  row "Korf #$id ida-1 frontier 5-5-5" "$(ours "$bin" solve tiles "$(korf "$id")" --heuristic 5-5-5 --reflect --executor ida --threads 1)"
done
row "Korf #88 dedicated 5-5-5" "$(peer k88 555-reg 120)"

echo "== 2. every core"
row "KF #1 ida-$cores" "$(ours "$bin" solve tiles "$(kf 1)" --heuristic 6-6-6-6 --reflect --executor ida --threads "$cores" --max-seconds 120)"
row "KF #1 ida-$cores pruning $depth" "$(ours "$bin" solve tiles "$(kf 1)" --heuristic 6-6-6-6 --reflect --executor ida --threads "$cores" --move-pruning "$depth" --max-seconds 120)"

fi
if [ "$part" != cpu ]; then
echo "== 3. one GPU"
for id in 1 3 4 5 40; do
  row "KF #$id gpu-ida" "$(ours "$bin" solve tiles "$(kf "$id")" --heuristic 6-6-6-6 --reflect --executor gpu-ida --max-seconds "$cap")"
  row "KF #$id gpu-ida pruning $depth" "$(ours "$bin" solve tiles "$(kf "$id")" --heuristic 6-6-6-6 --reflect --executor gpu-ida --move-pruning "$depth" --max-seconds "$cap")"
done

echo "== 4. GPU = CPU with move pruning"
row "pancake GPU = CPU per iteration" "$("$dev/pancake-test" gpu_ida_with_move_pruning 2>&1 | grep -E 'test result|panicked|SKIPPED' | head -2 | tr '\n' ' ')"
fi

echo
echo "== Issue 44 side by side (${seconds} s a one-core run; GPU runs capped at ${cap} s)"
printf '%s\n' "${rows[@]}"
