#!/usr/bin/env bash
# ctest browser.report: the HTML report works in a real browser. Runs the CLI on
# examples/time_freezing/particle_friction.yaml (which writes report.html), renders the report in
# headless Chromium and checks from the dumped DOM that the page's script ran without errors
# (<body data-status="ok" data-errors="">), that the SVG plots, the animation and the key frames
# are there, and that the animation advanced (?autoplay: <body data-frame> > 0 after 3 s of virtual
# time); then takes a screenshot and checks it is a PNG of a reasonable size. Then the same for the
# report of a time-frozen OCP (examples/time_freezing/time_optimal_bounce.yaml with 5 stages): no
# script errors, and its validation section is there. Last the hopper's report, from its committed
# result (docs/hopper/result.json.gz): the same checks as the first, with the three holes.
#
# usage: run_browser_test.sh STASIS_CLI SOURCE_DIR WORK_DIR
# Exit 77 (ctest: skipped) only when Chromium is not installed and CI is not set; in CI a missing
# Chromium is a failure (scripts/install-deps.sh installs it).
set -euo pipefail

cli=$1
src=$2
work=$3

chrome=""
for c in chromium chromium-browser google-chrome; do
  if command -v "$c" >/dev/null 2>&1; then chrome=$(command -v "$c"); break; fi
done
if [ -z "$chrome" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "FAIL: chromium is not installed (scripts/install-deps.sh installs it; CI must have it)" >&2
    exit 1
  fi
  echo "SKIP: chromium is not installed; install it with scripts/install-deps.sh (apt-get install chromium)"
  exit 77
fi

fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
out="$work/particle_friction"
"$cli" simulate "$src/examples/time_freezing/particle_friction.yaml" --out "$out" -q > "$work/cli.log" 2>&1 ||
  { cat "$work/cli.log"; fail "stasis simulate failed"; }
[ -s "$out/report.html" ] || fail "stasis simulate did not write $out/report.html"

url="file://$out/report.html?autoplay"
# Each run gets its own profile, so that parallel runs do not share a lock.
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
       --user-data-dir="$work/profile")

timeout 60 "$chrome" "${flags[@]}" --virtual-time-budget=3000 --dump-dom "$url" > "$work/dom.html" 2> "$work/chromium-dom.log" ||
  { tail -20 "$work/chromium-dom.log"; fail "chromium --dump-dom failed"; }
[ -s "$work/dom.html" ] || { tail -20 "$work/chromium-dom.log"; fail "chromium dumped an empty DOM"; }

body=$(grep -o '<body[^>]*>' "$work/dom.html" | head -1)
[ -n "$body" ] || fail "no <body> in the dumped DOM ($work/dom.html)"
attr() { sed -n "s/.* $1=\"\([^\"]*\)\".*/\1/p" <<< "$body"; }
status=$(attr data-status)
errors=$(attr data-errors)
frame=$(attr data-frame)
echo "body: $body"
[ -z "$errors" ] || fail "script errors in the report: $errors"
[ "$status" = "ok" ] || fail "the report's script did not finish (data-status=\"$status\", expected \"ok\")"
[[ "$frame" =~ ^[0-9]+$ ]] || fail "data-frame is '$frame', expected a frame index"
[ "$frame" -gt 0 ] || fail "the animation did not advance (data-frame=$frame after 3 s of virtual time with ?autoplay)"

# The number of SVG plots, animations and key frames in a dumped DOM.
count_svg() { grep -o "<svg[^>]*class=\"stasis-$1\"" "$2" | wc -l; }
plots=$(count_svg plot "$work/dom.html")
anim=$(count_svg anim "$work/dom.html")
frames=$(count_svg frame "$work/dom.html")
echo "svg plots: $plots, animation: $anim, key frames: $frames, frame index: $frame"
[ "$plots" -ge 8 ] || fail "expected at least 8 SVG plots (states in physical and numerical time, ...), found $plots"
[ "$anim" -eq 1 ] || fail "expected one animation <svg class=\"stasis-anim\">, found $anim"
[ "$frames" -ge 3 ] || fail "expected key frames (start, impact, end), found $frames"
grep -q 'class="jump"' "$work/dom.html" || fail "no jump segment (<line class=\"jump\">) in the plots"
grep -q 'class="event impact"' "$work/dom.html" || fail "no impact marker (<line class=\"event impact\">) in the plots"

png="$work/report.png"
timeout 60 "$chrome" "${flags[@]}" --virtual-time-budget=1500 --window-size=1200,2400 --screenshot="$png" "$url" \
  > "$work/chromium-shot.log" 2>&1 || { tail -20 "$work/chromium-shot.log"; fail "chromium --screenshot failed"; }
[ -f "$png" ] || fail "no screenshot written"
size=$(stat -c %s "$png")
signature=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
echo "screenshot: $png, $size bytes"
[ "$signature" = "89504e470d0a1a0a" ] || fail "the screenshot is not a PNG"
[ "$size" -gt 30000 ] || fail "the screenshot is only $size bytes (a blank page?)"

