"""Pairs forward and dual beam rows by board id, against DeepCubeA's lengths.

python3 compare.py FWD.csv DUAL.csv BOARDS.tsv [ALL.csv]
"""
import csv, statistics as st, sys

def rows(path):
    lines = (l for l in open(path) if not l.startswith('#'))
    return {int(r['instance']): int(r['cost']) for r in csv.DictReader(lines)}

f, b = rows(sys.argv[1]), rows(sys.argv[2])
dca = {int(l.split('\t')[0]): int(l.split('\t')[2]) for l in open(sys.argv[3]).read().splitlines()[1:]}
ids = sorted(i for i in f if i in b)
F = [f[i] for i in ids]; B = [b[i] for i in ids]; M = [min(x, y) for x, y in zip(F, B)]; D = [dca[i] for i in ids]
print(len(ids), 'boards: DeepCubeA', round(st.mean(D), 2), 'forward', round(st.mean(F), 2), 'dual', round(st.mean(B), 2), 'shorter of the two', round(st.mean(M), 2))
def paired(name, X, Y):
    dd = [x - y for x, y in zip(X, Y)]
    print(f'{name}: {st.mean(dd):+.2f} +- {st.stdev(dd) / len(dd) ** .5:.2f}; shorter/equal/longer {sum(x < 0 for x in dd)}/{sum(x == 0 for x in dd)}/{sum(x > 0 for x in dd)}')
paired('dual - forward', B, F)
paired('shorter - forward', M, F)
paired('forward - DeepCubeA', F, D)
paired('shorter - DeepCubeA', M, D)
if len(sys.argv) > 4:
    a = rows(sys.argv[4])
    print('forward rows equal to', sys.argv[4], sum(a[i] == f[i] for i in ids), 'of', len(ids))
