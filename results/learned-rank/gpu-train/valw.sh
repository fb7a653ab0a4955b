# valw.sh NAME [MODEL]: CPU beams (one process a half, both at once) over the halves
# $VALSET{A,B}.txt of a validation set, ranked by the network MODEL (--rank-network)
# or, with RW="w1, w2, …", by linear weights. WIDTH (10^4), LIMIT (900 s a board),
# BIN (target/release/frontier), DIR (where the halves are and the rows go: /tmp/nn).
# The fifty-first session's rows came from the experiment build (FRONTIER_RANK_NN=MODEL,
# ../../nn-rank/nn-rank-experiment.diff); main's --rank-network gave the same rows on
# boards 1-5 at 10^4 (lengths and expansions).
name=$1; model=${2:-}; width=${WIDTH:-10000}; dir=${DIR:-/tmp/nn}
bin=${BIN:-target/release/frontier}
rank=${RW:+, rank_weights: [$RW]}
rank=${rank}${model:+, rank_network: Some(\"$model\")}
rank=${rank:-, rank_conflicts: true}
for h in A B; do
cat > $dir/v-$name-$h.ron <<R
Experiment(
    domain: Tiles(heuristic: "5-5-5-5-5-5-5", reflect: true$rank),
    instances: File(path: "$dir/${VALSET:-val}$h.txt"),
    executors: [Astar],
    grid: {"beam": [$width]},
    limits: (max_seconds: Some(${LIMIT:-900}.0)),
    output: Some("$dir/v-$name-$h.csv"),
)
R
rm -f $dir/v-$name-$h.csv
$bin --quiet run $dir/v-$name-$h.ron > $dir/v-$name-$h.log 2>&1 &
done
wait
