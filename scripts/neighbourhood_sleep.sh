#!/usr/bin/env bash
# Opt-in sleeping by neighbourhood (`sleep_by_neighbourhood`) against the default (whole
# islands) and bevy_rapier2d, through the plugin: the jittered piles of 2000 and 10,000,
# 600 steps, 2 compute-pool threads, 3 repetitions with the three runs alternating.
# Writes results/neighbourhood_sleep.jsonl (the engine field of the opt-in runs is
# "ours-neighbourhood") and results/neighbourhood_sleep.md.
#
#   bash scripts/neighbourhood_sleep.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out=results/neighbourhood_sleep.jsonl
: > "$out"
for rep in 1 2 3; do
    for n in 2000 10000; do
        for run in ours neighbourhood rapier; do
            echo "rep $rep: $run pile n=$n" >&2
            case $run in
                neighbourhood)
                    SLEEP_BY_NEIGHBOURHOOD=1 "$bin" --engine ours --scene pile --n "$n" --steps 600 --threads 2 \
                        | sed 's/"engine":"ours"/"engine":"ours-neighbourhood"/' | tee -a "$out" ;;
                *)
                    "$bin" --engine "$run" --scene pile --n "$n" --steps 600 --threads 2 | tee -a "$out" ;;
            esac
        done
    done
done
python3 scripts/neighbourhood_sleep_report.py "$out" > results/neighbourhood_sleep.md
cat results/neighbourhood_sleep.md
