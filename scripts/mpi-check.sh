#!/usr/bin/env bash
# HDA* over MPI ranks against HDA* on threads, on the GPU machine's host
# cores (issue 21). Builds nothing: needs a frontier built with
# `--features mpi` ($FRONTIER_BIN) and the shared data under $FRONTIER_DATA.
# Usage (from the repo root): [RANKS="2 4 8 16"] scripts/mpi-check.sh
set -euo pipefail
bin=${FRONTIER_BIN:-target/release/frontier}
out=${OUT:-/tmp/mpi-check}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "== machine"
nproc; mpirun --version | head -1
echo "== threads (16)"
"$bin" run --quiet --json configs/bench-mpi-threads-15.ron | tee "$out/threads.jsonl" | cut -c1-140
for np in ${RANKS:-16}; do
  echo "== mpirun -np $np"
  mpirun --oversubscribe -np "$np" "$bin" run --quiet --json configs/bench-mpi-15.ron \
    | tee "$out/mpi-$np.jsonl" | cut -c1-140
done
echo "== summary (rate = expansions/s; ratio = MPI rate over the 16-thread rate, same partition and balancing)"
python3 - "$out"/*.jsonl <<'PY'
import json, sys
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.strip()]
threads = {}
for r in rows:
    # hda-16-split-fixed pairs with mpi-hda-N-split-fixed, and so on.
    if r["executor"].startswith("hda-16-"):
        threads[(r["instance"], r["executor"].split("-", 2)[2])] = r["stats"]["expansions_per_second"]
print(f'{"instance":9} {"executor":22} {"cost":>4} {"expanded":>10} {"sec":>7} {"Mexp/s":>7} {"ratio":>6} {"CO":>6} {"hand":>6} {"TO":>6} {"load":>5}')
for r in rows:
    s = r["stats"]; e = r["executor"]
    part = e.split("-", 3)[3] if e.startswith("mpi-hda") else None
    base = threads.get((r["instance"], part)) if e.startswith("mpi-hda") else None
    w = s.get("worker_rates") or []
    load = max(w) / (sum(w) / len(w)) if w and sum(w) > 0 else None
    f = lambda k: f'{s[k]:.3f}' if s.get(k) is not None else '-'
    print(f'{r["instance"]:9} {e:22} {str(r["cost"]):>4} {s["expanded"]:>10} {s["seconds"]:>7.3f} '
          f'{s["expansions_per_second"]/1e6:>7.2f} {(s["expansions_per_second"]/base if base else 0):>6.2f} '
          f'{f("communication_overhead"):>6} {f("handoff_share"):>6} {f("termination_overhead"):>6} {(f"{load:.2f}" if load else "-"):>5}')
PY
