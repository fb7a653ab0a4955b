import csv,itertools,glob
def load(p):
    rows=[r for r in csv.reader(l for l in open(p) if not l.startswith('#'))]
    h=rows[0]; d={}
    for r in rows[1:]:
        if r[h.index('cost')]!='-': d[int(r[h.index('instance')])]=(int(r[h.index('cost')]),float(r[h.index('seconds')]))
    return d
dual={}
dual.update(load('results/deepcubea-own-35-dual/deepcubea-own-35-dual.csv'))
wide=load('results/deepcubea-own-35-dual/deepcubea-own-35-dual-wide.csv')
prim=load('results/deepcubea-own-35-all.csv')
b={int(l.split('\t')[0]):int(l.split('\t')[2]) for l in open('target/deepcubea/puzzle35.tsv') if l[0].isdigit()}
runs={'P':prim,'PD':dual}
for i in (1,2,3): runs[f'o{i}']=load(f'results/beam-35-dual-corners/only{i}.csv')
runs['win']=load('results/deepcubea-own-35-dual-window/deepcubea-own-35-dual-window.csv')
keys=sorted(set.intersection(*[set(v) for v in runs.values()]))
print(len(keys))
mean=lambda f: round(sum(f(i) for i in keys)/len(keys),3)
print('DeepCubeA', mean(lambda i:b[i]))
for k,v in runs.items(): print(k, mean(lambda i:v[i][0]), 's', mean(lambda i:v[i][1]))
for combo in [('PD','o1'),('PD','o2'),('PD','o3'),('PD','o1','o2'),('PD','o1','o3'),('PD','o2','o3'),('PD','o1','o2','o3'),('win','o1','o2'),('win','o1','o2','o3')]:
    print(combo, mean(lambda i:min(runs[c][i][0] for c in combo)), 's', mean(lambda i:sum(runs[c][i][1] for c in combo)))
import math
def pair(f,g,ks):
    d=[f(i)-g(i) for i in ks]; m=sum(d)/len(d); sd=math.sqrt(sum((v-m)**2 for v in d)/(len(d)-1)/len(d))
    return round(m,2),round(sd,2),sum(v<0 for v in d),sum(v==0 for v in d),sum(v>0 for v in d)
mn=lambda combo: (lambda i: min(runs[c][i][0] for c in combo))
print('PD vs P', pair(mn(['PD']),mn(['P']),keys))
for combo in [('PD','o1'),('PD','o1','o2'),('PD','o1','o2','o3'),('win',)]:
    print(combo,'vs PD', pair(mn(combo),mn(['PD']),keys))
k60=[i for i in keys if i<60]
print('60: PD', sum(runs['PD'][i][0] for i in k60)/60, 'wide', sum(wide[i][0] for i in k60)/60, 'PD+o1+o2', sum(mn(['PD','o1','o2'])(i) for i in k60)/60)
print('60 wide vs PD', pair(lambda i: wide[i][0], mn(['PD']), k60), 'PDo1o2 vs PD', pair(mn(['PD','o1','o2']),mn(['PD']),k60))
print('vs DCA', pair(mn(['PD','o1','o2']), lambda i:b[i], keys))
