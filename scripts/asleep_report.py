"""Table of the asleep matrix: per N, spinner and engine, the medians over repetitions of
the late-half median and mean step (ms, the 10-20 s of a pile that fell asleep), when the
pile settled, and the faster peer's late median over ours."""
import json
import sys
from collections import defaultdict

from report_common import med, settled

runs = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["n"], r["spinner"], r["engine"])].append(r)






order = {"ours": 0, "avian": 1, "rapier": 2}
print("| N | one body awake | engine | late-half median ms | late-half mean ms | settled | faster peer / ours (medians) |")
print("|---|---|---|---|---|---|---|")
for key in sorted(runs, key=lambda k: (k[0], -k[1], order[k[2]])):
    n, spin, engine = key
    rs = runs[key]
    ratio = ""
    if engine == "ours":
        peers = [med(runs[(n, spin, p)], "ms_late_median") for p in ("avian", "rapier") if (n, spin, p) in runs]
        if peers:
            ratio = f"{min(peers) / med(rs, 'ms_late_median'):.2f}×"
    print(f"| {n} | {'yes' if spin else 'no'} | {engine} | {med(rs, 'ms_late_median'):.3f} | "
          f"{med(rs, 'ms_late_mean'):.3f} | {settled(rs)} | {ratio} |")
