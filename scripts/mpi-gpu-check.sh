#!/usr/bin/env bash
# mpi-gpu (one MPI rank per GPU) against multi-gpu (one process, every GPU) on
# nvidia-h200-x2 (issue 21). Builds nothing: needs a frontier built with
# `--features mpi` ($FRONTIER_BIN) and the shared data under $FRONTIER_DATA.
# The multi-gpu runs go first: they build the pattern databases into the
# cache, which the ranks then only read. FRONTIER_MPI_GPU_EXCHANGE=host makes
# the ranks carry children through the host, as between hosts.
set -uo pipefail
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bin=${FRONTIER_BIN:-target/release/frontier}
out=${OUT:-/tmp/mpi-gpu-check}
mkdir -p "$out"
ranks=$(nvidia-smi -L | wc -l)
mpirun() { command mpirun -x FRONTIER_MPI_GPU_EXCHANGE="${FRONTIER_MPI_GPU_EXCHANGE:-}" "$@"; }
nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c
status=0
"$bin" run --quiet --json configs/multi-gpu-thesis-24.ron > "$out/multi-thesis.jsonl" || status=1
mpirun -np "$ranks" "$bin" run --quiet --json configs/mpi-gpu-thesis-24.ron > "$out/mpi-thesis.jsonl" || status=1
sed 's/MpiGpu(partition: "hash")/MultiGpu(partition: "hash")/' configs/mpi-gpu-kf24.ron > "$out/multi-kf24.ron"
"$bin" run --quiet --json "$out/multi-kf24.ron" > "$out/multi-kf24.jsonl" || status=1
mpirun -np "$ranks" "$bin" run --quiet --json configs/mpi-gpu-kf24.ron > "$out/mpi-kf24.jsonl" || status=1
python3 - "$out"/*.jsonl <<'PY'
import json, sys
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.strip()]
print(f'{"instance":9} {"executor":18} {"status":16} {"cost":>4} {"expanded":>12} {"sec":>8} {"Mexp/s":>8} {"CO":>6} {"load":>5}')
for r in sorted(rows, key=lambda r: (r["instance"], r["executor"].split("-")[-1], r["executor"])):
    s = r["stats"]; w = s.get("worker_rates") or []
    load = max(w) / (sum(w) / len(w)) if w and sum(w) > 0 else None
    co = s.get("communication_overhead")
    print(f'{r["instance"]:9} {r["executor"]:18} {r["status"]:16} {str(r["cost"]):>4} {s["expanded"]:>12} '
          f'{s["seconds"]:>8.3f} {s["expansions_per_second"]/1e6:>8.1f} {(f"{co:.3f}" if co is not None else "-"):>6} '
          f'{(f"{load:.3f}" if load else "-"):>5}')
PY
exit $status
