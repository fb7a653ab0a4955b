#!/usr/bin/env bash
# Builds the dedicated 24-puzzle solver of issue 44's side-by-side,
# domsleee/15puzzle (commit 5345005), from a clone of its public repository,
# in /tmp, and puts what scripts/ida-side-by-side.sh carries in DEST
# (default target/device/peer): bin/puzzle, its database specs and the
# boards the script names. Nothing of it is copied into frontier.
#   scripts/peers/build-15puzzle.sh /path/to/15puzzle-clone [DEST]
# Two local changes to its files, made here in the copy:
#   1. `#include "Memory.h"` as `<memory>` (no such header on a
#      case-sensitive file system);
#   2. its walking-distance term off (its 5x5 table had not finished
#      building after 10 minutes on the dev machine): the table is not
#      loaded, the term is 0 and its indices are not stepped. This takes work
#      per node away from the peer, so its rates are if anything higher.
# Built with the system g++ at its Makefile's -O2 and without TBB (it uses
# only std::execution::seq).
set -euo pipefail
src=${1:?usage: build-15puzzle.sh CLONE [DEST]}
dest=$(realpath -m "${2:-target/device/peer}")
here=$(pwd)
work=/tmp/15puzzle-build
rm -rf "$work"
cp -r "$src" "$work"
cd "$work"
sed -i 's/#include "Memory.h"/#include <memory>/' include/Util.h
sed -i 's/WalkingDistance::getIndex(g, false)/0/; s/WalkingDistance::getIndex(g)/0/' src/Board.cpp
sed -i '/wd\(Row\|Col\)Index = WalkingDistance::edges/d' src/Board.cpp
perl -0pi -e 's/WalkingDistance::costs\[wdRowIndex\] \+\s*WalkingDistance::costs\[wdColIndex\]/0/' src/Board.cpp
sed -i '/WalkingDistance::load(solution, width, height);/d' src/main.cpp
grep -q "WalkingDistance::costs" src/Board.cpp && { echo "walking distance still in Board.cpp"; exit 1; }
mkdir -p obj bin
make -j"$(nproc)" CXX=g++ LIBS= >/dev/null
mkdir -p "$dest/bin" "$dest/boards" "$dest/databases"
cp bin/puzzle "$dest/bin/"
# Database specs: the whole partitions, and one file per 6-tile pattern so
# that the device script builds the four in parallel, one process each.
cp databases/6666-reg databases/555-reg "$dest/databases/"
python3 - "$dest/databases" <<'PY'
import sys
dest = sys.argv[1]
text = open(f"{dest}/6666-reg").read().split("\n\n")
head, grids = text[0].split(), [g for g in text[1:] if g.strip()]
w, h = head[0], head[1]
for i, grid in enumerate(grids):
    open(f"{dest}/6666-reg-single{i}", "w").write(f"{w} {h} 1\n\n{grid.strip()}\n")
PY
# Boards: Korf-Felner #1-#4 and Korf #88 from frontier's own data files,
# and an empty board list (to build databases without solving).
cd "$here"
board() { # tsv id width name
  awk -F'\t' -v id="$2" '$1==id{print $3}' "$1" | python3 -c "import sys
w=$3; t=sys.stdin.read().split()
print(f'{w} {w} 1'); print()
for r in range(w): print(' '.join(t[r*w:(r+1)*w]))" > "$dest/boards/$4"
}
for id in 1 2 3 4; do board data/tiles/korf-felner-24.tsv "$id" 5 "kf$id"; done
board data/tiles/korf100.tsv 88 4 k88
printf '5 5 0\n' > "$dest/boards/none5"
echo "peer in $dest: $(ls "$dest/bin" "$dest/boards" | tr '\n' ' ')"
