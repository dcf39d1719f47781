#!/usr/bin/env bash
# Friction matrix (issue "Friction and rotation"): the poured heap of 2000 circles of
# radii 0.3-2.0 (scenes::heap) and the jittered pile of 2000 (DESIGN §5), with the same
# Coulomb friction on ours / avian2d / bevy_rapier2d; ours also with rolling resistance
# and at other frictions. Engines alternate (the order rotates each repetition), 2
# compute-pool threads each. Writes results/friction.jsonl (one line per run) and
# results/friction.md (medians).
#
#   bash scripts/friction_matrix.sh [REPETITIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out=results/friction.jsonl
: > "$out"
# scene:n:steps after the start (heap: after the pour):friction:rolling:engines
runs="heap:2000:600:0.5:0:all pile:2000:600:0.5:0:all heap:2000:600:0:0:ours heap:2000:600:0.2:0:ours heap:2000:600:1.0:0:ours heap:2000:600:0.5:0.05:ours"
orders=("ours avian rapier" "avian rapier ours" "rapier ours avian")
for rep in $(seq 0 $((reps - 1))); do
    for run in $runs; do
        IFS=: read -r scene n steps mu roll who <<< "$run"
        engines=${orders[$((rep % 3))]}
        [ "$who" = all ] || engines=$who
        for engine in $engines; do
            echo "rep $rep: $engine $scene n=$n steps=$steps friction=$mu rolling=$roll" >&2
            "$bin" --engine "$engine" --scene "$scene" --n "$n" --steps "$steps" --threads 2 \
                --friction "$mu" --rolling "$roll" | sed "s/}\$/,\"rolling\":$roll}/" | tee -a "$out"
        done
    done
done
python3 scripts/friction_report.py "$out" > results/friction.md
cat results/friction.md
