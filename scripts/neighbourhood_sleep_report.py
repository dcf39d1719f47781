"""Table of scripts/neighbourhood_sleep.sh: per pile size and run (ours by whole islands,
ours by neighbourhood, rapier), the medians over the repetitions of the late-half median
(ms), the worst step (ms) and the kinetic energy at the end, the settle times of every
repetition, and rapier's late median over the run's."""
import json
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["n"], r["engine"])].append(r)

order = ("ours", "ours-neighbourhood", "rapier")
print("| pile N | run | late-half median ms | worst ms | settled | KE at end | deepest overlap / r | rapier / this |")
print("|---|---|---|---|---|---|---|---|")
for n in sorted({n for n, _ in runs}):
    rapier = statistics.median(r["ms_late_median"] for r in runs[(n, "rapier")]) if (n, "rapier") in runs else None
    for e in order:
        rs = runs.get((n, e))
        if not rs:
            continue
        late = statistics.median(r["ms_late_median"] for r in rs)
        worst = statistics.median(r["ms_worst"] for r in rs)
        ke = statistics.median(r["ke_end"] for r in rs)
        deep = max(r["max_overlap_over_r"] for r in rs)
        settled = ", ".join(f"{r['settled_at_s']:.2f} s" if r["settled_at_s"] is not None else "never" for r in rs)
        ratio = f"{rapier / late:.2f}×" if rapier and e != "rapier" else ""
        print(f"| {n} | {e} | {late:.3f} | {worst:.2f} | {settled} | {ke:.3g} | {deep:.4f} | {ratio} |")
