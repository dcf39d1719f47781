#!/usr/bin/env bash
# A kinematic bulldozer ploughing through a top-down crowd (`--scene dozer`): the crowd of
# DESIGN §5 steered toward its centre at 4 units/s before every step, and a kinematic
# circle of radius 2 (4 radii) driven at 8 units/s from the middle of the left wall to
# the right one and back, through the crowd's centre at every crossing (each engine's
# own kinematic body). 2000 and 10,000 circles, 600 steps, on ours / avian2d /
# bevy_rapier2d, and ours at `overlap_slop` 0.05 (tagged "dozer_slop05"). Three
# repetitions, engines alternating (the order rotates each repetition), 2 compute-pool
# threads each. Writes results/dozer.jsonl (one line per run) and results/dozer.md
# (medians, the dense matrix's table).
#
#   bash scripts/dozer_matrix.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out="${OUT:-results/dozer.jsonl}"
: > "$out"
orders=("ours avian rapier loose" "avian rapier loose ours" "rapier loose ours avian")
for rep in 0 1 2; do
    for n in 2000 10000; do
        for engine in ${orders[$rep]}; do
            echo "rep $rep: $engine dozer n=$n" >&2
            if [ "$engine" = "loose" ]; then
                line=$("$bin" --engine ours --scene dozer --n "$n" --steps 600 --threads 2 --slop 0.05)
                line=${line/\"scene\":\"dozer\"/\"scene\":\"dozer_slop05\"}
            else
                line=$("$bin" --engine "$engine" --scene dozer --n "$n" --steps 600 --threads 2)
            fi
            echo "$line" | tee -a "$out"
        done
    done
done
{
    echo "A kinematic bulldozer through a steered crowd, \`bash scripts/dozer_matrix.sh\`:"
    echo
    python3 scripts/dense_report.py "$out"
} > "${out%.jsonl}.md"
cat "${out%.jsonl}.md"
