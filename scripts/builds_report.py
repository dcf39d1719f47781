"""Medians of scripts/builds_matrix.sh's runs: per scene and build (new, base, rapier,
avian) the late-half median and mean (medians over the repetitions), the worst step, the
deepest overlap, and rapier's late figures over each of our builds'."""
import collections
import json
import statistics as st
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
runs = collections.defaultdict(list)
for r in rows:
    runs[(r["scene"], r["n"], r["build"])].append(r)


def med(rs, key):
    return st.median(r[key] for r in rs)


for scene, n in sorted({(k[0], k[1]) for k in runs}):
    print(f"{scene} {n}")
    for build in ["new", "base", "rapier", "avian"]:
        rs = runs.get((scene, n, build))
        if rs:
            print(
                f"  {build:7s} late median {med(rs, 'ms_late_median'):.3f} late mean "
                f"{med(rs, 'ms_late_mean'):.3f} worst {med(rs, 'ms_worst'):.1f} deepest overlap "
                f"{max(r['max_overlap_over_r'] for r in rs):.3f} r"
            )
    rapier = runs.get((scene, n, "rapier"))
    for build in ["new", "base"]:
        rs = runs.get((scene, n, build))
        if rs and rapier:
            print(
                f"  rapier / {build}: {med(rapier, 'ms_late_median') / med(rs, 'ms_late_median'):.2f}x "
                f"by late medians, {med(rapier, 'ms_late_mean') / med(rs, 'ms_late_mean'):.2f}x by late means"
            )
