# val.sh NAME MODEL  (runs both halves in parallel, waits)
name=$1; model=$2; width=${WIDTH:-10000}; RW=${RW:+, rank_weights: [$RW]}
for h in A B; do
cat > v-$name-$h.ron <<R
Experiment(
    domain: Tiles(heuristic: "5-5-5-5-5-5-5", reflect: true, rank_conflicts: true$RW),
    instances: File(path: "/tmp/nn/${VALSET:-val}$h.txt"),
    executors: [Astar],
    grid: {"beam": [$width]},
    limits: (max_seconds: Some(120.0)),
    output: Some("/tmp/nn/v-$name-$h.csv"),
)
R
rm -f v-$name-$h.csv
env ${model:+FRONTIER_RANK_NN=$model} ./frontier-nn --quiet run v-$name-$h.ron > v-$name-$h.log 2>&1 &
done
wait
