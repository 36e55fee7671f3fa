#!/usr/bin/env bash
# vsym-report's index.html renders in headless Chromium: a screenshot of the page of a
# hand-made run (sweep_fixture.py) is 1200x2000, not blank, and shows the charts (pixels of the
# first series' colour). Skips (77) when chromium is not installed, unless VSYM_STRICT=1.
# Install it with: launch/install-deps --report
#   sweep_screenshot.sh SOURCE_DIR [KEEP.png]   (KEEP: where to copy the screenshot)
set -u
src="${1:?usage: sweep_screenshot.sh SOURCE_DIR [KEEP.png]}"
keep="${2:-}"
browser=""
for b in chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null && { browser=$b; break; }
done
if [ -z "$browser" ]; then
    echo "SKIP: chromium is not installed (launch/install-deps --report installs it)"
    [ "${VSYM_STRICT:-0}" = 1 ] && exit 1
    exit 77
fi
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$src/conformance/unit/sweep_fixture.py" run "$tmp/run" || exit 1
"$src/results/vsym-report" "$tmp/run" --quiet 2>/dev/null || { echo "FAIL: vsym-report"; exit 1; }
# A profile of its own, no network, no background services: the page is a local file.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" --screenshot="$tmp/shot.png" --window-size=1200,2000 \
    "file://$tmp/run/report/index.html" > "$tmp/chromium.log" 2>&1
rc=$?
if [ $rc != 0 ] || [ ! -s "$tmp/shot.png" ]; then
    echo "FAIL: $browser exit $rc, no screenshot: $(tail -5 "$tmp/chromium.log")"
    exit 1
fi
[ -n "$keep" ] && cp "$tmp/shot.png" "$keep"
# gnuplot's first line colour (#9400d3) must show: the charts were loaded and drawn.
python3 "$src/conformance/unit/sweep_png.py" "$tmp/shot.png" 1200 2000 148,0,211 || exit 1
echo "sweep_screenshot: the page renders"
