#!/usr/bin/env python3
"""Splits each GPU IDA* iteration of a debug log (RUST_LOG=...gpu::ida=debug)
into the launches with roots left and the tail that lives on donations:
launches, nodes expanded and, at a slice each, the time of each phase."""
import re
import sys
from collections import defaultdict

phases = defaultdict(lambda: [0, 0, 0, 0])  # bound -> roots launches, expanded, tail launches, expanded
order = []
for line in open(sys.argv[1], errors="replace"):
    line = re.sub(r"\x1b\[[0-9;]*m", "", line)
    if "GPU IDA* launch" not in line:
        continue
    f = dict(re.findall(r"(\w+)=(\S+)", line))
    bound = int(f["bound"])
    if bound not in phases:
        order.append(bound)
    p = phases[bound]
    k = 0 if int(f["roots_left"]) > 0 else 2
    p[k] += 1
    p[k + 1] += int(f["expanded"])
print(f'{"bound":>5} {"root launches":>13} {"G expanded":>10} {"tail launches":>13} {"G expanded":>10}')
for b in order:
    p = phases[b]
    print(f"{b:>5} {p[0]:>13} {p[1]/1e9:>10.2f} {p[2]:>13} {p[3]/1e9:>10.2f}")
