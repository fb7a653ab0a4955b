#!/usr/bin/env bash
# The GPU jobs of the subcommand figures, from their configs, on the device
# machine (builds nothing: .devdata/bin/frontier, data under $FRONTIER_DATA).
# JSON lines land in $OUT; a table prints last.
set -uo pipefail
bin=${FRONTIER_BIN:-.devdata/bin/frontier}
out=${OUT:-/tmp/jobs-gpu-check}
mkdir -p "$out"
status=0
for config in boggle-bench-gpu boggle-anneal-gpu nonogram-bench-gpu wordle-bench-gpu; do
  timeout 240 "$bin" run --quiet --json "configs/$config.ron" > "$out/$config.jsonl" 2> "$out/$config.err" ||
    { echo "FAILED $config"; tail -3 "$out/$config.err"; status=1; }
done
python3 - "$out"/*.jsonl <<'PY'
import json, sys
for f in sys.argv[1:]:
    for l in open(f):
        if l.strip():
            r = json.loads(l)
            print(f'{r["domain"]:9} {r["executor"]:12} {r["params"]:16} {r["status"]:15} value {r["value"]:>14.6g}  {" | ".join(r["path"])[:70]}')
PY
exit $status
