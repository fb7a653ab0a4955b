import csv, sys
def rows(f):
    return {int(r[0]): int(r[4]) for r in csv.reader(l for l in open(f) if not l.startswith('#')) if r and r[0].isdigit()}
o, t, od, td = (rows(f) for f in sys.argv[1:5])
ks = sorted(set(o) & set(t) & set(od) & set(td))
def m(d): return sum(d[k] for k in ks)/len(ks)
def pair(a, b, name):
    d = [a[k]-b[k] for k in ks]; n=len(d); mu=sum(d)/n; sd=(sum((x-mu)**2 for x in d)/(n-1))**.5/n**.5
    print(f"{name:40} {mu:+.2f} ± {sd:.2f}  ({sum(x<0 for x in d)}/{sum(x==0 for x in d)}/{sum(x>0 for x in d)})")
print(len(ks), "boards; means: orig %.2f T %.2f orig-dual %.2f T-dual %.2f" % (m(o), m(t), m(od), m(td)))
mn2 = {k: min(o[k], t[k]) for k in ks}; mn4 = {k: min(od[k], td[k]) for k in ks}
print("min(o,T) %.2f min4 %.2f" % (m(mn2), m(mn4)))
pair(t, o, "T vs orig")
pair(od, o, "dual vs orig")
pair(td, od, "T-dual vs orig-dual")
pair(mn2, o, "min(orig,T) vs orig")
pair(mn2, od, "min(orig,T) vs orig-dual")
pair(mn4, od, "min4 vs orig-dual")
pair({k:min(od[k],t[k]) for k in ks}, od, "min(orig-dual,T) vs orig-dual")
