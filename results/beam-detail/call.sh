#!/usr/bin/env bash
# The GPU beam's children from their parent's detail (fifty-third session; main's
# a659f8f): checks and the time it saves. On the GPU machine, carrying target/device
# (stripped release `frontier` and `tiles-tests`, both built from one commit of main,
# a659f8f or later) and target/deepcubea (puzzle35.tsv):
#   bash results/beam-detail/call.sh        (about 350 s)
# 1. The tiles tests of the GPU beam and its ranks (FRONTIER_REQUIRE_GPU=1).
# 2. network-30.ron and conflicts-30.ron, from the detail and afresh
#    (FRONTIER_BEAM_AFRESH=1): the rows must be equal in length and expansions; the
#    table says seconds a board each way.
set -u
out=${OUT:-/tmp}
here=results/beam-detail
bin=target/device/frontier
start=$(date +%s)
for t in gpu_ranks_equal_cpu_ranks gpu_beam_ranked_by_conflicts_shortens_korfs_100_and_keeps_sound_bounds; do
  FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/tiles-tests "$t" --exact > "$out/$t.txt" 2>&1
  echo "$t: rc=$? ($(grep -o 'test result.*' "$out/$t.txt"))"
done
for c in network-30 conflicts-30; do
  for way in detail afresh; do
    env $([ $way = afresh ] && echo FRONTIER_BEAM_AFRESH=1) timeout 200 $bin --quiet run \
      $here/$c.ron --output "$out/$c-$way.csv" > "$out/$c-$way.txt" 2>&1
    echo "$c $way: rc=$? at $(( $(date +%s) - start )) s"
  done
done
python3 - "$out" <<'PY'
import csv, sys
out = sys.argv[1]
def rows(f):
    return {r[0]: r for r in csv.reader(l for l in open(f) if not l.startswith('#')) if r and r[0].isdigit()}
print("config        boards  equal  mean-length  s/board-detail  s/board-afresh  ratio")
for c in ["network-30", "conflicts-30"]:
    try:
        d, a = rows(f"{out}/{c}-detail.csv"), rows(f"{out}/{c}-afresh.csv")
    except OSError as e:
        print(c, "missing:", e); continue
    ks = [k for k in d if k in a]
    same = sum(d[k][4] == a[k][4] and d[k][6] == a[k][6] for k in ks)
    sd = sum(float(d[k][8]) for k in ks) / max(len(ks), 1)
    sa = sum(float(a[k][8]) for k in ks) / max(len(ks), 1)
    mean = sum(int(d[k][4]) for k in ks) / max(len(ks), 1)
    print(f"{c:13} {len(ks):6} {same:6} {mean:12.2f} {sd:15.3f} {sa:15.3f} {sa / sd if sd else 0:6.2f}")
PY
