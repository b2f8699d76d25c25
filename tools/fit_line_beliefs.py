#!/usr/bin/env python3
"""Fits the latin player model of beliefs from play (src/line/beliefs.h,
docs/bots.md "Beliefs from play"): a conditional logit over each legal
placement's features, leads and plays apart, by gradient ascent on the mean
log-likelihood of the placements chosen. Its data comes from
tools/line_placements (built beside boneyard):

  build/line_placements 60 1000 > placements.txt
  tools/fit_line_beliefs.py placements.txt [--steps 800] [--json]

Prints, for leads and for plays: the decisions, the mean log-likelihood a
choice under a uniform choice, under the weights shipped in
src/line/beliefs.cpp (kPlayModel), and under the fitted weights, and the
fitted weights in kPlayModel's order (pips, double, kept for the ends,
played of the ends, both ends alike). Where line_placements gave the
engine's own log-probability of a choice (the third field), it is compared
with this script's under the shipped weights: the largest difference is
printed, and one above 1e-9 exits 1 (the two models differ).
"""
import argparse
import json
import math
import os
import re
import sys

FEATURES = ("pips", "double", "kept for the ends", "played of the ends", "both ends alike")


def read(path):
    """Decisions [(options, chosen, engine_ll)], each option its five model
    features (the sixth column, lead, splits leads from plays); engine_ll is
    the engine's log-probability of the choice, or None."""
    leads, plays = [], []
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        sys.exit(f"fit_line_beliefs: cannot read {path}: {e.strerror}")
    with f:
        for number, line in enumerate(f, 1):
            try:
                fields = line.split("|")
                if len(fields) not in (2, 3):
                    raise ValueError("two or three fields apart by '|'")
                head, chosen = fields[0], fields[1]
                engine = None if len(fields) == 2 or fields[2].strip() == "-" else float(fields[2])
                if engine is not None and not math.isfinite(engine):
                    raise ValueError(f"the log-probability {engine} is not a finite number")
                v = [int(x) for x in head.split()]
                n = v[0]
                opts = [v[1 + 6 * i:7 + 6 * i] for i in range(n)]
                if n < 2 or any(len(o) != 6 for o in opts) or len(v) != 1 + 6 * n:
                    raise ValueError("N options of six numbers each")
                c = int(chosen)
                if not 0 <= c < n:
                    raise ValueError(f"the chosen option {c} is not one of the {n}")
            except ValueError as e:
                sys.exit(f"fit_line_beliefs: {path}:{number}: expected 'N f1..fN | CHOSEN [| LL]' "
                         f"(line_placements' output): {e}")
            lead = opts[0][4] == 1
            feats = [[o[0], o[1], o[2], o[3], o[5]] for o in opts]
            (leads if lead else plays).append((feats, c, engine))
    return leads, plays


def mean_ll(w, decisions):
    """The mean log-likelihood a choice, and its gradient."""
    total, grad = 0.0, [0.0] * len(w)
    for feats, c, _ in decisions:
        s = [sum(wi * fi for wi, fi in zip(w, f)) for f in feats]
        top = max(s)
        e = [math.exp(x - top) for x in s]
        z = sum(e)
        total += s[c] - top - math.log(z)
        for j in range(len(w)):
            grad[j] += feats[c][j] - sum(e[i] * feats[i][j] for i in range(len(feats))) / z
    n = max(1, len(decisions))
    return total / n, [g / n for g in grad]


def engine_difference(w, decisions):
    """(checked, largest |engine - script|) of the choices' log-probabilities."""
    checked, worst = 0, 0.0
    for feats, c, engine in decisions:
        if engine is None:
            continue
        mine = mean_ll(w, [(feats, c, engine)])[0]  # this one choice's log-probability
        checked += 1
        worst = max(worst, abs(mine - engine))
    return checked, worst


def shipped():
    """kPlayModel's weights as src/line/beliefs.cpp ships them: (lead, play)."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "line", "beliefs.cpp")
    m = re.search(r"kPlayModel\s*=\s*\{\{([^}]*)\},\s*\{([^}]*)\}\}", open(src, encoding="utf-8").read())
    if not m:
        sys.exit("fit_line_beliefs: kPlayModel not found in src/line/beliefs.cpp")
    return [float(x) for x in m.group(1).split(",")], [float(x) for x in m.group(2).split(",")]


def fit(decisions, steps, rate):
    w = [0.0] * len(FEATURES)
    for _ in range(steps):
        _, g = mean_ll(w, decisions)
        w = [wi + rate * gi for wi, gi in zip(w, g)]
    return w


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="line_placements' output")
    ap.add_argument("--steps", type=int, default=800, help="gradient steps (default 800)")
    ap.add_argument("--rate", type=float, default=0.1, help="step size (default 0.1)")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of text")
    a = ap.parse_args()
    if a.steps < 0 or not a.rate > 0:
        sys.exit("fit_line_beliefs: --steps must be 0 or more and --rate above 0")
    leads, plays = read(a.data)
    ship_lead, ship_play = shipped()
    out = {}
    for name, decisions, ship in (("lead", leads, ship_lead), ("play", plays, ship_play)):
        w = fit(decisions, a.steps, a.rate)
        out[name] = {
            "decisions": len(decisions),
            "ll_uniform": mean_ll([0.0] * len(FEATURES), decisions)[0],
            "ll_shipped": mean_ll(ship, decisions)[0],
            "ll_fitted": mean_ll(w, decisions)[0],
            "weights": [round(x, 3) for x in w],
        }
        out[name]["engine_checked"], out[name]["engine_max_difference"] = engine_difference(ship, decisions)
    disagree = [n for n, r in out.items() if r["engine_max_difference"] > 1e-9]
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        for name, r in out.items():
            print(f"{name}s: {r['decisions']} decisions; mean log-likelihood a choice: uniform {r['ll_uniform']:.3f}, "
                  f"shipped {r['ll_shipped']:.3f}, fitted {r['ll_fitted']:.3f}")
            print(f"  fitted weights ({', '.join(FEATURES)}): {{{', '.join(str(x) for x in r['weights'])}}}")
            print(f"  the engine's log-probabilities of {r['engine_checked']} choices against this script's: "
                  f"largest difference {r['engine_max_difference']:.2g}")
    if disagree:
        sys.exit(f"fit_line_beliefs: the engine's model and this script's differ for the {' and '.join(disagree)}s "
                 "(largest difference above 1e-9): their features or weights are not the same")


if __name__ == "__main__":
    main()
