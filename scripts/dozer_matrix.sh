#!/usr/bin/env bash
# A kinematic bulldozer (a circle of radius 2, 4 radii; each engine's own kinematic body)
# in one of two runner scenes, on ours / avian2d / bevy_rapier2d, 600 steps:
#   SCENE=dozer (default): ploughing through a top-down crowd — the crowd of DESIGN §5
#     steered toward its centre at 4 units/s before every step, the bulldozer driven at
#     8 units/s from the middle of the left wall to the right one and back, through the
#     crowd's centre at every crossing; 2000 and 10,000 circles, and ours at
#     `overlap_slop` 0.05 too (tagged "dozer_slop05").
#   SCENE=pile_dozer: sliding along the floor of a pile — the jittered pile of DESIGN §5
#     (2000 circles), the bulldozer driven at 4 units/s along the floor from the left wall
#     to the right one and back (the circles it would overlap at the start left out).
# Three repetitions, engines alternating (the order rotates each repetition), 2
# compute-pool threads each. Writes results/<scene>.jsonl (one line per run, or OUT) and
# the .md beside it (medians, the dense matrix's table).
#
#   bash scripts/dozer_matrix.sh
#   SCENE=pile_dozer bash scripts/dozer_matrix.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scene="${SCENE:-dozer}"
case "$scene" in
    dozer)
        sizes=(2000 10000)
        engines=(ours avian rapier loose)
        title="A kinematic bulldozer through a steered crowd, \`bash scripts/dozer_matrix.sh\`:"
        ;;
    pile_dozer)
        sizes=(2000)
        engines=(ours avian rapier)
        title="A kinematic bulldozer sliding along the floor of a pile, \`SCENE=pile_dozer bash scripts/dozer_matrix.sh\`:"
        ;;
    *)
        echo "SCENE must be dozer or pile_dozer" >&2
        exit 2
        ;;
esac
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out="${OUT:-results/$scene.jsonl}"
: > "$out"
count=${#engines[@]}
for rep in 0 1 2; do
    for n in "${sizes[@]}"; do
        for k in $(seq 0 $((count - 1))); do
            engine=${engines[$(((k + rep) % count))]}
            echo "rep $rep: $engine $scene n=$n" >&2
            if [ "$engine" = "loose" ]; then
                line=$("$bin" --engine ours --scene "$scene" --n "$n" --steps 600 --threads 2 --slop 0.05)
                line=${line/\"scene\":\"$scene\"/\"scene\":\"${scene}_slop05\"}
            else
                line=$("$bin" --engine "$engine" --scene "$scene" --n "$n" --steps 600 --threads 2)
            fi
            echo "$line" | tee -a "$out"
        done
    done
done
{
    echo "$title"
    echo
    python3 scripts/dense_report.py "$out"
} > "${out%.jsonl}.md"
cat "${out%.jsonl}.md"
