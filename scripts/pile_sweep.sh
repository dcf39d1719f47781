#!/usr/bin/env bash
# The jittered pile at eight sizes around 2000 (1500–2700) on ours / avian2d /
# bevy_rapier2d, 600 steps (10 s) each, 2 compute-pool threads, engines alternating (the
# order rotates with the size). When a pile of frictionless disks falls asleep is chaotic
# (a change of gravity in the 8th digit moves it by seconds, in every engine), and the
# late-half median measures mostly sleeping or mostly awake steps depending on it: one
# size is one draw. This sweep shows the spread.
# Writes results/pile_sweep.jsonl (one line per run) and results/pile_sweep.md.
#
#   bash scripts/pile_sweep.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out=results/pile_sweep.jsonl
: > "$out"
orders=("ours avian rapier" "avian rapier ours" "rapier ours avian")
k=0
for n in 1500 1700 1900 2000 2100 2300 2500 2700; do
    for engine in ${orders[$((k % 3))]}; do
        echo "$engine pile n=$n" >&2
        "$bin" --engine "$engine" --scene pile --n "$n" --steps 600 --threads 2 | tee -a "$out"
    done
    k=$((k + 1))
done
python3 scripts/pile_sweep_report.py "$out" > results/pile_sweep.md
cat results/pile_sweep.md
