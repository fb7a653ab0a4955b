#!/usr/bin/env python3
"""The nonogram target set: every puzzle of INDEX.tsv that both peer solvers
(pbnsolve, nonogrid_bt) finish within a second. Solves each with
`frontier nonogram solve` (10 s cap), checks the verdict against INDEX.tsv,
and prints per-puzzle times beside the peers' and the totals.
Usage: scripts/nonogram-peers.py  (FRONTIER_DATA and FRONTIER_BIN override paths)"""
import os
DATA = os.environ.get("FRONTIER_DATA", "../shared/data")
BIN = os.environ.get("FRONTIER_BIN", "./target/release/frontier")
import subprocess, json, sys
rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(DATA, "nonogram/INDEX.tsv"))][1:]
import re
def peer(notes, name):
    m = re.search(re.escape(name) + r" ([0-9.]+) \(", notes)
    return float(m.group(1)) if m else None
tot = {"ours": 0, "pbnsolve": 0, "nonogrid_bt": 0, "nonogrid_sat": 0}
n = 0; slow = []; wrong = []
for r in rows:
    id_, uniq, notes = r[0], r[4], r[7]
    p, b, s = peer(notes, "pbnsolve"), peer(notes, "nonogrid_bt"), peer(notes, "nonogrid_sat")
    if p is None or b is None or p >= 1 or b >= 1:
        continue
    out = subprocess.run([BIN, "--json", "nonogram", "solve", "--max-seconds", "10",
                          os.path.join(DATA, f"nonogram/{id_}.nin")], capture_output=True, text=True)
    j = json.loads(out.stdout)
    t = j["stats"]["seconds"]
    want = {"yes": "unique", "no": "multiple"}.get(uniq)
    if want and j["verdict"] != want: wrong.append((id_, j["verdict"], want))
    if t >= 1: slow.append((id_, t))
    n += 1; tot["ours"] += t; tot["pbnsolve"] += p; tot["nonogrid_bt"] += b; tot["nonogrid_sat"] += (s or 0)
    print(f"{id_:28} ours {t:8.4f}  pbnsolve {p:7.3f}  nonogrid_bt {b:7.3f}  sat {s}  {j['verdict']}")
print(n, "puzzles; totals:", {k: round(v, 3) for k, v in tot.items()}, "slow:", slow, "wrong:", wrong)
