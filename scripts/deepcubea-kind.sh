#!/usr/bin/env bash
# Issue 43 on instances of DeepCubeA's kind (walk: Uniform), on the GPU
# machine; builds nothing (carries target/device/frontier).
#   scripts/deepcubea-kind.sh 24   GPU IDA* proofs (configs/deepcubea-24.ron)
#   scripts/deepcubea-kind.sh 35   weighted and anytime GA* (configs/deepcubea-35*.ron)
#   scripts/deepcubea-kind.sh 35-sc anytime GA* then shortcuts (configs/deepcubea-35-anytime-shortcut.ron)
#   scripts/deepcubea-kind.sh 48-sc anytime GA* then shortcuts (configs/deepcubea-48-anytime-shortcut.ron)
#   scripts/deepcubea-kind.sh 48   anytime GA* (configs/deepcubea-48-anytime.ron)
#   scripts/deepcubea-kind.sh 35-win anytime GA* then windows (configs/deepcubea-35-anytime-window.ron)
#   scripts/deepcubea-kind.sh 48-win anytime GA* then windows (configs/deepcubea-48-anytime-window.ron)
#   scripts/deepcubea-kind.sh pareto-35  the Pareto table's GPU rows: every weight and beams
#                                        (configs/order-pareto-35-gpu.ron, order-beam-35-gpu.ron)
#   scripts/deepcubea-kind.sh pareto-48  the same on the 48-puzzle (its databases take the
#                                        host's cores about 3 minutes the first time)
#   scripts/deepcubea-kind.sh 35-6 anytime GA*, 6-tile databases (configs/deepcubea-35-anytime-6.ron;
#                                    building them takes the host's 16 cores about 10 minutes)
#   scripts/deepcubea-kind.sh own-24 GPU IDA* proofs of DeepCubeA's own first 20 24-puzzles
#                                    (configs/deepcubea-own-24.ron; target/deepcubea/puzzle24.tsv)
#   scripts/deepcubea-kind.sh own-35 anytime GA* and a beam of 10^6 on DeepCubeA's own first 30
#                                    35-puzzles (configs/deepcubea-own-35*.ron; needs
#                                    target/deepcubea/puzzle35.tsv from scripts/deepcubea-tsv.py)
#   scripts/deepcubea-kind.sh own-48 a beam of 3·10^6 on DeepCubeA's own first 10 48-puzzles
#                                    (configs/deepcubea-own-48.ron; target/deepcubea/puzzle48.tsv)
#   scripts/deepcubea-kind.sh own-35-ranked  beams of 10^6 and 4·10^6 on the same 30, ranked by h
#                                    and by h plus conflicts (configs/deepcubea-own-35-beam-ranked.ron)
#   scripts/deepcubea-kind.sh own-48-ranked  the beam of 3·10^6 on the same 10, ranked both ways
#                                    (configs/deepcubea-own-48-ranked.ron)
#   scripts/deepcubea-kind.sh own-35-wide  ranked beams of 4, 7 and 9 million on the same 30
#                                    (configs/deepcubea-own-35-beam-wide.ron)
#   scripts/deepcubea-kind.sh own-35-wide-6  ranked beams of 4 and 8 million, six-tile databases
#                                    (configs/deepcubea-own-35-beam-wide-6.ron; building them
#                                    takes the host's 16 cores about 10 minutes)
#   scripts/deepcubea-kind.sh own-35-window  the ranked beam of 4 million, then windows of 40
#                                    (configs/deepcubea-own-35-beam-window.ron)
#   scripts/deepcubea-kind.sh own-35-portfolio  ranked beams of 2 million for three groupings
#                                    (configs/deepcubea-own-35-beam-portfolio.ron)
#   scripts/deepcubea-kind.sh own-35-dual  the ranked beam of 4 million on all 500 35-puzzles and
#                                    on each one's dual instance, the shorter kept
#                                    (configs/deepcubea-own-35-dual.ron; about 17 minutes:
#                                    RESUME=1 goes on with a run stopped early)
#   scripts/deepcubea-kind.sh own-35-dual-window  the same with windows of 40 after it, on
#                                    the first 100 (configs/deepcubea-own-35-dual-window.ron)
#   scripts/deepcubea-kind.sh own-35-dual-without-walk  the same beam with --dual-without-walk on
#                                    the first 100 (configs/deepcubea-own-35-dual-without-walk.ron)
#   scripts/deepcubea-kind.sh own-35-learned  the beam of 4 million ranked by the learned linear
#                                    rank, without and with --dual, on the first 100
#                                    (configs/deepcubea-own-35-learned.ron)
#   scripts/deepcubea-kind.sh own-35-network  the same ranked by the learned network g16.nn
#                                    (configs/deepcubea-own-35-network.ron)
#   scripts/deepcubea-kind.sh own-35-network-rest  the same with --dual on ids 240-499
#                                    (configs/deepcubea-own-35-network-rest.ron; RESUME=1 with
#                                    an earlier call's rows in $OUT goes on from them)
#   scripts/deepcubea-kind.sh own-48-dual  ranked beams of 4 and 8 million with --dual on the
#                                    48-puzzle's first 10 (configs/deepcubea-own-48-dual.ron)
#   scripts/deepcubea-kind.sh own-48-dual-30  the beam of 8 million with --dual on the first 30
#                                    (configs/deepcubea-own-48-dual-30.ron; RESUME=1 with the
#                                    first 10 rows in $OUT skips them)
#   scripts/deepcubea-kind.sh own-48-wide  ranked beams of 3 and 8 million on the 48-puzzle's 10
#                                    (configs/deepcubea-own-48-wide.ron)
#   scripts/deepcubea-kind.sh own-48-wider  ranked beams of 8 and 11 million on the same 10
#                                    (configs/deepcubea-own-48-wider.ron)
#   scripts/deepcubea-kind.sh pareto-35-ranked  the Pareto table's GPU beams ranked by h +
#                                    conflicts (configs/order-beam-35-gpu-ranked.ron)
#   scripts/deepcubea-kind.sh pareto-48-ranked  the same on the 48-puzzle
#                                    (configs/order-beam-48-gpu-ranked.ron)
#   scripts/deepcubea-kind.sh tests  the GPU pancake tests of weighted and anytime GA*
#                                    (carries target/device/pancake-test)
# Several parts at once: `… tests 24 35 48`. Prints, per row kind last: rows,
# solved, mean cost, mean proven lower bound, optimal rows, mean and largest s.
set -uo pipefail
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/frontier-cache}
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1
configs=()
for part in "$@"; do
  case $part in
    24) configs+=(deepcubea-24) ;;
    35) configs+=(deepcubea-35 deepcubea-35-anytime) ;;
    48) configs+=(deepcubea-48-anytime) ;;
    35-sc) configs+=(deepcubea-35-anytime-shortcut) ;;
    48-sc) configs+=(deepcubea-48-anytime-shortcut) ;;
    35-6) configs+=(deepcubea-35-anytime-6) ;;
    35-win) configs+=(deepcubea-35-anytime-window) ;;
    48-win) configs+=(deepcubea-48-anytime-window) ;;
    pareto-35) configs+=(order-pareto-35-gpu order-beam-35-gpu) ;;
    pareto-48) configs+=(order-pareto-48-gpu order-beam-48-gpu) ;;
    tests) FRONTIER_REQUIRE_GPU=1 target/device/pancake-test gpu_gastar 2>&1 |
             grep -E "^test |panicked|test result" ;;
    35-anytime) configs+=(deepcubea-35-anytime) ;;
    own-24) configs+=(deepcubea-own-24) ;;
    own-35) configs+=(deepcubea-own-35 deepcubea-own-35-beam) ;;
    own-48) configs+=(deepcubea-own-48) ;;
    own-35-ranked) configs+=(deepcubea-own-35-beam-ranked) ;;
    own-48-ranked) configs+=(deepcubea-own-48-ranked) ;;
    own-35-wide) configs+=(deepcubea-own-35-beam-wide) ;;
    own-35-wide-6) configs+=(deepcubea-own-35-beam-wide-6) ;;
    own-35-window) configs+=(deepcubea-own-35-beam-window) ;;
    own-35-portfolio) configs+=(deepcubea-own-35-beam-portfolio) ;;
    own-35-dual) configs+=(deepcubea-own-35-dual) ;;
    own-35-dual-window) configs+=(deepcubea-own-35-dual-window) ;;
    own-35-dual-without-walk) configs+=(deepcubea-own-35-dual-without-walk) ;;
    own-35-learned) configs+=(deepcubea-own-35-learned) ;;
    own-35-network) configs+=(deepcubea-own-35-network) ;;
    own-35-network-more) configs+=(deepcubea-own-35-network-more) ;;
    own-35-network-rest) configs+=(deepcubea-own-35-network-rest) ;;
    own-48-dual) configs+=(deepcubea-own-48-dual) ;;
    own-48-dual-30) configs+=(deepcubea-own-48-dual-30) ;;
    own-48-wide) configs+=(deepcubea-own-48-wide) ;;
    own-48-wider) configs+=(deepcubea-own-48-wider) ;;
    pareto-35-ranked) configs+=(order-beam-35-gpu-ranked) ;;
    pareto-48-ranked) configs+=(order-beam-48-gpu-ranked) ;;
    *) echo "unknown part $part (tests, 24, 35, 35-anytime, 35-sc, 35-win, 35-6, 48, 48-sc, 48-win, pareto-35, pareto-48, own-24, own-35, own-48, own-35-ranked, own-48-ranked, own-35-wide, own-35-wide-6, own-35-window, own-35-portfolio, own-35-dual, own-35-dual-window, own-35-dual-without-walk, own-35-learned, own-35-network, own-35-network-more, own-35-network-rest, own-48-dual, own-48-dual-30, own-48-wide, own-48-wider, pareto-35-ranked or pareto-48-ranked)"; exit 2 ;;
  esac
