#!/usr/bin/env bash
# Issue 45's side-by-side: frontier's 4x4 proof against the 2025 code
# (github.com/danvk/hybrid-boggle), one core each, on the same sampled
# top-level classes, the same letter buckets and target as the 2025 4x4 run
# (its README: buckets 'aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy
# bcdfghjklmnpqrtvwxz', 3500, --switchover_score 8000).
#
# The 2025 code is built in $HB (default /tmp/hb) from its public
# repository, never copied here:
#   git archive of danvk/hybrid-boggle into /tmp/hb; a Python 3.13 venv in
#   $HBPY (default /tmp/hbvenv) with pybind11 and tqdm; cpp/ built with its
#   build.sh's flags (-O3 -march=native); google.cloud.storage, which it
#   imports only to upload results, stubbed in $HBSTUB (default /tmp/hbstub).
#
#   scripts/peers/boggle-side-by-side.sh SAMPLE SEED [FRONTIER]
#
# frontier samples SAMPLE classes with SEED (`boggle prove --sample`) on
# one thread and prints their letters and seconds; each class is then
# broken by the 2025 code's `break_all --break_class` (its own timer,
# `elapsed_s`, which leaves out Python's start and the word list's load).
# Prints a table per class and the ratio of the sums last.
set -euo pipefail
sample=${1:?sample size}
seed=${2:?seed}
bin=${3:-target/release/frontier}
hb=${HB:-/tmp/hb}
py=${HBPY:-/tmp/hbvenv}/bin/python
stub=${HBSTUB:-/tmp/hbstub}
out=${OUT:-/tmp/boggle-side-by-side}
mkdir -p "$out"
buckets="aeijou bcdfgmpqvwxz hklnrsty"
corner="aeiosuy bcdfghjklmnpqrtvwxz"
"$bin" --quiet boggle prove --shape 4x4 --target 3500 --threads 1 \
  --buckets "$buckets, corner: $corner" --sample "$sample" --seed "$seed" --json \
  > "$out/frontier-$sample-$seed.json"
python3 - "$out/frontier-$sample-$seed.json" > "$out/classes-$sample-$seed.tsv" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for letters, seconds in zip(d["class_letters"], d["class_seconds"]):
    print(f"{letters}\t{seconds:.3f}")
EOF
: > "$out/peer-$sample-$seed.tsv"
while IFS=$'\t' read -r letters ours; do
  rm -f "$out"/peer-1.ndjson
  (cd "$hb" && PYTHONPATH="$hb:$stub" "$py" -m boggle.break_all \
     "$buckets, corner:$corner" 3500 --size 44 --switchover_score 8000 \
     --dictionary wordlists/enable2k.txt --break_class "$letters" \
     --output_base "$out/peer" > /dev/null 2>&1)
  theirs=$(python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())['elapsed_s'])" \
    "$out/peer-1.ndjson")
  printf '%s\t%s\t%s\n' "$letters" "$ours" "$theirs" | tee -a "$out/peer-$sample-$seed.tsv"
done < "$out/classes-$sample-$seed.tsv"
awk -F'\t' '{ o += $2; t += $3; n++ } END {
  printf "== %d classes: frontier %.1f s, 2025 code %.1f s, ratio %.2fx\n", n, o, t, t / o }' \
  "$out/peer-$sample-$seed.tsv"
