#!/usr/bin/env bash
# What a looser overlap tolerance buys, through the plugin: ours at the default
# `overlap_slop` (0.01 of the smaller radius) and at 0.03 and 0.05 (`--slop`), beside
# bevy_rapier2d (the faster peer on these scenes; it has no such setting and keeps its
# defaults): the walkers of 1000 and 2000 (a fifth of the jittered pile walks left,
# shoving the rest), the march of 2000 (all of it walks), the crowds of 2000 steered to
# the centre and against the left wall. 600 steps, 2 compute-pool threads, three
# repetitions, the runs alternating (the order rotates each repetition). Writes
# results/slop.jsonl (the engine field of the looser runs is "ours-slop0.03" /
# "ours-slop0.05") and results/slop.md. `SCENES` ("scene:n ...") runs other scenes and
# `OUT` writes elsewhere (the .md beside the .jsonl), e.g. the bulldozer under a pile:
#
#   bash scripts/slop_matrix.sh
#   SCENES=pile_dozer:2000 OUT=results/slop_pile_dozer.jsonl bash scripts/slop_matrix.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p circle_collide_bench
bin="${CARGO_TARGET_DIR:-target}/release/circle_collide_bench"
mkdir -p results
out="${OUT:-results/slop.jsonl}"
: > "$out"
scenes="${SCENES:-walkers:1000 walkers:2000 march:2000 crowd:2000 wall_crowd:2000}"
orders=("0.01 0.03 0.05 rapier" "0.03 0.05 rapier 0.01" "0.05 rapier 0.01 0.03")
for rep in 0 1 2; do
    for run in $scenes; do
        IFS=: read -r scene n <<< "$run"
        for what in ${orders[$rep]}; do
            echo "rep $rep: $what $scene n=$n" >&2
            case $what in
                rapier)
                    "$bin" --engine rapier --scene "$scene" --n "$n" --steps 600 --threads 2 | tee -a "$out" ;;
                0.01)
                    "$bin" --engine ours --scene "$scene" --n "$n" --steps 600 --threads 2 | tee -a "$out" ;;
                *)
                    "$bin" --engine ours --scene "$scene" --n "$n" --steps 600 --threads 2 --slop "$what" \
                        | sed "s/\"engine\":\"ours\"/\"engine\":\"ours-slop$what\"/" | tee -a "$out" ;;
            esac
        done
    done
done
python3 scripts/slop_report.py "$out" > "${out%.jsonl}.md"
cat "${out%.jsonl}.md"
