#!/usr/bin/env bash
# Runs the peer matrix: gas and pile × N in {1k, 10k, 100k} × {ours, avian, rapier},
# three repetitions, engines alternating (the order rotates every repetition), 2 compute-pool
# threads for every engine (bevy_circle_collide::task_pool_options(2)).
# Writes results/peers.jsonl (one line per run), results/peers.csv (medians over the
# repetitions), results/peers.svg (plot) and results/peers.md (table), with the machine.
#
#   bash scripts/peer_matrix.sh            # full matrix
#   QUICK=1 bash scripts/peer_matrix.sh    # 1k and 10k only
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out=results/peers.jsonl
: > "$out"
sizes="1000:300 10000:120 100000:30"
[ -n "${QUICK:-}" ] && sizes="1000:300 10000:120"
orders=("ours avian rapier" "avian rapier ours" "rapier ours avian")
for rep in 0 1 2; do
    for scene in gas pile; do
        for size in $sizes; do
            n=${size%%:*}; steps=${size##*:}
            for engine in ${orders[$rep]}; do
                echo "rep $rep: $engine $scene n=$n steps=$steps" >&2
                "$bin" --engine "$engine" --scene "$scene" --n "$n" --steps "$steps" --threads 2 | tee -a "$out"
            done
        done
    done
done
# Baseline for memory: an empty app of each engine.
: > results/peers_empty.jsonl
for engine in ours avian rapier; do
    "$bin" --engine "$engine" --scene gas --n 0 --steps 10 --threads 2 >> results/peers_empty.jsonl
done
python3 scripts/peer_report.py results
