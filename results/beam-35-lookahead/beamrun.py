import json, subprocess, sys, os
BIN, TSV, FIRST, WIDTH, LOOK = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
ARGS = ["solve", "tiles", "--json", "--heuristic", "5-5-5-5-5-5-5", "--reflect", "--rank-conflicts", "--quiet"]
rows = [l.rstrip("\n").split("\t") for l in open(TSV)][1:FIRST + 1]
env = dict(os.environ, FRONTIER_BEAM_LOOKAHEAD=LOOK)
tot = 0; ts = 0
for ident, text, theirs in rows:
    out = subprocess.run([BIN, *ARGS, "--beam", WIDTH, text], capture_output=True, text=True, check=True, env=env).stdout
    row = json.loads(out.strip().splitlines()[-1])
    n = len(row["path"]); s = row["stats"]["seconds"]; tot += n; ts += s
    print(f"{ident}\t{theirs}\t{n}\t{s:.2f}\t{row['stats'].get('expanded')}", flush=True)
print(f"MEAN\t{tot/len(rows):.2f}\t{ts/len(rows):.2f}")
