#!/usr/bin/env bash
# The steered crowd of DESIGN §5 at restitution 1 (circles and walls): a top-down crowd
# left at our plugin's default restitution. Crowds of 500 and 2000 at the centre and
# 2000 against the left wall, 600 steps, on ours / avian2d / bevy_rapier2d (the peers
# get restitution 1 with the `Max` rule, as in the dense matrix). Three repetitions,
# engines alternating (the order rotates each repetition), 2 compute-pool threads each.
# Writes results/elastic_crowd.jsonl (one line per run) and results/elastic_crowd.md
# (medians, the dense matrix's table).
#
#   bash scripts/elastic_crowd.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out=results/elastic_crowd.jsonl
: > "$out"
runs="crowd:500:600 crowd:2000:600 wall_crowd:2000:600"
orders=("ours avian rapier" "avian rapier ours" "rapier ours avian")
for rep in 0 1 2; do
    for run in $runs; do
        IFS=: read -r scene n steps <<< "$run"
        for engine in ${orders[$rep]}; do
            echo "rep $rep: $engine $scene n=$n steps=$steps, restitution 1" >&2
            "$bin" --engine "$engine" --scene "$scene" --n "$n" --steps "$steps" --threads 2 \
                --restitution 1 | tee -a "$out"
        done
    done
done
{
    echo "Steered crowds at restitution 1 (circles and walls), \`bash scripts/elastic_crowd.sh\`:"
    echo
    python3 scripts/dense_report.py "$out"
} > results/elastic_crowd.md
cat results/elastic_crowd.md
