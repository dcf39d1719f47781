"""Table of scripts/slop_matrix.sh: per scene, size and run (ours at the default slop of
0.01 r, at 0.03 r and 0.05 r, rapier), the medians over the repetitions of the late-half
median and mean step (ms; steps alternating between two costs put the median in the
dearer half, so the mean is given beside it), the worst step, and the deepest overlap at
the end (the largest over the repetitions); the last two columns are rapier's late-half
median and mean over the run's."""
import json
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["scene"], r["n"], r["engine"])].append(r)

def med(rs, key):
    return statistics.median(r[key] for r in rs)

order = ("ours", "ours-slop0.03", "ours-slop0.05", "rapier")
print("| scene | N | run | late-half median ms | late-half mean ms | worst ms | deepest overlap / r | rapier / this (median) | rapier / this (mean) |")
print("|---|---|---|---|---|---|---|---|---|")
for scene, n in sorted({(s, n) for s, n, _ in runs}):
    rapier = runs.get((scene, n, "rapier"))
    for e in order:
        rs = runs.get((scene, n, e))
        if not rs:
            continue
        late, mean = med(rs, "ms_late_median"), med(rs, "ms_late_mean")
        deep = max(r["max_overlap_over_r"] for r in rs)
        ratios = ["", ""]
        if rapier and e != "rapier":
            ratios = [f"{med(rapier, 'ms_late_median') / late:.2f}×",
                      f"{med(rapier, 'ms_late_mean') / mean:.2f}×"]
        print(f"| {scene} | {n} | {e} | {late:.3f} | {mean:.3f} | {med(rs, 'ms_worst'):.2f} | {deep:.4f} | {ratios[0]} | {ratios[1]} |")
