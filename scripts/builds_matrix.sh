#!/usr/bin/env bash
# Two builds of ours side by side with the peers: the peer runner built from this tree
# (NEW, default target/release/circle_collide_bench) and from another commit (BASE: the
# path of a runner built there), each scene of RUNS on new / base / rapier / avian, 600
# steps at restitution 0.2, 2 compute-pool threads, three repetitions with the order
# rotating. Writes OUT (default results/builds.jsonl: the runner's JSON lines with a
# "build" field) and prints the medians (scripts/builds_report.py).
#
#   git worktree add /tmp/base <commit> && (cd /tmp/base && cargo build --release -p circle_collide_bench)
#   BASE=/tmp/base/target/release/circle_collide_bench RUNS="walkers:2000 pile_dozer:2000" bash scripts/builds_matrix.sh
#
# Two worktrees sharing one CARGO_TARGET_DIR: touch the second one's sources before its
# build (cargo hashes path crates relative to the workspace, so it may reuse the first's).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BASE:?BASE: the path of the runner built from the other commit}"
cargo build --release -p circle_collide_bench
new="${NEW:-${CARGO_TARGET_DIR:-target}/release/circle_collide_bench}"
out="${OUT:-results/builds.jsonl}"
runs="${RUNS:-walkers:1000 walkers:2000 pile_dozer:2000}"
mkdir -p "$(dirname "$out")"
: > "$out"
orders=("new base rapier avian" "base rapier avian new" "rapier avian new base")
for rep in 0 1 2; do
    for run in $runs; do
        IFS=: read -r scene n <<< "$run"
        for build in ${orders[$rep]}; do
            case $build in
                new) bin=$new engine=ours ;;
                base) bin=$BASE engine=ours ;;
                *) bin=$new engine=$build ;;
            esac
            echo "rep $rep: $build $scene n=$n" >&2
            line=$("$bin" --engine "$engine" --scene "$scene" --n "$n" --steps 600 --threads 2 --restitution 0.2)
            echo "{\"build\":\"$build\",${line#\{}" | tee -a "$out"
        done
    done
done
python3 scripts/builds_report.py "$out"
