#!/usr/bin/env python3
"""Summarises results/peers.jsonl: medians over repetitions per (engine, scene, n) into
peers.csv, a markdown table with ratios against the faster peer into peers.md, and a
log-log plot of ms/step against N into peers.svg. Standard library only."""
import json, os, platform, statistics, sys, datetime

d = sys.argv[1] if len(sys.argv) > 1 else "results"
runs = [json.loads(l) for l in open(os.path.join(d, "peers.jsonl")) if l.strip()]
empty = {}
p = os.path.join(d, "peers_empty.jsonl")
if os.path.exists(p):
    for l in open(p):
        if l.strip():
            r = json.loads(l)
            empty[r["engine"]] = r.get("peak_rss_kb")

cells = {}
for r in runs:
    cells.setdefault((r["engine"], r["scene"], r["n"]), []).append(r)

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None

rows = []
for (engine, scene, n), rs in sorted(cells.items(), key=lambda k: (k[0][1], k[0][2], k[0][0])):
    rss = med([r.get("peak_rss_kb") for r in rs])
    base = empty.get(engine)
    rows.append({
        "engine": engine, "scene": scene, "n": n, "steps": rs[0]["steps"], "reps": len(rs),
        "ms_median": med([r["ms_per_step_median"] for r in rs]),
        "ms_mean": med([r["ms_per_step_mean"] for r in rs]),
        "ke_ratio": med([r["ke_ratio"] for r in rs]),
        "max_overlap_over_r": max(r["max_overlap_over_r"] for r in rs),
        "escaped": max(r["escaped"] for r in rs),
        "bytes_per_circle": (rss - base) * 1024 / n if rss and base and n else None,
    })

with open(os.path.join(d, "peers.csv"), "w") as f:
    keys = list(rows[0].keys())
    f.write(",".join(keys) + "\n")
    for r in rows:
        f.write(",".join("" if r[k] is None else str(r[k]) for k in keys) + "\n")

cpu = "unknown CPU"
try:
    for l in open("/proc/cpuinfo"):
        if l.startswith("model name"):
            cpu = l.split(":", 1)[1].strip()
            break
except OSError:
    pass
machine = f"{cpu}, {os.cpu_count()} cores, {platform.system()}, {datetime.date.today()}; 2 compute-pool threads (task_pool_options(2))"

def fmt(x, spec):
    return "—" if x is None else format(x, spec)

by = {(r["engine"], r["scene"], r["n"]): r for r in rows}
lines = [f"Machine: {machine}. Medians over {max(r['reps'] for r in rows)} repetitions.", "",
         "| scene | N | steps | ours ms/step | avian2d | bevy_rapier2d | ours vs faster peer | KE kept ours / avian / rapier | deepest overlap / r ours / avian / rapier | escaped | bytes per circle ours / avian / rapier |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]
for scene in ("gas", "pile"):
    for n in sorted({r["n"] for r in rows if r["scene"] == scene}):
        o, a, rp = (by.get((e, scene, n)) for e in ("ours", "avian", "rapier"))
        if not o:
            continue
        peers = [x["ms_median"] for x in (a, rp) if x]
        ratio = f"{min(peers) / o['ms_median']:.1f}× faster" if peers and o["ms_median"] else "—"
        g = lambda x, k, s: fmt(x[k], s) if x else "—"
        lines.append(
            f"| {scene} | {n} | {o['steps']} | {o['ms_median']:.3f} | {g(a,'ms_median','.3f')} | {g(rp,'ms_median','.3f')} | {ratio} | "
            f"{g(o,'ke_ratio','.0%')} / {g(a,'ke_ratio','.0%')} / {g(rp,'ke_ratio','.0%')} | "
            f"{g(o,'max_overlap_over_r','.3f')} / {g(a,'max_overlap_over_r','.3f')} / {g(rp,'max_overlap_over_r','.3f')} | "
            f"{g(o,'escaped','d')} / {g(a,'escaped','d')} / {g(rp,'escaped','d')} | "
            f"{g(o,'bytes_per_circle','.0f')} / {g(a,'bytes_per_circle','.0f')} / {g(rp,'bytes_per_circle','.0f')} |")
open(os.path.join(d, "peers.md"), "w").write("\n".join(lines) + "\n")

# Log-log plot: ms/step against N, one line per engine and scene.
import math
W, H, L, B = 720, 420, 70, 50
ns = sorted({r["n"] for r in rows})
ms = [r["ms_median"] for r in rows if r["ms_median"]]
x0, x1 = math.log10(min(ns)), math.log10(max(ns)) + 1e-9
y0, y1 = math.floor(math.log10(min(ms))), math.ceil(math.log10(max(ms)))
X = lambda n: L + (math.log10(n) - x0) / (x1 - x0) * (W - L - 20)
Y = lambda m: H - B - (math.log10(m) - y0) / (y1 - y0) * (H - B - 30)
colors = {"ours": "#d62728", "avian": "#1f77b4", "rapier": "#2ca02c"}
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{L}" y="18" font-size="14">ms per step (median) vs circles, 2 compute threads — solid: gas, dashed: pile</text>']
for e in range(int(y0), int(y1) + 1):
    y = Y(10 ** e)
    svg.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W-20}" y2="{y:.1f}" stroke="#ddd"/><text x="{L-8}" y="{y+4:.1f}" text-anchor="end">{10**e:g}</text>')
for n in ns:
    svg.append(f'<line x1="{X(n):.1f}" y1="{H-B}" x2="{X(n):.1f}" y2="30" stroke="#eee"/><text x="{X(n):.1f}" y="{H-B+16}" text-anchor="middle">{n:,}</text>')
for k, (engine, col) in enumerate(colors.items()):
    for scene, dash in (("gas", ""), ("pile", ' stroke-dasharray="6 4"')):
        pts = [(X(r["n"]), Y(r["ms_median"])) for r in rows if r["engine"] == engine and r["scene"] == scene and r["ms_median"]]
        if pts:
            svg.append(f'<polyline fill="none" stroke="{col}" stroke-width="2"{dash} points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}"/>')
            svg += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{col}"/>' for x, y in pts]
    svg.append(f'<rect x="{L+10}" y="{40+18*k}" width="12" height="4" fill="{col}"/><text x="{L+28}" y="{46+18*k}">{ {"ours":"bevy_circle_collide","avian":"avian2d 0.7","rapier":"bevy_rapier2d 0.36"}[engine] }</text>')
svg.append(f'<text x="{W/2}" y="{H-10}" text-anchor="middle" fill="#555">{machine}</text></svg>')
open(os.path.join(d, "peers.svg"), "w").write("\n".join(svg))
print("\n".join(lines))
