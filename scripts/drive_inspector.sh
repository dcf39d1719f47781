#!/usr/bin/env bash
# Drives the inspector with synthetic input (xdotool) on the current X display (run it
# under xvfb-run; scripts/screenshot.sh does) and checks what the inspector reports
# (`--report`): a left click on a circle selects that circle; the wheel over either
# panel, and over the energy plot, leaves the world view and the plot's range as they
# were; the wheel over the world zooms it (so the view check can fail); a click on the
# default-friction slider sets the world's friction; and while nobody touches a widget the
# panel leaves the configuration and the selected circle unchanged (a change wakes every
# sleeping body; a write ends idle steps).
#
#   bash scripts/drive_inspector.sh INSPECTOR_BINARY
set -euo pipefail
bin=$1
report=$(mktemp -u)
"$bin" --preset billiards --paused --report "$report" &
app=$!
trap 'kill "$app" 2>/dev/null || true; rm -f "$report"' EXIT

field() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$report"; }
frame() { if [ -s "$report" ]; then field frame; else echo 0; fi; }
fail() { echo "drive_inspector: $*" >&2; exit 1; }
# Waits until the inspector has drawn `$1` more frames (it is alive and reporting).
wait_frames() {
    local until=$(($(frame) + $1))
    for _ in $(seq 1200); do
        kill -0 "$app" 2>/dev/null || fail "the inspector exited"
        [ "$(frame)" -ge "$until" ] && return 0
        sleep 0.1
    done
    fail "the inspector stopped drawing at frame $(frame)"
}

wait_frames 30 # the window is up and the camera fits the table
wid=$(xdotool search --sync --name "bevy_circle_collide inspector" | head -1)
read -r target x y <<< "$(field target)"
xdotool mousemove --window "$wid" "${x%.*}" "${y%.*}" click 1
wait_frames 5
selected=$(field selected)
[ "$selected" = "$target" ] || fail "a click on circle $target at ($x, $y) selected $selected"
# Shown in the editor, the selected circle is not written while nobody edits it (time is
# paused: only the panel could write it).
body_writes=$(field body_writes)
wait_frames 10
[ "$(field body_writes)" = "$body_writes" ] ||
    fail "the selection editor wrote the circle in frames nobody touched it ($body_writes -> $(field body_writes))"

before=$(field camera)
read -r px py range_before <<< "$(field plot)"
for at in "150 500" "1350 500" "${px%.*} ${py%.*}"; do # left panel, right panel, the plot
    # shellcheck disable=SC2086
    xdotool mousemove --window "$wid" $at
    for _ in $(seq 5); do xdotool click 5; done
    for _ in $(seq 3); do xdotool click 4; done
done
wait_frames 5
after=$(field camera)
[ "$before" = "$after" ] || fail "the wheel over the panels moved the view: $before -> $after"
read -r _ _ range_after <<< "$(field plot)"
[ "$range_before" = "$range_after" ] ||
    fail "the wheel over the energy plot changed its range: $range_before -> $range_after"

xdotool mousemove --window "$wid" 750 500
for _ in $(seq 3); do xdotool click 4; done
wait_frames 5
zoomed=$(field camera)
[ "$zoomed" != "$after" ] || fail "the wheel over the world did not zoom ($zoomed)"
read -r mu left right sy <<< "$(field friction)"
[ "$mu" = "0" ] || fail "the billiards preset starts with default friction $mu, not 0"
# A quarter of the way along the slider (the value box is at its right end).
sx=$(awk -v l="$left" -v r="$right" 'BEGIN { print int(l + 0.25 * (r - l)) }')
# Held for a few frames: egui sets a slider while the button is down on it.
xdotool mousemove --window "$wid" "$sx" "${sy%.*}" mousedown 1
wait_frames 3
xdotool mouseup 1
wait_frames 5
read -r mu _ <<< "$(field friction)"
awk -v m="$mu" 'BEGIN { exit !(m > 0.05 && m < 2) }' ||
    fail "a click on the friction slider at ($sx, $sy) left the default friction at $mu"
# Nothing touched now: the panel must not write the configuration again.
writes=$(field config_writes)
wait_frames 10
[ "$(field config_writes)" = "$writes" ] ||
    fail "the panel changed the configuration in frames nobody touched it ($writes -> $(field config_writes) writes): every sleeping body wakes"
echo "driven: the click selected circle $target; the wheel over the panels kept the view and the plot's range; over the world it zoomed; the friction slider set μ = $mu; the configuration was left alone after (${writes} writes), and the selected circle too"
