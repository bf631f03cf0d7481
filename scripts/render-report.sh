#!/usr/bin/env bash
# Screenshot of an HTML report (or any page) with headless Chromium, to look at a report as a
# reader would, or to attach it to a note. Installs Debian's chromium if it is missing.
#
#   scripts/render-report.sh REPORT.html OUT.png [WIDTH] [HEIGHT]
#
# The height defaults to a guess from the report's size (charts are about 700 px each);
# Chromium cuts the page at the window height.
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 REPORT.html OUT.png [WIDTH] [HEIGHT]" >&2
    exit 2
fi
report=$1
out=$2
width=${3:-1400}
if [ ! -f "$report" ]; then
    echo "$0: $report: no such file" >&2
    exit 2
fi

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "$0: installing chromium (apt-get)" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
    browser=$(command -v chromium)
fi

if [ $# -ge 4 ]; then
    height=$4
else
    # Figures, tables and text: about 750 px per figure plus 40 px per table row.
    figures=$(grep -o '<figure>' "$report" | wc -l)
    rows=$(grep -o '<tr>' "$report" | wc -l)
    height=$((600 + figures * 760 + rows * 40))
fi

abs=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")
out_abs=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
"$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars \
    --screenshot="$out_abs" --window-size="$width,$height" "file://$abs" 2>/dev/null
[ -s "$out_abs" ] || { echo "$0: chromium wrote no screenshot" >&2; exit 1; }
echo "$out_abs (${width}x${height})"
