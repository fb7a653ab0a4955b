# pair.py A B [PARAMS [PARAMS_B]]: paired lengths of two sets of result CSVs (each a
# comma-joined list of globs), matched by instance_text, only the rows whose params hold
# PARAMS (e.g. dual=true) where it is given (in B, PARAMS_B where that is given: a file
# whose dual is in its config has no dual= in its params); prints boards, means, paired
# mean ± standard error, and shorter/equal/longer of A against B.
import csv, sys, math, glob
def load(globs, want):
    out={}
    for g in globs.split(','):
        for f in glob.glob(g):
            for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
                if want in r['params']:
                    if r['instance_text'] in out:
                        sys.exit(f"{f}: two rows for one board; give PARAMS to tell them apart")
                    out[r['instance_text']]=int(r['cost'])
    return out
want_a = sys.argv[3] if len(sys.argv) > 3 else ""
want_b = sys.argv[4] if len(sys.argv) > 4 else want_a
a=load(sys.argv[1], want_a); b=load(sys.argv[2], want_b)
if not any(k in b for k in a):
    sys.exit("no board in both sets (check the globs and the params filters)")
ks=[k for k in a if k in b]
d=[a[k]-b[k] for k in ks]; n=len(d); m=sum(d)/n
sd=math.sqrt(sum((x-m)**2 for x in d)/(n-1)) if n>1 else 0
print(f"{n} boards: {sum(a[k] for k in ks)/n:.2f} vs {sum(b[k] for k in ks)/n:.2f}; paired {m:+.2f} ± {sd/math.sqrt(n):.2f}; shorter/equal/longer {sum(x<0 for x in d)}/{sum(x==0 for x in d)}/{sum(x>0 for x in d)}")
