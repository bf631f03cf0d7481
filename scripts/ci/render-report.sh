#!/usr/bin/env bash
# Screenshot of an HTML report (or any page) with headless Chromium, to look at a report as a
# reader would, or to attach it to a note; or, with --dom, the page's DOM after loading (what
# the browser parsed). Installs Debian's chromium if it is missing (as root, or with sudo).
# scripts/ci/check-reports.sh uses both to check every committed report.
#
#   scripts/ci/render-report.sh REPORT.html OUT.png [WIDTH] [HEIGHT]
#   scripts/ci/render-report.sh --dom REPORT.html > DOM.html
#
# The height defaults to a guess from the report's size (charts are about 700 px each);
# Chromium cuts the page at the window height. Each call starts a fresh browser profile in a
# temporary directory (removed afterwards), with networking, updates, sync and first-run
# pages off, and stops Chromium after CHROMIUM_TIMEOUT seconds (default 120).
set -euo pipefail

dom=false
if [ "${1:-}" = "--dom" ]; then
    dom=true
    shift
fi
if { $dom && [ $# -ne 1 ]; } || { ! $dom && [ $# -lt 2 ]; }; then
    echo "usage: $0 REPORT.html OUT.png [WIDTH] [HEIGHT]" >&2
    echo "       $0 --dom REPORT.html" >&2
    exit 2
fi
report=$1
if [ ! -f "$report" ]; then
    echo "$0: $report: no such file" >&2
    exit 2
fi

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "$0: installing chromium (apt-get)" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    start=$(date +%s)
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        chromium >/dev/null 2>&1
    echo "$0: chromium installed in $(($(date +%s) - start)) s" >&2
    browser=$(command -v chromium)
fi

profile=$(mktemp -d "${TMPDIR:-/tmp}/render-report.XXXXXX")
trap 'rm -rf "$profile"' EXIT
abs=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")
run_chromium() {
    timeout -k 10 "${CHROMIUM_TIMEOUT:-120}" "$browser" --headless --no-sandbox --disable-gpu \
        --disable-background-networking --disable-component-update --disable-sync \
        --no-first-run --hide-scrollbars --user-data-dir="$profile" "$@" "file://$abs"
}

if $dom; then
    run_chromium --dump-dom 2>/dev/null
    exit
fi

out=$2
width=${3:-1400}
if [ $# -ge 4 ]; then
    height=$4
else
    # Figures, tables and text: about 750 px per figure plus 40 px per table row.
    figures=$(grep -o '<figure>' "$report" | wc -l || true)
    rows=$(grep -o '<tr>' "$report" | wc -l || true)
    height=$((600 + figures * 760 + rows * 40))
fi
out_abs=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
rm -f "$out_abs"
run_chromium --screenshot="$out_abs" --window-size="$width,$height" >/dev/null 2>&1 || true
[ -s "$out_abs" ] || { echo "$0: chromium wrote no screenshot of $report within ${CHROMIUM_TIMEOUT:-120} s" >&2; exit 1; }
echo "$out_abs (${width}x${height})"
