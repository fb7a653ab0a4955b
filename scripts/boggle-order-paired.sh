#!/usr/bin/env bash
# Issue 45: the cost split order against the degree order, paired, on classes
# of the finished 4x4 slice (results/boggle-4x4/share-1-of-100.txt, run in
# the degree order), drawn in strata by the seconds the slice recorded:
#   light  classes below the slice's slowest 1% (82% of its time)
#   heavy  the slowest 1%, those of at most 250 s (12% of its time; the 12
#          classes above 250 s, 7%, would not fit a 10-minute run)
#   longest  those 12; MAX_RECORDED=320 draws the four that fit
# Each drawn class runs twice, `--order degree` and `--order cost`, one
# thread each, JOBS at a time, both orders' jobs interleaved so that they
# share the machine alike. Prints a line per run to $OUT/paired-STRATUM.tsv
# (index, order, seconds, subclasses, recorded seconds) and the stratum's
# ratio last; `scripts/boggle-order-paired.py` turns the strata into the
# whole proof's projection.
#
#   scripts/boggle-order-paired.sh STRATUM COUNT SEED [JOBS] [FRONTIER]
set -euo pipefail
stratum=${1:?light, heavy or longest}
count=${2:?classes to draw}
seed=${3:?seed}
jobs=${4:-$(nproc)}
bin=${5:-target/release/frontier}
out=${OUT:-/tmp/boggle-order-paired}
mkdir -p "$out"
slice=results/boggle-4x4/share-1-of-100.txt
dict=${DICT:-data/boggle/enable2k.txt}
python3 scripts/boggle-order-paired.py draw "$slice" "$stratum" "$count" "$seed" \
  > "$out/drawn-$stratum.txt"
run_one() {
  local index=$1 order=$2 recorded=$3
  local json
  json=$("$bin" --quiet --json boggle prove --dict "$dict" --shape 4x4 --target 3500 --threads 1 \
    --buckets "aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz" \
    --share "$((index + 1))/1068363" --order "$order")
  python3 -c 'import json, sys
d = json.loads(sys.argv[1])
print(sys.argv[2], sys.argv[3], d["class_seconds"][0], d["subclasses"], sys.argv[4], sep="\t")' \
    "$json" "$index" "$order" "$recorded"
}
export -f run_one
export bin dict
# Longest recorded first, both orders of a class side by side.
while read -r index recorded; do
  printf '%s degree %s\n%s cost %s\n' "$index" "$recorded" "$index" "$recorded"
done < "$out/drawn-$stratum.txt" |
  xargs -P "$jobs" -L 1 bash -c 'run_one "$0" "$1" "$2"' > "$out/paired-$stratum.tsv"
python3 scripts/boggle-order-paired.py ratio "$out/paired-$stratum.tsv"
