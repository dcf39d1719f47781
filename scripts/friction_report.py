"""Table of the friction matrix: per scene, friction, rolling resistance and engine, the
medians over repetitions of the angle of repose (heap), the late-half median and worst
step (ms), when the scene settled (seconds after its start; the heap's after its pour),
the kinetic energy at the end and the deepest overlap."""
import json
import sys
from collections import defaultdict

from report_common import med, settled

runs = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["scene"], r["n"], r["friction"], r.get("rolling", 0), r["engine"])].append(r)






order = {"ours": 0, "avian": 1, "rapier": 2}
print("| scene | N | μ | rolling | engine | angle of repose ° | late-half median ms | worst ms | settled | KE at end | deepest overlap / r |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for key in sorted(runs, key=lambda k: (k[0], k[1], k[2], k[3], order[k[4]])):
    scene, n, mu, roll, engine = key
    rs = runs[key]
    angle = med(rs, "repose_deg")
    angle = f"{angle:.1f}" if angle is not None else "—"
    print(f"| {scene} | {n} | {mu} | {roll} | {engine} | {angle} | {med(rs, 'ms_late_median'):.3f} | "
          f"{med(rs, 'ms_worst'):.2f} | {settled(rs)} | {med(rs, 'ke_end'):.3g} | {med(rs, 'max_overlap_over_r'):.4f} |")
