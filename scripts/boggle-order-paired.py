"""Issue 45: draws the strata of scripts/boggle-order-paired.sh and projects
the whole 4x4 proof in the cost order from their paired runs.

  boggle-order-paired.py draw SLICE STRATUM COUNT SEED   (index, recorded s;
      STRATUM light, heavy or longest; MAX_RECORDED=S: classes the slice
      took at most S seconds on)
  boggle-order-paired.py ratio PAIRED.tsv                (one stratum)
  boggle-order-paired.py project SLICE light.tsv heavy.tsv [longest.tsv]

The projection is a stratified ratio estimate: the slice (a systematic 1%
of the classes, finished in the degree order) gives each stratum's recorded
seconds; each stratum's sample gives the ratio of cost-order to
degree-order seconds on the same classes, the same machine, at the same
time; the whole proof in the cost order is the slice's projection (the
degree order's) times the strata's ratios weighted by their recorded time.
The classes above 250 s are taken at the ratio of those of them run
(longest.tsv), else at the heavy stratum's.
"""
import math
import os
import random
import sys

HEAVY_SHARE = 0.01
LONGEST_RUN = 250.0
CLASSES = 1068363


def slice_seconds(path):
    seconds = {}
    for line in open(path):
        fields = line.split()
        if fields and fields[0] == "class":
            seconds[int(fields[1])] = float(fields[2])
    return seconds


def strata(seconds):
    ranked = sorted(seconds, key=lambda i: -seconds[i])
    heavy_count = round(len(ranked) * HEAVY_SHARE)
    top = ranked[:heavy_count]
    return {
        "light": sorted(ranked[heavy_count:]),
        "heavy": sorted(i for i in top if seconds[i] <= LONGEST_RUN),
        "longest": sorted(i for i in top if seconds[i] > LONGEST_RUN),
    }


def draw(path, stratum, count, seed):
    seconds = slice_seconds(path)
    # MAX_RECORDED: only classes the slice took at most that long on.
    cap = float(os.environ.get("MAX_RECORDED", "inf"))
    members = [i for i in strata(seconds)[stratum] if seconds[i] <= cap]
    drawn = random.Random(seed).sample(members, min(count, len(members)))
    for index in sorted(drawn, key=lambda i: -seconds[i]):
        print(index, seconds[index])


def pairs(path):
    runs = {}
    for line in open(path):
        index, order, seconds, _, _ = line.split("\t")
        runs.setdefault(int(index), {})[order] = float(seconds)
    return [(r["degree"], r["cost"]) for r in runs.values() if len(r) == 2]


def ratio(paired):
    """The ratio of sums and its standard error (ratio estimator)."""
    n = len(paired)
    x = sum(d for d, _ in paired)
    y = sum(c for _, c in paired)
    r = y / x
    residuals = [c - r * d for d, c in paired]
    variance = sum(e * e for e in residuals) / max(n - 1, 1) / n
    return r, math.sqrt(variance) / (x / n), n, x, y


def main():
    what = sys.argv[1]
    if what == "draw":
        draw(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif what == "ratio":
        r, se, n, x, y = ratio(pairs(sys.argv[2]))
        print(f"{n} classes: degree {x:.1f} s, cost {y:.1f} s, cost/degree {r:.3f} +- {se:.3f}")
    elif what == "project":
        seconds = slice_seconds(sys.argv[2])
        members = strata(seconds)
        total = sum(seconds.values())
        light = ratio(pairs(sys.argv[3]))
        heavy = ratio(pairs(sys.argv[4]))
        longest = ratio(pairs(sys.argv[5])) if len(sys.argv) > 5 else heavy
        weights = {k: sum(seconds[i] for i in v) for k, v in members.items()}
        scale = CLASSES / len(seconds) / 3600
        degree_hours = total * scale
        cost = (
            weights["light"] * light[0]
            + weights["heavy"] * heavy[0]
            + weights["longest"] * longest[0]
        )
        # The ratios' errors, and the slice's own as a sample of the proof.
        mean = total / len(seconds)
        sd = math.sqrt(sum((s - mean) ** 2 for s in seconds.values()) / (len(seconds) - 1))
        slice_error = sd / math.sqrt(len(seconds)) / mean
        error = math.sqrt(
            (weights["light"] * light[1]) ** 2
            + (weights["heavy"] * heavy[1]) ** 2
            + (weights["longest"] * longest[1]) ** 2
            + (cost * slice_error) ** 2
        )
        for name, (r, se, n, _, _) in (("light", light), ("heavy", heavy), ("longest", longest)):
            print(f"{name}: {n} classes, cost/degree {r:.3f} +- {se:.3f}, "
                  f"{weights[name] / total:.1%} of the slice's time")
        print(f"whole 4x4 proof, degree order (the slice): {degree_hours:.0f} core-hours")
        print(f"whole 4x4 proof, cost order: {cost * scale:.0f} +- {error * scale:.0f} core-hours")


main()
