#!/usr/bin/env bash
# Issue 43 (fifty-fifth session): 27fa132 made beam_expand and the tests'
# beam_child_rank_of share one child_h_and_rank. Checks on the GPU machine, carrying
# target/device (stripped `frontier` and `tiles-tests` of one commit, 27fa132 or later)
# and target/deepcubea:
#   bash results/beam-detail/verify-call.sh        (about 200 s)
# 1. The GPU beam's rank and bound tests (FRONTIER_REQUIRE_GPU=1).
# 2. network-30.ron and conflicts-30.ron with the build's default paths (the network
#    from the parent's detail, the conflicts afresh): every row must equal bc4dabb's
#    (call/reversed) in length and expansions; the table says seconds a board.
set -u
out=${OUT:-/tmp}
here=results/beam-detail
start=$(date +%s)
for t in gpu_ranks_equal_cpu_ranks gpu_beam_ranked_by_conflicts_shortens_korfs_100_and_keeps_sound_bounds; do
  FRONTIER_REQUIRE_GPU=1 timeout 150 target/device/tiles-tests "$t" --exact > "$out/$t.txt" 2>&1
  echo "$t: rc=$? ($(grep -o 'test result.*' "$out/$t.txt"))"
done
for c in network-30 conflicts-30; do
  timeout 200 target/device/frontier --quiet run $here/$c.ron --output "$out/$c.csv" > "$out/$c.txt" 2>&1
  echo "$c: rc=$? at $(( $(date +%s) - start )) s"
done
python3 - "$out" $here/call/reversed <<'PY'
import csv, sys
out, before = sys.argv[1], sys.argv[2]
def rows(f):
    return {r[0]: r for r in csv.reader(l for l in open(f) if not l.startswith('#')) if r and r[0].isdigit()}
print("config        boards  equal-to-before  mean-length  s/board-now  s/board-before")
for c, way in [("network-30", "detail"), ("conflicts-30", "afresh")]:
    try:
        now, old = rows(f"{out}/{c}.csv"), rows(f"{before}/{c}-{way}.csv")
    except OSError as e:
        print(c, "missing:", e); continue
    ks = [k for k in now if k in old]
    same = sum(now[k][4] == old[k][4] and now[k][6] == old[k][6] for k in ks)
    sn = sum(float(now[k][8]) for k in ks) / max(len(ks), 1)
    so = sum(float(old[k][8]) for k in ks) / max(len(ks), 1)
    mean = sum(int(now[k][4]) for k in ks) / max(len(ks), 1)
    print(f"{c:13} {len(ks):6} {same:16} {mean:12.2f} {sn:12.3f} {so:15.3f}")
PY