done
for c in "${configs[@]}"; do
  start=$(date +%s)
  # JSON=1: the rows as JSON lines in $c.txt (with each row's anytime trace).
  # RESUME=1: go on with the rows already in $out/$c.csv (a run stopped early).
  target/device/frontier --quiet ${JSON:+--json} run "configs/$c.ron" --output "$out/$c.csv" \
    $([ -n "${RESUME:-}" ] && echo --resume || echo --overwrite) >> "$out/$c.txt" 2>&1
  echo "== $c: $(( $(date +%s) - start )) s in all (databases included)"
  [ -n "${JSON:-}" ] || tail -n 2 "$out/$c.txt"
done
echo "== config row: rows solved mean-cost mean-lower optimal mean-s max-s"
for c in "${configs[@]}"; do
  grep -v '^#' "$out/$c.csv" | awk -F, -v c="$c" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { k = $(col["executor"]) " " $(col["params"]); n[k]++; s[k] += $(col["seconds"]);
      if ($(col["seconds"]) > m[k]) m[k] = $(col["seconds"]);
      if ($(col["cost"]) != "-") { ok[k]++; cost[k] += $(col["cost"]);
        lo[k] += ($(col["lower"]) == "-" ? $(col["cost"]) : $(col["lower"])) }
      if ($(col["status"]) == "optimal") opt[k]++ }
    END { for (k in n) printf "%s %-22s %3d %3d %8.2f %8.2f %3d %7.2f %7.2f\n", c, k, n[k], ok[k],
          (ok[k] ? cost[k] / ok[k] : 0), (ok[k] ? lo[k] / ok[k] : 0), opt[k], s[k] / n[k], m[k] }'
