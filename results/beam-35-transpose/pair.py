# pair.py: the transposed boards' beams beside the boards' own (issue 43, fifty-fifth
# session). Rows are matched by instance id (a transposed board's text is not its
# board's). Prints each set's mean and, for each portfolio (the shortest path of the
# beams named), its paired mean ± standard error against the board's own --dual at 4·10^6.
#   python3 pair.py OUTDIR
import csv, math, sys
out = sys.argv[1]
def rows(f, want="dual=true"):
    try:
        lines = [l for l in open(f) if not l.startswith('#')]
    except OSError:
        return {}
    return {int(r['instance']): (int(r['cost']), float(r['seconds']))
            for r in csv.DictReader(lines) if want in r['params'] and r['status'] != 'unsolved'}
base = rows("results/deepcubea-own-35-network/deepcubea-own-35-network.csv")
sets = {"board dual 4e6 (H100, 52nd session)": base,
        "transposed dual 4e6": rows(f"{out}/transposed-dual-4e6.csv"),
        "board dual 2e6": rows(f"{out}/board-dual-2e6.csv"),
        "transposed dual 2e6": rows(f"{out}/transposed-dual-2e6.csv")}
names = list(sets)
for n, s in sets.items():
    if s:
        print(f"{n:38} {len(s):3} boards, mean {sum(c for c, _ in s.values()) / len(s):.2f}, {sum(t for _, t in s.values()) / len(s):.2f} s/board")
def pair(parts, label):
    ks = sorted(set.intersection(*(set(sets[p]) for p in parts)) & set(base))
    if len(ks) < 2:
        return
    best = {k: min(sets[p][k][0] for p in parts) for k in ks}
    secs = sum(sum(sets[p][k][1] for p in parts) for k in ks) / len(ks)
    d = [best[k] - base[k][0] for k in ks]
    m = sum(d) / len(d); se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d))
    print(f"{label:50} {len(ks):3} boards {sum(best.values()) / len(ks):7.2f}  {m:+.2f} ± {se:.2f}  "
          f"({sum(x < 0 for x in d)}/{sum(x == 0 for x in d)}/{sum(x > 0 for x in d)})  {secs:.2f} s")
print("portfolio (shortest of)                             boards    mean  against board dual 4e6  s/board")
pair([names[1]], "transposed dual 4e6")
pair([names[0], names[1]], "board + transposed, dual, 4e6 each")
pair([names[2]], "board dual 2e6")
pair([names[2], names[3]], "board + transposed, dual, 2e6 each")
pair([names[0], names[3]], "board dual 4e6 + transposed dual 2e6")
