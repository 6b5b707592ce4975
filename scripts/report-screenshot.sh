#!/usr/bin/env bash
# Regenerates a report screenshot for the docs (make docs): runs the CLI on a problem file (which
# writes report.html), or rebuilds the report of a result directory that holds result.json or
# result.json.gz (e.g. docs/hopper, the hopper's result: half an hour to solve again), opens the report in headless
# Chromium with ?autoplay so that the animation is under way, and saves the top of the page as a PNG.
#
# usage: scripts/report-screenshot.sh BUILD_DIR PROBLEM_FILE|RESULT_DIR OUTPUT_PNG [HEIGHT]
set -euo pipefail
build=$1
problem=$2
png=$3
height=${4:-1500}

chrome=""
for c in chromium chromium-browser google-chrome; do
  if command -v "$c" >/dev/null 2>&1; then chrome=$(command -v "$c"); break; fi
done
[ -n "$chrome" ] || { echo "report-screenshot: chromium is not installed (scripts/install-deps.sh installs it)" >&2; exit 1; }

work="$build/docs_report"
out="$work/$(basename "${problem%.*}")"
rm -rf "$work"
mkdir -p "$work"
if [ -d "$problem" ]; then
  mkdir -p "$out"
  if [ -f "$problem/result.json" ]; then
    cp "$problem/result.json" "$out/"
  elif [ -f "$problem/result.json.gz" ]; then
    gunzip -c "$problem/result.json.gz" > "$out/result.json"
  else
    echo "report-screenshot: $problem has no result.json (or result.json.gz)" >&2
    exit 1
  fi
  "$build/bin/stasis" report "$out" >/dev/null
else
  command=simulate
  grep -q '^kind: *ocp' "$problem" && command=solve
  "$build/bin/stasis" "$command" "$problem" --out "$out" -q
fi
timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions \
  --user-data-dir="$work/profile" --virtual-time-budget=1500 --window-size=1200,"$height" \
  --screenshot="$(realpath -m "$png")" "file://$(realpath "$out")/report.html?autoplay" > "$work/chromium.log" 2>&1 ||
  { tail -20 "$work/chromium.log" >&2; exit 1; }
echo "wrote $png from $out/report.html"
