#!/bin/sh
# The three-hole hopper (bench/hopper/three_holes_v10.yaml) from the trivial guess, in four steps
# (docs/hopper-experiments.md, session 34):
#   1. the one-hole cut (bench/hopper/one_hole_v10.yaml: 1 s, 8 stages) from the trivial guess;
#   2. a start.json of the three-hole problem, for its variables' names (one 1-iteration NLP);
#   3. the cut's hop repeated over the 20 stages (tile_start.py);
#   4. the three-hole problem from that start: the Scholtes homotopy from sigma 1e-3, then the
#      l1-penalty finish from the step at sigma 4.88e-7, and the validation.
# usage: bench/hopper/run_three_holes.sh [OUT [-o key=value ...]]   (STASIS=path/to/stasis to choose
# the binary; the -o's go to step 4, e.g. -o ocp.validate=false)
# Wall times, IPOPT iterations and peak memory of each solve go to OUT/*.time (GNU time).
set -eu
STASIS=${STASIS:-build/bin/stasis}
OUT=${1:-out/hopper_three_holes}
[ $# -gt 0 ] && shift
HERE=$(dirname "$0")
mkdir -p "$OUT"
timed() {
  name=$1
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v -o "$OUT/$name.time" "$@"
  else
    "$@"
  fi
}
timed cut "$STASIS" solve "$HERE/one_hole_v10.yaml" --out "$OUT/cut" -o ocp.validate=false
"$STASIS" solve "$HERE/three_holes_v10.yaml" --out "$OUT/names" -q -o initialization.method=nominal \
  -o homotopy.max_iter=1 -o homotopy.max_steps=1 -o homotopy.warm_first_iter=0 \
  -o homotopy.penalty_finish=false -o ocp.validate=false >"$OUT/names.log" 2>&1 || true  # not meant to converge
python3 "$HERE/tile_start.py" "$OUT/cut/start.json" "$OUT/names/start.json" "$OUT/tiled.json"
timed three_holes "$STASIS" solve "$HERE/three_holes_v10.yaml" --out "$OUT/three_holes" --start "$OUT/tiled.json" "$@"
