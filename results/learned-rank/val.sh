# val.sh NAME WEIGHTS(or "") FILE
name=$1; w=$2; file=${3:-/tmp/lr/val35.txt}; width=${WIDTH:-10000}
cat > /tmp/lr/v-$name.ron <<R
Experiment(
    domain: Tiles(heuristic: "5-5-5-5-5-5-5", reflect: true, rank_conflicts: true),
    instances: File(path: "$file"),
    executors: [Astar],
    grid: {"beam": [$width]},
    limits: (max_seconds: Some(120.0)),
    output: Some("/tmp/lr/v-$name.csv"),
)
R
rm -f /tmp/lr/v-$name.csv
if [ -n "$w" ]; then export FRONTIER_RANK_LINEAR="$w"; fi
/work/exp-target/release/frontier --quiet run /tmp/lr/v-$name.ron > /tmp/lr/v-$name.log 2>&1
