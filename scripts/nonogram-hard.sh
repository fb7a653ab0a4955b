#!/usr/bin/env bash
# The nonogram puzzles that are slow or unsolved by the peer solvers, each
# on its own core with a time cap (default 540 s): verdict, time, nodes.
# With PORTFOLIO=N the puzzles run one after another instead, each raced by
# `--method portfolio --threads N` (IDS=... picks puzzles).
# Builds nothing; run on a many-core host with FRONTIER_DATA set.
set -uo pipefail
bin=${FRONTIER_BIN:-target/release/frontier}
cap=${CAP:-540}
data=${FRONTIER_DATA:-../shared/data}/nonogram
out=${OUT:-/tmp/nonogram-hard}
mkdir -p "$out"
ids=${IDS:-"dom-14 dom-16 icga2016-0600 icga2016-0610 icga2016-0674 icga2016-0697 knotty faase rand-50x50-d50-s1 rand-100x100-d50-s1 rand-300x300-d60-s1 rand-500x500-d75-s1 rand-1000x1000-d80-s1 rand-1000x1000-d85-s1 up10-qnonograms-sun up4-qnonograms-tiger"}
portfolio=${PORTFOLIO:-}
for id in $ids; do
  [ -f "$data/$id.nin" ] || { echo "missing $data/$id.nin"; continue; }
  if [ -n "$portfolio" ]; then
    "$bin" --json nonogram solve --method portfolio --threads "$portfolio" --max-seconds "$cap" \
      "$data/$id.nin" > "$out/$id.json" 2> "$out/$id.err"
  else
    "$bin" --json nonogram solve --max-seconds "$cap" "$data/$id.nin" > "$out/$id.json" 2> "$out/$id.err" &
  fi
done
wait
python3 - "$data/INDEX.tsv" "$out" <<'PY'
import json, os, sys
index = {l.split("\t")[0]: l.split("\t")[4] for l in open(sys.argv[1]).read().splitlines()[1:]}
print(f'{"puzzle":24} {"INDEX":8} {"verdict":9} {"seconds":>9} {"nodes":>10} checked')
for f in sorted(os.listdir(sys.argv[2])):
    if not f.endswith(".json"): continue
    text = open(os.path.join(sys.argv[2], f)).read().strip()
    if not text:
        print(f'{f[:-5]:24} failed: {open(os.path.join(sys.argv[2], f[:-5] + ".err")).read()[:80]}'); continue
    j = json.loads(text)
    print(f'{f[:-5]:24} {index.get(f[:-5], "?"):8} {j["verdict"]:9} {j["stats"]["seconds"]:>9.2f} {j["stats"]["nodes"]:>10} {j["checked"]}')
PY
