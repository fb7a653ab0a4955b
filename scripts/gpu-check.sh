#!/usr/bin/env bash
# GPU checks on the device machine. Builds nothing: needs the prebuilt
# target/release/frontier and the tiles test binary at $TILES_TESTS (copied
# from target/release/deps/tiles-*), with the shared data under $FRONTIER_DATA.
# Prints a short table last.
set -uo pipefail
bin=${FRONTIER_BIN:-target/release/frontier}
tests=${TILES_TESTS:-.devdata/bin/tiles-tests}
out=${OUT:-/tmp/gpu-check}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "== GPU tests (CPU = GPU on random 8-puzzles and Korf instances)"
FRONTIER_REQUIRE_GPU=1 "$tests" gpu_ --test-threads 1 2>&1 | tail -15
status=$?
echo "== frontier --executor gpu"
for cfg in "$@"; do
  name=$(basename "$cfg" .ron)
  "$bin" run --quiet --json "$cfg" > "$out/$name.jsonl" 2> "$out/$name.err" || { echo "FAILED $cfg"; tail -3 "$out/$name.err"; }
done
python3 - "$out"/*.jsonl <<'PY'
import json, sys
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.strip()]
print(f'{"instance":10} {"executor":12} {"status":12} {"cost":>5} {"known":>5} {"expanded":>12} {"sec":>8} {"Mexp/s":>8}')
for r in rows:
    s = r["stats"]
    print(f'{r["instance"]:10} {r["executor"]:12} {r["status"]:12} {str(r["cost"]):>5} {str(r["known_cost"]):>5} {s["expanded"]:>12} {s["seconds"]:>8.3f} {s["expansions_per_second"]/1e6:>8.2f}')
PY
exit $status
