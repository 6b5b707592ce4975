#!/usr/bin/env python3
"""Builds a start.json for the three-hole hopper from a solved one-hole cut (docs/hopper-experiments.md).

The cut (bench/hopper/one_hole_v10.yaml: 1 s, 8 stages of 0.125 s, a hop over the hole at x = 0.5
to qx = 1) gives stages 0-7 as they are; stages 8-13 and 14-19 repeat the cut's stages 2-7 (the
crouch's end, the push-off, the flight and the landing) shifted by 1 and 2 in x and by 0.75 and
1.5 s on the clock. Variables are mapped by their names (start.json's variable_names), so the
target's order comes from a start.json of the target problem (any run of it, e.g. one step).

usage: tile_start.py CUT_START TARGET_NAMES_START OUTPUT
"""
import json
import re
import sys

STAGE_LENGTH = 0.125
# target stage -> (cut stage, x shift, clock shift in stages)
PLAN = {k: (k, 0.0, 0) for k in range(8)}
PLAN.update({8 + i: (2 + i, 1.0, 6) for i in range(6)})
PLAN.update({14 + i: (2 + i, 2.0, 12) for i in range(6)})

# fe{K}.{N}.rest (K from 0), u{K}.rest and s{K} (K from 1).
FE = re.compile(r"^fe(\d+)\.(.*)$")
U = re.compile(r"^u(\d+)\.(.*)$")
S = re.compile(r"^s(\d+)$")


def source(name):
    """The cut's name for a target name and the shifts (x, clock) to apply, or None."""
    if m := FE.match(name):
        k = int(m.group(1))
        src, dx, dk = PLAN[k]
        return f"fe{src}.{m.group(2)}", dx, dk
    if m := U.match(name):
        k = int(m.group(1)) - 1
        src, dx, dk = PLAN[k]
        return f"u{src + 1}.{m.group(2)}", dx, dk
    if m := S.match(name):
        k = int(m.group(1)) - 1
        src, dx, dk = PLAN[k]
        return f"s{src + 1}", dx, dk
    return name, 0.0, 0


def main():
    cut_path, target_path, out_path = sys.argv[1:4]
    cut = json.load(open(cut_path))
    target = json.load(open(target_path))
    value = dict(zip(cut["variable_names"], cut["w"]))
    w = []
    for name in target["variable_names"]:
        src, dx, dk = source(name)
        if src not in value:
            sys.exit(f"tile_start: {name} (from {src}) is not in the cut's start")
        v = value[src]
        if name.endswith(".qx"):
            v += dx
        elif name.endswith(".t"):
            v += dk * STAGE_LENGTH
        w.append(v)
    out = {k: target[k] for k in ("format", "problem", "n_variables", "n_constraints", "n_pairs", "variable_names")}
    out["w"] = w
    json.dump(out, open(out_path, "w"))


if __name__ == "__main__":
    main()
