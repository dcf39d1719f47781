#!/usr/bin/env bash
# A side-view horde under gravity: the jittered pile of DESIGN §5 whose circles are given
# a horizontal velocity of −4 units/s before every step, their vertical velocity kept
# (`--scene march`: they walk into the left wall and pile up against it), 1000 and 2000
# circles at the scene's restitution (0.2) and at restitution 1 (our plugin's
# default); and the same pile of which a fifth of the circles walk so, shoving the
# others (`--scene walkers`: walkers and crates), 1000 and 2000 at 0.2, 1000 at 1. 600
# steps, on ours / avian2d / bevy_rapier2d. Three repetitions, engines alternating (the
# order rotates each repetition), 2 compute-pool threads each. Writes
# results/horde.jsonl (one line per run) and results/horde.md (medians, the dense
# matrix's table; the elastic runs under "march_e1" and "walkers_e1").
#
#   bash scripts/horde_matrix.sh
#   RUNS="walkers:1000:0.2" OUT=results/walkers.jsonl bash scripts/horde_matrix.sh   # a subset
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out="${OUT:-results/horde.jsonl}"
: > "$out"
runs="${RUNS:-march:1000:0.2 march:2000:0.2 march:1000:1 march:2000:1 walkers:1000:0.2 walkers:2000:0.2 walkers:1000:1}"
orders=("ours avian rapier" "avian rapier ours" "rapier ours avian")
for rep in 0 1 2; do
    for run in $runs; do
        IFS=: read -r scene n e <<< "$run"
        for engine in ${orders[$rep]}; do
            echo "rep $rep: $engine $scene n=$n restitution $e" >&2
            line=$("$bin" --engine "$engine" --scene "$scene" --n "$n" --steps 600 --threads 2 --restitution "$e")
            if [ "$e" = "1" ]; then
                line=${line/\"scene\":\"$scene\"/\"scene\":\"${scene}_e1\"}
            fi
            echo "$line" | tee -a "$out"
        done
    done
done
{
    echo "Side-view steering under gravity (a horde walked into a wall; walkers shoving a pile), \`bash scripts/horde_matrix.sh\`:"
    echo
    python3 scripts/dense_report.py "$out"
} > "${out%.jsonl}.md"
cat "${out%.jsonl}.md"
