import sys, csv, math
def load(paths):
    rows = []
    for p in paths:
        rows += [r for r in csv.reader(open(p)) if r and r[0].isdigit()]
    return [int(r[4]) if r[3] in ("bounded","optimal") else None for r in rows], [float(r[8]) for r in rows]
# BASE may be several files joined by '+' (a validation set's halves), paired in order.
base = [int(r[4]) for p in sys.argv[1].split('+') for r in csv.reader(open(p)) if r and r[0].isdigit()]
other, secs = load(sys.argv[2:])
d = [o - b for o, b in zip(other, base) if o is not None]
n = len(d); m = sum(d)/n; se = math.sqrt(sum((x-m)**2 for x in d)/(n-1)/n)
print(f"{n} boards: mean {sum(o for o in other if o)/n:.2f} vs base {sum(base[:n])/n:.2f}; paired {m:+.2f} ± {se:.2f}; shorter/equal/longer {sum(x<0 for x in d)}/{sum(x==0 for x in d)}/{sum(x>0 for x in d)}; {sum(secs)/len(secs):.2f} s/board")
