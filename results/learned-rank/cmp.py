import csv, sys, math
def load(f):
    rows = [l for l in open(f) if not l.startswith('#')]
    return {r['instance']: (int(r['cost']), float(r['seconds'])) for r in csv.DictReader(rows) if r['cost'] not in ('', '-')}
a = load(sys.argv[1])
for f in sys.argv[2:]:
    b = load(f)
    ks = [k for k in a if k in b]
    d = [b[k][0] - a[k][0] for k in ks]
    m = sum(d) / len(d); sd = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d)) if len(d) > 1 else 0
    print(f"{f}: n={len(ks)} base {sum(a[k][0] for k in ks)/len(ks):.2f} this {sum(b[k][0] for k in ks)/len(ks):.2f} diff {m:+.2f} ± {sd:.2f} "
          f"shorter/eq/longer {sum(x<0 for x in d)}/{sum(x==0 for x in d)}/{sum(x>0 for x in d)} s {sum(b[k][1] for k in ks)/len(ks):.2f} vs {sum(a[k][1] for k in ks)/len(ks):.2f}")
