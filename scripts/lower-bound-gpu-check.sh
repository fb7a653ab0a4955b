#!/usr/bin/env bash
# The lower bounds of GPU searches stopped by a limit (GA*, multi-GPU, mpi-gpu) on the
# device machine; builds nothing. Carry DIR (default target/device-lb) holding
# `frontier`, built with `--features mpi`, and `tiles-tests`, the release test binary of
# domains/tiles/tests/tiles.rs (`cargo test --release -p frontier-tiles --test tiles
# --no-run`, then copy target/release/deps/tiles-<hash>), and optionally `pancake-tests`
# (the same for domains/pancake/tests/pancake.rs).
# Runs the GPU tests (the cut bound's among them), then configs/gpu-cut-bounds.ron in one
# process and under mpirun with one and two ranks (mpi-gpu on the one GPU); a bound
# above Korf's optimum fails the run. Prints the rows last.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache} NCCL_NVLS_ENABLE=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
dir=${DIR:-target/device-lb}
out=${OUT:-/tmp/lower-bound-gpu-check}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
status=0
echo "== GPU tests"
FRONTIER_REQUIRE_GPU=1 "$dir/tiles-tests" gpu_ --test-threads 1 > "$out/tests.txt" 2>&1 || status=1
grep -E "^test .*(FAILED|ok)$|test result" "$out/tests.txt" | tail -25
# The pancake GPU tests too where DIR holds them (`pancake-tests`, the release test binary
# of domains/pancake/tests/pancake.rs): anytime GA* stopped by a limit among them.
if [ -x "$dir/pancake-tests" ]; then
  FRONTIER_REQUIRE_GPU=1 "$dir/pancake-tests" gpu --test-threads 1 > "$out/pancake-tests.txt" 2>&1 || status=1
  grep -E "^test .*(FAILED|ok)$|test result" "$out/pancake-tests.txt" | tail -12
fi
echo "== one process: GA* and multi-GPU"
"$dir/frontier" --quiet run --json configs/gpu-cut-bounds.ron > "$out/gpu.jsonl" 2> "$out/gpu.err" || status=1
sed 's/^        Gpu(memory_fraction: 0.05),$/        MpiGpu(memory_fraction: 0.05),/; /partial_expansion: false\|MultiGpu/d' \
  configs/gpu-cut-bounds.ron > "$out/mpi-gpu.ron"
for np in 1 2; do
  echo "== mpirun -np $np: mpi-gpu"
  mpirun --oversubscribe -np "$np" "$dir/frontier" --quiet run --json "$out/mpi-gpu.ron" \
    > "$out/mpi-$np.jsonl" 2> "$out/mpi-$np.err" || status=1
done
tail -n 3 "$out"/*.err
python3 - "$out"/*.jsonl <<'PY'
import json, sys
rows = [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.strip()]
print(f'{"instance":8} {"executor":18} {"status":16} {"lower":>5} {"known":>5} {"expanded":>10}')
for r in rows:
    print(f'{r["instance"]:8} {r["executor"]:18} {r["status"]:16} {str(r.get("lower_bound")):>5} '
          f'{str(r.get("known_cost")):>5} {r["stats"]["expanded"]:>10}')
over = [r for r in rows if r.get("lower_bound") is not None and r.get("known_cost") is not None
        and r["lower_bound"] > r["known_cost"]]
cut = [r for r in rows if r["status"] != "optimal"]
print(f"rows {len(rows)}, cut {len(cut)}, cut without a bound {sum(r.get('lower_bound') is None for r in cut)}, "
      f"bounds above the optimum {len(over)} (must be 0)")
PY
echo "exit status $status"
exit $status
