"""Pairs two sets of `frontier run` CSV rows board by board, in file order:
   python3 pair.py A.csv[+B.csv…] C.csv[+D.csv…]
prints the boards paired, both means and the first set's mean difference with its
standard error. A set may be the halves of a validation set (val.sh's A and B files,
whose instance numbers restart), hence pairing by position, not by instance."""
import csv, math, sys


def lengths(paths):
    out = []
    for path in paths.split("+"):
        for row in csv.reader(open(path)):
            if row and row[0].isdigit():
                out.append(int(row[4]) if row[3] in ("bounded", "optimal") else None)
    return out


first, second = lengths(sys.argv[1]), lengths(sys.argv[2])
pairs = [(a, b) for a, b in zip(first, second) if a is not None and b is not None]
if len(pairs) < 2:
    sys.exit(f"{len(pairs)} boards paired: too few")
d = [a - b for a, b in pairs]
m = sum(d) / len(d)
se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d))
print(f"{len(d)} boards: {sum(a for a, _ in pairs) / len(d):.2f} against "
      f"{sum(b for _, b in pairs) / len(d):.2f}; paired {m:+.2f} ± {se:.2f}")
