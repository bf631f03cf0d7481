#!/usr/bin/env bash
# Checks HTML reports in a real browser: renders each with Debian's headless Chromium (through
# scripts/ci/render-report.sh, which installs it if missing) and fails on an empty or broken page.
#
#   scripts/ci/check-reports.sh [REPORT.html ...]      (default: every results/*.html)
#
# Per report, from the DOM Chromium parsed (--dump-dom) and from a screenshot (PNG, in a
# temporary directory, removed at the end; nothing is kept or committed):
# - the file ends with </html> (not cut off);
# - a <title> and an <h1> with text, the summary heading and at least one table;
# - when its facts line counts one run or more: at least one chart (<svg> or <img>), and as
#   many captions as figures;
# - the screenshot exists, is at least 200x200 pixels, at least 1% of its pixels are not
#   white and it has at least 6 colours (tests/png_check.rs, a test program that takes a file).
# Prints one line per report; exits 1 if any report fails (the line names it and says why),
# 2 on a usage error.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(dirname "$here")")

if [ $# -gt 0 ]; then
    reports=("$@")
else
    shopt -s nullglob
    reports=("$root"/results/*.html)
    shopt -u nullglob
fi
if [ ${#reports[@]} -eq 0 ]; then
    echo "check-reports: no report to check"
    exit 0
fi

# The screenshot check, built as the test program it is; cargo names the executable it built
# (under target/release/deps/, with a hash) in its JSON messages.
png_check=$(cd "$root" && cargo test --release --locked --quiet --no-run --test png_check \
    --message-format=json | sed -n 's/.*"executable":"\([^"]*png_check[^"]*\)".*/\1/p' | tail -n 1)
[ -x "$png_check" ] || { echo "check-reports: could not build tests/png_check.rs" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-reports.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
for report in "${reports[@]}"; do
    problems=()
    if [ ! -s "$report" ]; then
        echo "check-reports: FAIL $report: missing or empty file"
        failed=1
        continue
    fi
    name=$(basename "$report" .html)
    tail -c 64 "$report" | grep -q '</html>' || problems+=("the file does not end with </html> (cut off?)")

    dom=$tmp/$name.dom.html
    if ! "$here/render-report.sh" --dom "$report" >"$dom" || [ ! -s "$dom" ]; then
        problems+=("chromium did not load it")
    fi
    grep -q '<title>[^<]' "$dom" || problems+=("no <title>")
    grep -q '<h1>[^<]' "$dom" || problems+=("no <h1> title")
    grep -q '<h2>Summary</h2>' "$dom" || problems+=("no summary heading")
    tables=$(grep -o "<table" "$dom" | wc -l || true)
    [ "$tables" -gt 0 ] || problems+=("no summary table")
    runs=$(grep -o -m1 '[0-9][0-9]* runs' "$dom" | grep -o '^[0-9]*' || true)
    figures=$(grep -o "<figure>" "$dom" | wc -l || true)
    captions=$(grep -o "<figcaption>" "$dom" | wc -l || true)
    charts=$(grep -o "<svg\|<img" "$dom" | wc -l || true)
    if [ "${runs:-0}" -gt 0 ]; then
        [ "$charts" -gt 0 ] || problems+=("no chart (<svg> or <img>) though it reports $runs runs")
        [ "$figures" -eq "$captions" ] || problems+=("$figures figures but $captions captions (cut off?)")
    fi

    png=$tmp/$name.png
    shot=""
    if "$here/render-report.sh" "$report" "$png" >/dev/null; then
        if ! shot=$("$png_check" "$png" 2>"$tmp/png_check.err"); then
            problems+=("the rendered page looks empty: $(sed "s|^$png: ||" "$tmp/png_check.err")")
        fi
    else
        problems+=("chromium wrote no screenshot")
    fi

    if [ ${#problems[@]} -gt 0 ]; then
        msg=$(printf '%s; ' "${problems[@]}")
        echo "check-reports: FAIL $report: ${msg%; }"
        failed=1
    else
        echo "check-reports: ok $report (${runs:-0} runs, $tables tables, $figures figures; screenshot $shot)"
    fi
done
exit $failed
