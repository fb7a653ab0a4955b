#!/usr/bin/env python3
"""Our nonogram times beside the peer solvers' figures in INDEX.tsv.

Default: the common set, every puzzle that both pbnsolve and nonogrid_bt
finish within a second. Solves each with `frontier nonogram solve` (10 s cap),
checks the verdict against INDEX.tsv and prints per-puzzle times beside the
peers' and the totals.

--two-times: every puzzle with any peer figure of at most 120 s (pbnsolve,
nonogrid_bt and nonogrid_sat verdicts; nonosolve and LalaFrogKK times). Solves
each (60 s cap) and names every puzzle where the best peer is more than twice
as fast as we are (times under 10 ms aside); exits 1 if there is one.

FRONTIER_DATA and FRONTIER_BIN override the paths."""
import json
import os
import re
import subprocess
import sys

DATA = os.environ.get("FRONTIER_DATA", "../shared/data")
BIN = os.environ.get("FRONTIER_BIN", "./target/release/frontier")
VERDICT_PEERS = ["pbnsolve", "nonogrid_bt", "nonogrid_sat"]


def peer_time(notes, name):
    """A peer's time and what it said ("unique", "line unique", "timeout",
    "-" ...), or None where INDEX.tsv has no time for it."""
    m = re.search(re.escape(name) + r" ([0-9.]+) \(([^)]*)\)", notes)
    return (float(m.group(1)), m.group(2)) if m else None


def verdict_time(notes, name):
    """A peer's time where it gave a verdict, not where it timed out, was
    killed or said nothing ("-")."""
    figure = peer_time(notes, name)
    if figure and set(figure[1].split()) & {"unique", "multiple", "none"}:
        return figure[0]
    return None


def other_times(notes):
    """nonosolve's and LalaFrogKK's times, as INDEX.tsv writes them."""
    times = []
    m = re.search(r"nonosolve/LalaFrogKK: ([0-9.]+)/([0-9.]+)", notes)
    if m:
        times += [(float(m.group(1)), "nonosolve"), (float(m.group(2)), "LalaFrogKK")]
    m = re.search(r"nonosolve ([0-9.]+) s", notes)
    if m:
        times.append((float(m.group(1)), "nonosolve"))
    return times


def solve(id_, cap):
    out = subprocess.run(
        [BIN, "--json", "nonogram", "solve", "--max-seconds", str(cap), "--no-grid", "--quiet",
         os.path.join(DATA, f"nonogram/{id_}.nin")],
        capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{id_}: frontier failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def expected(unique):
    return {"yes": "unique", "no": "multiple"}.get(unique)


def common_set(rows):
    tot = {"ours": 0, "pbnsolve": 0, "nonogrid_bt": 0, "nonogrid_sat": 0}
    n, slow, wrong = 0, [], []
    for r in rows:
        id_, unique, notes = r[0], r[4], r[7]
        # The set as first defined: a time from both, whatever they said.
        p, b, s = (peer_time(notes, name) for name in VERDICT_PEERS)
        p, b, s = (f and f[0] for f in (p, b, s))
        if p is None or b is None or p >= 1 or b >= 1:
            continue
        j = solve(id_, 10)
        t = j["stats"]["seconds"]
        want = expected(unique)
        if want and j["verdict"] != want:
            wrong.append((id_, j["verdict"], want))
        if t >= 1:
            slow.append((id_, t))
        n += 1
        tot["ours"] += t
        tot["pbnsolve"] += p
        tot["nonogrid_bt"] += b
        tot["nonogrid_sat"] += s or 0
        print(f"{id_:28} ours {t:8.4f}  pbnsolve {p:7.3f}  nonogrid_bt {b:7.3f}  sat {s}  {j['verdict']}")
    print(n, "puzzles; totals:", {k: round(v, 3) for k, v in tot.items()}, "slow:", slow, "wrong:", wrong)
    return not wrong


def two_times(rows):
    over, wrong = [], []
    for r in rows:
        id_, unique, notes = r[0], r[4], r[7]
        figures = [(t, name) for name in VERDICT_PEERS
                   if (t := verdict_time(notes, name)) is not None]
        figures += other_times(notes)
        if not figures or min(figures)[0] > 120:
            continue
        best, peer = min(figures)
        j = solve(id_, 60)
        t = j["stats"]["seconds"]
        want = expected(unique)
        if want and j["verdict"] != want:
            wrong.append((id_, j["verdict"], want))
        flag = ""
        if t > 2 * best and t > 0.01:
            over.append(id_)
            flag = "OVER 2x"
        print(f"{id_:28} ours {t:8.3f} {j['verdict']:9} best {peer} {best} ({t / best if best else 0:.2f}x) {flag}")
    print("over 2x:", over, "wrong:", wrong)
    return not over and not wrong


def main():
    args = sys.argv[1:]
    if args not in ([], ["--two-times"]):
        sys.exit(f"usage: {sys.argv[0]} [--two-times] (not {' '.join(args)})")
    index = os.path.join(DATA, "nonogram/INDEX.tsv")
    if not os.path.isfile(index):
        sys.exit(f"{index}: no such file; set FRONTIER_DATA to the shared data folder")
    if not os.access(BIN, os.X_OK):
        sys.exit(f"{BIN}: no such program; build it (cargo build --release) or set FRONTIER_BIN")
    rows = [l.rstrip("\n").split("\t") for l in open(index)][1:]
    ok = two_times(rows) if args else common_set(rows)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
