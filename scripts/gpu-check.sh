#!/usr/bin/env bash
# GPU checks on the device machine. Builds nothing: needs the prebuilt
# target/release/frontier and the test binaries in .devdata/bin/*-tests
# (copied from target/release/deps/{tiles,boggle,nonogram}-*), with the shared
# data under $FRONTIER_DATA. Tiles configs to run are the arguments; the Boggle
# and nonogram batch benchmarks always run. Prints short tables last.
set -uo pipefail
bin=${FRONTIER_BIN:-target/release/frontier}
out=${OUT:-/tmp/gpu-check}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
status=0
for tests in .devdata/bin/*-tests; do
  echo "== GPU tests in $tests (CPU = GPU)"
  FRONTIER_REQUIRE_GPU=1 "$tests" gpu_ --test-threads 1 2>&1 | tail -6
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done
echo "== Boggle on the GPU (every score checked on the CPU)"
boggle=$out/boggle.txt
: > "$boggle"
for args in "--count 20000000" "--count 20000000 --letters dice" "--count 200000 --shape 12x12"; do
  "$bin" boggle bench --gpu $args 2>&1 | tail -1 | tee -a "$boggle"
done
for target in 3600 3625; do
  start=$(date +%s%N)
  "$bin" boggle anneal --gpu --target $target --max-seconds 600 --seed 7 --keep 1 2>&1 | tail -2 | tee -a "$boggle"
  echo "anneal to $target: $(( ($(date +%s%N) - start) / 1000000 )) ms wall" | tee -a "$boggle"
done
echo "== nonogram batch line solving (every grid checked against the CPU)"
"$bin" nonogram bench --gpu --count 100000 --size 30x30 2>&1 | tail -2
[ $# -gt 0 ] || exit $status
echo "== pattern databases (built once, not timed below)"
k1="14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
t24="2 6 9 3 4 12 7 1 15 5 11 8 10 13 19 16 17 14 0 20 21 22 18 23 24"
/usr/bin/time -f "7-8 PDB: %e s" "$bin" solve --quiet --max-expanded 1 tiles "$k1" --goal korf --heuristic 7-8 --reflect > /dev/null
/usr/bin/time -f "6-6-6-6 PDB: %e s" "$bin" solve --quiet --max-expanded 1 tiles "$t24" --heuristic 6-6-6-6 --reflect > /dev/null
"$bin" solve --quiet --max-expanded 1 tiles "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2" --heuristic 5-5-5 --reflect > /dev/null
echo "== frontier --executor gpu"
for cfg in "$@"; do
  name=$(basename "$cfg" .ron)
  start=$(date +%s%N)
  "$bin" run --quiet --json "$cfg" > "$out/$name.jsonl" 2> "$out/$name.err" || { echo "FAILED $cfg"; tail -3 "$out/$name.err"; }
  echo "$cfg: $(( ($(date +%s%N) - start) / 1000000 )) ms wall"
done
python3 - "$out"/*.jsonl <<'PY'
import json, sys
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.strip()]
print(f'{"instance":10} {"executor":12} {"status":12} {"cost":>5} {"known":>5} {"expanded":>12} {"sec":>8} {"Mexp/s":>8}')
for r in rows:
    s = r["stats"]
    if len(rows) < 40 or r["stats"]["seconds"] > 0.05:
        print(f'{r["instance"]:10} {r["executor"]:12} {r["status"]:12} {str(r["cost"]):>5} {str(r["known_cost"]):>5} {s["expanded"]:>12} {s["seconds"]:>8.3f} {s["expansions_per_second"]/1e6:>8.2f}')
groups = {}
for f in sys.argv[1:]:
    for l in open(f):
        if not l.strip(): continue
        r = json.loads(l)
        g = groups.setdefault((f.split('/')[-1], r["executor"]), [0, 0, 0.0, 0, 0])
        g[0] += 1; g[1] += r["cost"] is not None and r["cost"] == r["known_cost"]; g[2] += r["stats"]["seconds"]; g[3] += r["stats"]["expanded"]
print(f'{"file":24} {"executor":10} {"n":>4} {"optimal":>8} {"total s":>9} {"Mexp/s":>8}')
for (f, e), g in groups.items():
    print(f'{f:24} {e:10} {g[0]:>4} {g[1]:>8} {g[2]:>9.3f} {g[3]/max(g[2],1e-9)/1e6:>8.2f}')
PY
exit $status
