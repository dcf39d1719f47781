"""Table of the pile sweep: per size, each engine's late-half median (ms) and when the
pile settled (KE below 1e-6 N m g r for good; "—" if not within the 10 s), the faster
peer's late median over ours; then, over the sizes, the median late median, how many
settled, the median settle time and the geometric mean of the ratio."""
import json
import math
import statistics
import sys

runs = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["n"], r["engine"])] = r

engines = ("ours", "avian", "rapier")
sizes = sorted({n for n, _ in runs})
head = " | ".join(f"{e} ms | {e} settled" for e in engines)
print(f"| N | {head} | faster peer / ours |")
print("|---|" + "---|" * (2 * len(engines) + 1))
ratios = []
for n in sizes:
    cells = []
    for e in engines:
        r = runs.get((n, e))
        if r is None:
            cells += ["", ""]
            continue
        s = r["settled_at_s"]
        cells += [f"{r['ms_late_median']:.3f}", f"{s:.2f} s" if s is not None else "—"]
    peers = [runs[(n, e)]["ms_late_median"] for e in ("avian", "rapier") if (n, e) in runs]
    ratio = min(peers) / runs[(n, "ours")]["ms_late_median"] if peers and (n, "ours") in runs else None
    if ratio:
        ratios.append(ratio)
    print(f"| {n} | " + " | ".join(cells) + (f" | {ratio:.2f}× |" if ratio else " | |"))
cells = []
for e in engines:
    rs = [runs[(n, e)] for n in sizes if (n, e) in runs]
    settled = [r["settled_at_s"] for r in rs if r["settled_at_s"] is not None]
    med_ms = statistics.median(r["ms_late_median"] for r in rs) if rs else float("nan")
    med_s = f"{statistics.median(settled):.2f} s" if settled else "—"
    cells += [f"{med_ms:.3f}", f"{len(settled)}/{len(rs)}, median {med_s}"]
geo = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")
print(f"| all sizes (medians) | " + " | ".join(cells) + f" | {geo:.2f}× (geometric mean) |")
