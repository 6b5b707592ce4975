#!/usr/bin/env python3
"""Builds a start.json on a finer grid from a solved start.json of the same problem (docs/hopper-experiments.md).

Each finite element of the coarse solution is split into R equal elements (R = the fine problem's
elements per stage / the coarse one's). In every fine element the states at its Radau IIA points come
from the coarse element's collocation polynomial (through the element's start and its stage points),
the algebraic variables (alpha, lambda, theta, beta) are copied from the coarse stage point that covers
the fine point, and the element length is the coarse one / R. Controls, speeds of time and everything
outside the elements are copied. No multipliers: the fine problem starts from zero multipliers.
Variables are mapped by their names (start.json's variable_names), so the fine problem's order
comes from a start.json of it (any run, e.g. one step with one iteration).

usage: refine_start.py COARSE_START FINE_NAMES_START OUTPUT
"""
import json
import re
import sys

FE = re.compile(r"^fe(\d+)\.(\d+)\.(.*)$")
STAGE = re.compile(r"^stage(\d+)\.(.*)$")


def radau_nodes(n_s):
    """Radau IIA collocation nodes c_1..c_s (the last is 1)."""
    if n_s == 1:
        return [1.0]
    if n_s == 2:
        return [1.0 / 3.0, 1.0]
    if n_s == 3:
        r6 = 6.0 ** 0.5
        return [(4.0 - r6) / 10.0, (4.0 + r6) / 10.0, 1.0]
    sys.exit(f"refine_start: {n_s} Radau stages not supported")


def lagrange(nodes, values, tau):
    total = 0.0
    for i, (ti, vi) in enumerate(zip(nodes, values)):
        weight = 1.0
        for j, tj in enumerate(nodes):
            if j != i:
                weight *= (tau - tj) / (ti - tj)
        total += weight * vi
    return total


def main():
    coarse_path, fine_path, out_path = sys.argv[1:4]
    coarse = json.load(open(coarse_path))
    fine = json.load(open(fine_path))
    value = dict(zip(coarse["variable_names"], coarse["w"]))

    def per_stage(names):
        elements, stages = {}, 0
        for name in names:
            if m := FE.match(name):
                elements.setdefault(int(m.group(1)), set()).add(int(m.group(2)))
                if s := STAGE.match(m.group(3)):
                    stages = max(stages, int(s.group(1)))
        return max(len(v) for v in elements.values()), stages

    n_coarse, n_s = per_stage(coarse["variable_names"])
    n_fine, n_s_fine = per_stage(fine["variable_names"])
    if n_fine % n_coarse or n_s != n_s_fine:
        sys.exit(f"refine_start: {n_fine} fine elements per stage are not a multiple of {n_coarse}, "
                 f"or the Radau stages differ ({n_s_fine} against {n_s})")
    ratio = n_fine // n_coarse
    c = radau_nodes(n_s)
    differential = {n.split(".", 1)[1] for n in coarse["variable_names"] if n.startswith("x0.")}

    def element_start(k, n, var):
        """The coarse state `var` at the start of element n of stage k."""
        if n > 0:
            return value[f"fe{k}.{n - 1}.stage{n_s}.{var}"]
        if k > 0:
            return value[f"fe{k - 1}.{n_coarse - 1}.stage{n_s}.{var}"]
        return value[f"x0.{var}"]

    w = []
    for name in fine["variable_names"]:
        m = FE.match(name)
        if not m:
            if name not in value:
                sys.exit(f"refine_start: {name} is not in the coarse start")
            w.append(value[name])
            continue
        k, n_f, rest = int(m.group(1)), int(m.group(2)), m.group(3)
        n, part = divmod(n_f, ratio)
        if rest == "h":
            w.append(value[f"fe{k}.{n}.h"] / ratio)
            continue
        s = STAGE.match(rest)
        if not s:
            sys.exit(f"refine_start: unexpected element variable {name}")
        j, var = int(s.group(1)), s.group(2)
        tau = (part + c[j - 1]) / ratio  # the fine point inside the coarse element
        if var in differential:
            nodes = [0.0] + c
            values = [element_start(k, n, var)] + [value[f"fe{k}.{n}.stage{i + 1}.{var}"] for i in range(n_s)]
            w.append(lagrange(nodes, values, tau))
        else:
            covering = next(i for i in range(n_s) if tau <= c[i] + 1e-12)
            w.append(value[f"fe{k}.{n}.stage{covering + 1}.{var}"])
    out = {key: fine[key] for key in ("format", "problem", "n_variables", "n_constraints", "n_pairs", "variable_names")}
    out["w"] = w
    json.dump(out, open(out_path, "w"))
    print(f"refine_start: {n_coarse} -> {n_fine} elements per stage ({len(w)} variables)")


if __name__ == "__main__":
    main()
