#!/usr/bin/env bash
# A sleeping pile beside one awake body, side by side: the jittered pile (DESIGN §5) with
# friction 0.5 on every circle (it falls asleep on all three engines within ~7 s), run
# for 20 s; with the runner's `--spinner` a kinematic circle spins in the arena's top
# right corner, touching nothing, so the late half (10-20 s) measures a sleeping world
# beside one awake body (ours cannot skip those steps as idle); without it, a world
# where everything sleeps. Engines alternate (the order rotates each repetition), 2
# compute-pool threads each. Writes results/asleep.jsonl (one line per run) and
# results/asleep.md (medians).
#
#   bash scripts/asleep_matrix.sh [REPETITIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out=results/asleep.jsonl
: > "$out"
# n:steps:spinner (1: --spinner)
runs="2000:1200:1 2000:1200:0 10000:1200:1 10000:1200:0"
orders=("ours avian rapier" "avian rapier ours" "rapier ours avian")
for rep in $(seq 0 $((reps - 1))); do
    for run in $runs; do
        IFS=: read -r n steps spin <<< "$run"
        flag=""
        [ "$spin" = 1 ] && flag="--spinner"
        for engine in ${orders[$((rep % 3))]}; do
            echo "rep $rep: $engine pile n=$n steps=$steps friction=0.5 spinner=$spin" >&2
            "$bin" --engine "$engine" --scene pile --n "$n" --steps "$steps" --threads 2 \
                --friction 0.5 $flag | sed "s/}\$/,\"spinner\":$spin}/" | tee -a "$out"
        done
    done
done
python3 scripts/asleep_report.py "$out" > results/asleep.md
cat results/asleep.md