done
# DeepCubeA's own states: each solved row against DeepCubeA's published length for
# the same state (the instance file's deepcubea_length column).
for c in "${configs[@]}"; do
  case $c in deepcubea-own-*) ;; *) continue ;; esac
  size=${c#deepcubea-own-}
  tsv=target/deepcubea/puzzle${size%%-*}.tsv
  echo "== $c, paired with DeepCubeA ($tsv): row boards ours theirs-on-those shorter equal longer"
  grep -v '^#' "$out/$c.csv" | awk -F, -v tsv="$tsv" '
    BEGIN { while ((getline line < tsv) > 0) { split(line, f, "\t");
              if (f[1] != "id") theirs[f[1]] = f[3] } }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $(col["cost"]) != "-" { k = $(col["executor"]) " " $(col["params"]); id = $(col["instance"]); n[k]++;
      ours[k] += $(col["cost"]); th[k] += theirs[id];
      if ($(col["cost"]) < theirs[id]) lt[k]++; else if ($(col["cost"]) == theirs[id]) eq[k]++; else gt[k]++ }
    END { for (k in n) printf "%s %-22s %3d %8.2f %8.2f %3d %3d %3d\n", c, k, n[k], ours[k] / n[k],
          th[k] / n[k], lt[k], eq[k], gt[k] }' c="$c"
done
