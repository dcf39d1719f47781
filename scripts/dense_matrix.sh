#!/usr/bin/env bash
# Dense-contact matrix (issue "Dense contact"): the jittered pile (2000, 10000) and the
# steered crowd (500, 2000, 10000; the 10000 over 300 steps, its jam forming, and 600,
# its jam grown) of DESIGN §5, the same crowd steered against a wall (2000, 10000), plus
# the gas 10k as a check that the gas
# did not get slower, on ours / avian2d / bevy_rapier2d. Three repetitions, engines
# alternating (the order rotates each repetition), 2 compute-pool threads each.
# Writes results/dense.jsonl (one line per run) and results/dense.md (medians).
#
#   bash scripts/dense_matrix.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out=results/dense.jsonl
: > "$out"
runs="pile:2000:600 pile:10000:600 crowd:500:600 crowd:2000:600 crowd:10000:300 crowd:10000:600 wall_crowd:2000:600 wall_crowd:10000:600 gas:10000:120"
orders=("ours avian rapier" "avian rapier ours" "rapier ours avian")
for rep in 0 1 2; do
    for run in $runs; do
        IFS=: read -r scene n steps <<< "$run"
        for engine in ${orders[$rep]}; do
            echo "rep $rep: $engine $scene n=$n steps=$steps" >&2
            "$bin" --engine "$engine" --scene "$scene" --n "$n" --steps "$steps" --threads 2 | tee -a "$out"
        done
    done
done
python3 scripts/dense_report.py "$out" > results/dense.md
cat results/dense.md