# The report of a time-frozen OCP (about 1 s to solve): its validation section (a table with the
# verdicts and the deviation plot) is in the page and the script still runs without errors.
ocp="$work/time_optimal_bounce"
"$cli" solve "$src/examples/time_freezing/time_optimal_bounce.yaml" -o ocp.stages=5 --out "$ocp" -q \
  > "$work/cli-ocp.log" 2>&1 || { cat "$work/cli-ocp.log"; fail "stasis solve failed"; }
[ -s "$ocp/report.html" ] || fail "stasis solve did not write $ocp/report.html"
# Dumps the DOM of a report (URL, virtual time in ms) to FILE and checks that its script ran to the
# end without errors; leaves the <body> tag in $body (for attr).
report_dom() {
  local url=$1 file=$2 budget=$3 what=$4
  timeout 60 "$chrome" "${flags[@]}" --virtual-time-budget="$budget" --dump-dom "$url" > "$file" 2> "$file.log" ||
    { tail -20 "$file.log"; fail "chromium --dump-dom failed on $what"; }
  body=$(grep -o '<body[^>]*>' "$file" | head -1)
  echo "$what body: $body"
  [ -z "$(attr data-errors)" ] || fail "script errors in $what: $(attr data-errors)"
  [ "$(attr data-status)" = "ok" ] || fail "the script of $what did not finish (data-status=\"$(attr data-status)\")"
}
report_dom "file://$ocp/report.html" "$work/dom-ocp.html" 1000 "the OCP report"
grep -q '<section id="validation">' "$work/dom-ocp.html" || fail "no validation section in the OCP report"
grep -q '<table class="validation">' "$work/dom-ocp.html" || fail "no validation table in the OCP report"
grep -q 'class="validation-verdict check-' "$work/dom-ocp.html" || fail "no validation verdict in the OCP report"
grep -q 'aria-label="deviation at the end of each control stage"' "$work/dom-ocp.html" ||
  fail "no plot of the deviation per stage in the OCP report"
grep -q '<th>frozen stages</th>' "$work/dom-ocp.html" || fail "no 'frozen stages' row in the OCP report's summary"

# The hopper's report (examples/hopper.yaml, issue #6), rebuilt by `stasis report` from the result
# committed in docs/hopper (what `make demo` writes to out/hopper; the solve takes half an hour):
# no script errors, the plots, the animation with the three holes and advancing, key frames at the
# three landings and at lift-offs, the impacts marked, the validation section; then a screenshot.
hop="$work/hopper"
mkdir -p "$hop"
gunzip -c "$src/docs/hopper/result.json.gz" > "$hop/result.json" || fail "cannot unpack docs/hopper/result.json.gz"
"$cli" report "$hop" > "$work/cli-hopper.log" 2>&1 || { cat "$work/cli-hopper.log"; fail "stasis report failed on the hopper's result"; }
report_dom "file://$hop/report.html?autoplay" "$work/dom-hopper.html" 3000 "the hopper's report"
frame=$(attr data-frame)
[[ "$frame" =~ ^[0-9]+$ ]] && [ "$frame" -gt 0 ] || fail "the hopper's animation did not advance (data-frame=$frame)"
plots=$(count_svg plot "$work/dom-hopper.html")
anim=$(count_svg anim "$work/dom-hopper.html")
frames=$(count_svg frame "$work/dom-hopper.html")
holes=$(grep -o '<ellipse class="obstacle"' "$work/dom-hopper.html" | wc -l)
echo "hopper: svg plots $plots, animation $anim, key frames $frames, hole ellipses $holes, frame index $frame"
[ "$plots" -ge 8 ] || fail "expected at least 8 SVG plots in the hopper's report, found $plots"
[ "$anim" -eq 1 ] || fail "expected one animation in the hopper's report, found $anim"
[ "$frames" -ge 4 ] || fail "expected key frames (start, three touchdowns, ...) in the hopper's report, found $frames"
[ "$holes" -ge 3 ] || fail "expected the three holes (ellipses) in the hopper's animation and key frames, found $holes"
grep -q 'class="event impact"' "$work/dom-hopper.html" || fail "no impact marker in the hopper's plots"
# The filmstrip shows the three landings before the lift-offs and touchdowns (impacts first).
landings=$(grep -o 't = [0-9.]* · impact (foot)' "$work/dom-hopper.html" | sort -u | wc -l)
[ "$landings" -eq 3 ] || fail "expected the three landings among the hopper's key frames, found $landings"
grep -q '· liftoff (foot)' "$work/dom-hopper.html" || fail "no lift-off among the hopper's key frames"
grep -q '<section id="validation">' "$work/dom-hopper.html" || fail "no validation section in the hopper's report"
timeout 60 "$chrome" "${flags[@]}" --virtual-time-budget=1500 --window-size=1200,2400 --screenshot="$work/hopper.png" \
  "file://$hop/report.html?autoplay" > "$work/chromium-shot-hopper.log" 2>&1 ||
  { tail -20 "$work/chromium-shot-hopper.log"; fail "chromium --screenshot failed on the hopper's report"; }
size=$(stat -c %s "$work/hopper.png")
echo "hopper screenshot: $work/hopper.png, $size bytes"
[ "$size" -gt 30000 ] || fail "the hopper's screenshot is only $size bytes (a blank page?)"
echo "PASS"
