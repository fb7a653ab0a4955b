#!/usr/bin/env bash
# Checks frontier's Wordle proofs against published optima on lists it is
# not tested on, and checks the published trees with `frontier wordle
# verify`. Needs a checkout of Alex Selby's public `wordle` repository (MIT
# licence; its word lists and trees are not shipped with frontier):
#
#   SELBY=/path/to/wordle scripts/wordle-published.sh
#
# Builds nothing: run `cargo build --release` first (or set FRONTIER).
# Prints one line per check, then a table; exits 1 if any check fails.
set -uo pipefail
cd "$(dirname "$0")/.."
F=${FRONTIER:-target/release/frontier}
if [[ -z "${SELBY:-}" || ! -f "$SELBY/wordlist_nyt20230701_hidden" ]]; then
  echo "set SELBY to a checkout of Alex Selby's wordle repository (it holds wordlist_nyt20230701_hidden)" >&2
  exit 2
fi
[[ -x $F ]] || { echo "$F: not built (cargo build --release)" >&2; exit 2; }
rows=()
failed=0
# prove FIRST MODE ANSWERS GUESSES PUBLISHED TREE
check() {
  local first=$1 mode=$2 answers=$3 guesses=$4 want=$5 tree=$6
  local flag=() got seconds verdict
  [[ $mode == hard ]] && flag=(--hard)
  local line
  line=$("$F" --json wordle prove --first "$first" "${flag[@]}" \
    --answers "$SELBY/$answers" --guesses "$SELBY/$guesses")
  got=$(sed -E 's/.*"total":([0-9]+).*/\1/' <<<"$line")
  seconds=$(sed -E 's/.*"seconds":([0-9.]+).*/\1/' <<<"$line")
  verdict=ok
  [[ $got == "$want" ]] || verdict=WRONG
  if [[ -n $tree ]]; then
    "$F" wordle verify "$SELBY/$tree" "${flag[@]}" --answers "$SELBY/$answers" \
      --guesses "$SELBY/$guesses" --total "$want" >/dev/null || verdict="$verdict, published tree FAILS"
  fi
  [[ $verdict == ok ]] || failed=1
  echo "$first $mode $answers: proven $got (published $want) in ${seconds%.*} s: $verdict"
  rows+=("$(printf '| %s | %s | %s | %s | %s | %.1f | %s |' "$first" "$mode" "$answers" "$want" "$got" "$seconds" "$verdict")")
}
check salet normal wordlist_orig_hidden wordlist_orig_all 7920 salet.easy.origwords.tree
check salet hard wordlist_orig_hidden wordlist_orig_all 8122 salet.hard.origwordlist.tree
check salet hard wordlist_nyt20220215_hidden wordlist_nyt20220215_all 8099 ""
check salet hard wordlist_nyt20220830_hidden wordlist_nyt20220830_all 8097 salet.hard.nyt20220830.tree
check tarse normal wordlist_nyt20220830_hidden wordlist_nyt20220830_all 7883 tarse.easy.nyt20220830.tree
check tarse normal wordlist_nyt20230701_hidden wordlist_nyt20220830_all 11219 tarse.easy.nyt20230701.tree
check tarse hard wordlist_nyt20230701_hidden wordlist_nyt20220830_all 11627 tarse.hard.nyt20230701.tree
echo
echo "| first | mode | answers | published | proven | seconds | check |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit $failed
