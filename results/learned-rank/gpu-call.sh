#!/usr/bin/env bash
# Issue 43 experiment: a GPU beam of 4·10⁶ ranked by a learned linear rank
# (FRONTIER_RANK_LINEAR, a temporary build: results/learned-rank/README.md) against
# h + conflicts. Builds nothing; carry target/device-exp (the build's frontier) and
# target/deepcubea. Usage: gpu-call.sh SET... where SET is val (our own 40 walks,
# both ranks), val-linear (the learned rank alone) or a, b (DeepCubeA's 35-puzzles
# 1-250, 251-500, learned rank only).
set -u
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
B=${B:-target/device-exp/frontier}
W=${W:?weights}
out=${OUT:-/tmp/learned-rank}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
config() { # NAME FILE
  cat > "$out/$1.ron" <<R
Experiment(
    domain: Tiles(heuristic: "5-5-5-5-5-5-5", reflect: true, rank_conflicts: true),
    instances: File(path: "$2"),
    executors: [Gpu()],
    grid: {"beam": [4000000]},
    limits: (max_seconds: Some(60.0)),
    output: Some("$out/$1.csv"),
)
R
}
for set in "$@"; do
  case $set in
    val)
      config val-base results/learned-rank/own-val-40.txt
      "$B" --quiet run --resume "$out/val-base.ron" > "$out/val-base.log" 2>&1
      config val-linear results/learned-rank/own-val-40.txt
      FRONTIER_RANK_LINEAR=$W "$B" --quiet run --resume "$out/val-linear.ron" > "$out/val-linear.log" 2>&1 ;;
    val-linear)
      config val-linear results/learned-rank/own-val-40.txt
      FRONTIER_RANK_LINEAR=$W "$B" --quiet run --resume "$out/val-linear.ron" > "$out/val-linear.log" 2>&1 ;;
    a|b)
      config "dca-$set" "target/deepcubea/p35-$set.tsv"
      FRONTIER_RANK_LINEAR=$W "$B" --quiet run --resume "$out/dca-$set.ron" > "$out/dca-$set.log" 2>&1 ;;
  esac
  tail -n 2 "$out"/*.log
done
