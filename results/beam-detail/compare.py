# compare.py HEADER A-NAME B-NAME [LABEL A.csv B.csv]...: for each pair of `frontier run`
# CSVs of one config, the boards in both, how many rows are equal in length and expansions,
# the mean length (A's), and each side's seconds a board with their ratio (B over A).
# Used by call.sh (detail against afresh) and verify-call.sh (now against before).
import csv, sys
def rows(f):
    return {r[0]: r for r in csv.reader(l for l in open(f) if not l.startswith('#')) if r and r[0].isdigit()}
a_name, b_name, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"config        boards  equal  mean-length  s/board-{a_name}  s/board-{b_name}  ratio")
for label, fa, fb in zip(rest[0::3], rest[1::3], rest[2::3]):
    try:
        a, b = rows(fa), rows(fb)
    except OSError as e:
        print(label, "missing:", e); continue
    ks = [k for k in a if k in b]
    same = sum(a[k][4] == b[k][4] and a[k][6] == b[k][6] for k in ks)
    sa = sum(float(a[k][8]) for k in ks) / max(len(ks), 1)
    sb = sum(float(b[k][8]) for k in ks) / max(len(ks), 1)
    mean = sum(int(a[k][4]) for k in ks) / max(len(ks), 1)
    print(f"{label:13} {len(ks):6} {same:6} {mean:12.2f} {sa:15.3f} {sb:15.3f} {sb / sa if sa else 0:6.2f}")
