#!/usr/bin/env bash
# Multi-GPU HDA* checks on the device machine. Builds nothing: needs the
# prebuilt target/release/frontier and the tiles test binary at
# .devdata/bin/tiles-tests (copied from target/release/deps/tiles-*), with the
# shared data under $FRONTIER_DATA (e.g. .devdata/data). Phases, as arguments:
#   tests     GPU tests: CPU = GPU owners, multi-GPU = A*, published optima
#   korf      Korf's 100 (7-8 + R) and the ten thesis instances on 2 GPUs
#   rate      one Korf–Felner instance until memory fills on 1, 2, 4, 8 GPUs
#             (as present), for each RATE_VARIANTS entry heaps:partial_expansion
#             (default "16384:true"); RATE_SECONDS caps each run (default 120)
#   kf24      the 50 Korf–Felner 24-puzzles on every GPU   (configs/multi-gpu-kf24.ron)
#   kf24-one  the same with GA* on one GPU                  (configs/gpu-kf24.ron)
#   kf24:A-B, kf24-one:A-B   only instances A..B (a device command lasts 10 minutes at most)
# KF24_SECONDS caps each Korf–Felner run (default: the config's 60 s).
# RATE_ID picks the Korf–Felner instance of the rate phase (default 9: 113
# moves, beyond the memory of 2 GPUs).
# JSON lines land in $OUT; a table of them prints last.
set -uo pipefail
export NCCL_NVLS_ENABLE=0
bin=${FRONTIER_BIN:-target/release/frontier}
out=${OUT:-/tmp/multi-gpu-check}
mkdir -p "$out"
gpus=$(nvidia-smi -L | wc -l)
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | sort | uniq -c
nvidia-smi topo -m 2>/dev/null | head -4
status=0
run_config() {
  local cfg=$1 range=${2:-} name
  name=$(basename "$cfg" .ron)
  if [ -n "$range" ]; then
    # The same config restricted to ids A..B, written beside the results.
    local ids
    ids=$(seq -s, "${range%-*}" "${range#*-}" | sed 's/[0-9]*/"&"/g')
    name="$name-$range"
    sed "s|instances: File(path: \"\([^\"]*\)\")|instances: File(path: \"\1\", ids: Some([$ids]))|" "$cfg" > "$out/$name.ron"
    cfg=$out/$name.ron
  fi
  if [ -n "${KF24_SECONDS:-}" ] && [[ $name == *kf24* ]]; then
    sed "s|max_seconds: Some([0-9.]*)|max_seconds: Some($KF24_SECONDS)|" "$cfg" > "$out/$name-capped.ron"
    cfg=$out/$name-capped.ron
  fi
  local start=$(date +%s%N)
  "$bin" run --quiet --json "$cfg" > "$out/$name.jsonl" 2> "$out/$name.err" || { echo "FAILED $cfg"; tail -3 "$out/$name.err"; status=1; }
  echo "$cfg: $(( ($(date +%s%N) - start) / 1000000 )) ms wall"
}
for phase in "$@"; do
  case $phase in
    tests)
      echo "== GPU tests ($gpus GPUs)"
      FRONTIER_REQUIRE_GPU=1 .devdata/bin/tiles-tests gpu_ --test-threads 1 2>&1 | tail -8
      [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
    korf)
      run_config configs/multi-gpu-korf100.ron
      run_config configs/multi-gpu-thesis-15.ron
      run_config configs/multi-gpu-thesis-24.ron ;;
    rate)
      # One config per heaps:partial variant, one executor per GPU count.
      for variant in ${RATE_VARIANTS:-16384:true}; do
        heaps=${variant%:*} partial=${variant#*:} executors="" devices=""
        for n in 1 2 4 8; do
          [ "$n" -le "$gpus" ] || break
          devices=$(seq -s, 0 $((n - 1)))
          executors="$executors MultiGpu(devices: [$devices], heaps: $heaps, partial_expansion: $partial),"
        done
        cat > "$out/rate-$heaps-$partial.ron" <<RON
Experiment(
    domain: Tiles(goal: Standard, heuristic: "6-6-6-6", reflect: true),
    instances: File(path: "@data/tiles/korf-felner-24.tsv", ids: Some(["${RATE_ID:-9}"])),
    executors: [$executors],
    limits: (max_seconds: Some(${RATE_SECONDS:-120})),
)
RON
        run_config "$out/rate-$heaps-$partial.ron"
      done ;;
    kf24) run_config configs/multi-gpu-kf24.ron ;;
    kf24-one) run_config configs/gpu-kf24.ron ;;
    kf24:*) run_config configs/multi-gpu-kf24.ron "${phase#kf24:}" ;;
    kf24-one:*) run_config configs/gpu-kf24.ron "${phase#kf24-one:}" ;;
    *) echo "unknown phase $phase"; exit 2 ;;
  esac
done
python3 - "$out"/*.jsonl <<'PY'
import json, sys
files = [f for f in sys.argv[1:] if not f.endswith('*.jsonl')]
print(f'{"file":22} {"instance":8} {"executor":18} {"status":12} {"cost":>4} {"known":>5} {"expanded":>12} {"sec":>7} {"Mexp/s":>7} {"CO":>5} {"TO":>5} {"load":>5} {"B/node":>6}')
groups = {}
for f in files:
    for l in open(f):
        if not l.strip(): continue
        r = json.loads(l); s = r["stats"]
        name = f.split('/')[-1][:-6]
        g = groups.setdefault((name, r["executor"]), [0, 0, 0.0, 0, []])
        g[0] += 1; g[1] += r["cost"] is not None and r["cost"] == r["known_cost"]; g[2] += s["seconds"]; g[3] += s["expanded"]
        if r["cost"] is not None and r["cost"] == r["known_cost"]: g[4].append(r["instance"])
        if s["seconds"] > 0.5 or name.startswith("rate") or "thesis" in name:
            x = lambda k: f'{s[k]:5.3f}' if s.get(k) is not None else '    -'
            print(f'{name:22} {r["instance"]:8} {r["executor"]:18} {r["status"]:12} {str(r["cost"]):>4} {str(r["known_cost"]):>5} {s["expanded"]:>12} {s["seconds"]:>7.2f} {s["expansions_per_second"]/1e6:>7.1f} {x("communication_overhead")} {x("termination_overhead")} {x("load_balance")} {s.get("bytes_per_node") or 0:>6.1f}')
print(f'{"file":22} {"executor":18} {"n":>4} {"optimal":>8} {"total s":>9} {"Mexp/s":>8}  solved')
for (f, e), g in groups.items():
    print(f'{f:22} {e:18} {g[0]:>4} {g[1]:>8} {g[2]:>9.2f} {g[3]/max(g[2],1e-9)/1e6:>8.1f}  {" ".join(g[4]) if len(g[4]) < 60 else ""}')
PY
exit $status
