"""Table of the dense matrix: per scene, size, number of steps and engine, the medians
over repetitions of the late-half median and mean (runs before the runner reported the
late half's mean: —), the mean step (all steps: what a scene's forming costs shows there)
and the worst step (ms), when the pile settled, the kinetic energy at the end and the
deepest overlap; the last columns are the faster peer's late median over ours and the
same for the late-half means (a peer that blew up — circles escaped the arena in most of
its runs — is marked and left out of them). Steps that alternate between two costs (the
correction every other step) put the median in the dearer half: the mean is what a game
pays over time."""
import json
import sys
from collections import defaultdict

from report_common import med, settled

runs = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["scene"], r["n"], r["steps"], r["engine"])].append(r)


def cell(value, digits):
    return "—" if value is None else f"{value:.{digits}f}"

def blew_up(rs):
    return bool(rs) and 2 * sum(1 for r in rs if r.get("escaped", 0) > 0) > len(rs)

def blown(rs):
    return f" (blew up: {med(rs, 'escaped'):.0f} escaped)" if blew_up(rs) else ""


print("| scene | N | steps | engine | late-half median ms | late-half mean ms | mean ms | worst ms | settled | KE at end | deepest overlap / r | faster peer / ours | same, late means |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for scene, n, steps in sorted({(s, n, t) for s, n, t, _ in runs}):
    ours = med(runs.get((scene, n, steps, "ours"), []), "ms_late_median")
    # A peer that blew up (circles escaped the arena in most of its runs) is no benchmark.
    ours_mean = med(runs.get((scene, n, steps, "ours"), []), "ms_late_mean")
    sound = [e for e in ("avian", "rapier") if not blew_up(runs.get((scene, n, steps, e), []))]
    peers = [med(runs.get((scene, n, steps, e), []), "ms_late_median") for e in sound]
    peers = [p for p in peers if p is not None]
    peer_means = [med(runs.get((scene, n, steps, e), []), "ms_late_mean") for e in sound]
    peer_means = [p for p in peer_means if p is not None]
    for engine in ("ours", "avian", "rapier"):
        rs = runs.get((scene, n, steps, engine))
        if not rs:
            continue
        ratio = f"{min(peers) / ours:.2f}×" if engine == "ours" and ours and peers else ""
        mean_ratio = (f"{min(peer_means) / ours_mean:.2f}×"
                      if engine == "ours" and ours_mean and peer_means else "")
        print(f"| {scene} | {n} | {steps} | {engine} | {med(rs, 'ms_late_median'):.3f} | {cell(med(rs, 'ms_late_mean'), 3)} | "
              f"{med(rs, 'ms_per_step_mean'):.2f} | {med(rs, 'ms_worst'):.2f} | "
              f"{settled(rs) if scene == 'pile' or scene == 'lattice' else '—'} | {med(rs, 'ke_end'):.3g} | "
              f"{med(rs, 'max_overlap_over_r'):.4f}{blown(rs)} | {ratio} | {mean_ratio} |")
