#!/usr/bin/env bash
# A kinematic bulldozer sliding along the floor of a pile (`--scene pile_dozer`): the
# jittered pile of DESIGN §5 (2000 circles) with a kinematic circle of radius 2 (4 radii)
# driven at 4 units/s along the floor from the left wall to the right one and back (the
# circles it would overlap at the start left out), 600 steps, on ours / avian2d /
# bevy_rapier2d. Three repetitions, engines alternating (the order rotates each
# repetition), 2 compute-pool threads each. Writes results/pile_dozer.jsonl and
# results/pile_dozer.md (medians, the dense matrix's table).
#
#   bash scripts/pile_dozer_matrix.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out="${OUT:-results/pile_dozer.jsonl}"
: > "$out"
orders=("ours avian rapier" "avian rapier ours" "rapier ours avian")
for rep in 0 1 2; do
    for engine in ${orders[$rep]}; do
        echo "rep $rep: $engine pile_dozer n=2000" >&2
        "$bin" --engine "$engine" --scene pile_dozer --n 2000 --steps 600 --threads 2 | tee -a "$out"
    done
done
{
    echo "A kinematic bulldozer sliding along the floor of a pile, \`bash scripts/pile_dozer_matrix.sh\`:"
    echo
    python3 scripts/dense_report.py "$out"
} > "${out%.jsonl}.md"
cat "${out%.jsonl}.md"
