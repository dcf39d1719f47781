#!/usr/bin/env bash
# Runs the inspector under a virtual display with Mesa's software Vulkan driver, saves a
# screenshot through Bevy for the gas, pile and rough_pile presets into docs/, and fails
# if the app crashed or a picture is blank (the inspector checks its own screenshot and exits
# non-zero); then drives it with synthetic clicks and wheel turns
# (scripts/drive_inspector.sh). Installs what it needs (Debian packages) when missing.
#
#   bash scripts/screenshot.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs}"
mkdir -p "$out"

need=()
command -v xvfb-run >/dev/null || need+=(xvfb xauth)
command -v xdotool >/dev/null || need+=(xdotool)
[ -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] || need+=(mesa-vulkan-drivers)
# The library listing is read once: `ldconfig -p | grep -q` under pipefail fails when
# grep stops reading early (ldconfig gets SIGPIPE), which took a present library for a
# missing one.
libs=$(ldconfig -p)
for pair in libvulkan.so.1:libvulkan1 libxkbcommon-x11.so.0:libxkbcommon-x11-0 \
    libXcursor.so.1:libxcursor1 libXrandr.so.2:libxrandr2 libXi.so.6:libxi6 \
    libX11-xcb.so.1:libx11-xcb1; do
    grep -qF "${pair%%:*}" <<< "$libs" || need+=("${pair##*:}")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

cargo build --release --example inspector
bin="${CARGO_TARGET_DIR:-target}/release/examples/inspector"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
for preset in gas pile rough_pile; do
    echo "inspector: $preset"
    timeout 600 xvfb-run -a -s "-screen 0 1500x1000x24" "$bin" \
        --preset "$preset" --screenshot "$out/inspector_$preset.png" --frames 150
    test -s "$out/inspector_$preset.png"
done
echo "inspector: driven by synthetic input"
timeout 600 xvfb-run -a -s "-screen 0 1500x1000x24" bash scripts/drive_inspector.sh "$bin"
echo "screenshots in $out/"
