import csv,sys,itertools,os
def load(p):
    rows=[r for r in csv.reader(l for l in open(p) if not l.startswith('#'))]
    h=rows[0]; d={}
    for r in rows[1:]:
        d[int(r[h.index('instance')])]=int(r[h.index('cost')])
    return d
b=[l.split('\t') for l in open('target/deepcubea/puzzle35.tsv') if l[0].isdigit()]
turns={}
for r in b:
    t=list(map(int,r[1].split())); i=t.index(0); rr,cc=divmod(i,6)
    dr=min(rr,5-rr); dc=min(cc,5-cc); turns[int(r[0])]=(dr>0 and dc>0, dr+dc)
runs={'P':load('results/deepcubea-own-35-beam-cpu-ranked.csv'),'d0':load('results/beam-35-dual-corners/cpu-corner0-old-order.csv')}
for n in sys.argv[1:]:
    runs[n]=load(f'results/beam-35-dual-corners/cpu-{n}.csv')
keys=sorted(set.intersection(*[set(v) for v in runs.values()]))
print(len(keys),'boards;', sum(turns[k][0] for k in keys),'turn; mean k', sum(turns[k][1] for k in keys)/len(keys))
for k,v in runs.items(): print(k, round(sum(v[i] for i in keys)/len(keys),2))
names=list(runs)
for n in range(2,len(names)+1):
    for combo in itertools.combinations(names,n):
        m=sum(min(runs[c][i] for c in combo) for i in keys)/len(keys)
        print(combo, round(m,2))
tk=[k for k in keys if turns[k][0]]
print('turning boards only', len(tk))
for combo in [('P',),('P','d0'),('P','d0','only1')]:
    if all(c in runs for c in combo): print(combo, round(sum(min(runs[c][i] for c in combo) for i in tk)/len(tk),2))
