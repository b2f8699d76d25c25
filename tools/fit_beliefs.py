#!/usr/bin/env python3
"""Fits a player model of beliefs from play (docs/bots.md "Beliefs from
play"): a conditional logit over each option's features, by gradient ascent
on the mean log-likelihood of the placements chosen. Latin's
(src/line/beliefs.h: leads and plays apart) comes from tools/line_placements,
Mexican Train's (src/mexican_train/beliefs.h) from
tools/mexican_train_placements (both built beside boneyard):

  build/line_placements 60 1000 > placements.txt
  tools/fit_beliefs.py placements.txt [--steps 800] [--json]
  build/mexican_train_placements 20 500 > placements.txt
  tools/fit_beliefs.py --game mexican-train placements.txt

Prints, for each kind of decision: how many, the mean log-likelihood a
choice under a uniform choice, under the weights shipped in the game's
beliefs.cpp (kPlayModel), and under the fitted weights, and the fitted
weights in kPlayModel's order. Where the data gives the engine's own
log-probability of a choice (the third field), it is compared with this
script's under the shipped weights: the largest difference is printed, and
one above 1e-9 exits 1 (the two models differ).
"""
import argparse
import json
import math
import os
import re
import sys

# Per game: the numbers a line gives each option, the model's features
# among them (in kPlayModel's order), the column that marks a lead (None:
# plays only), and the source that ships the weights.
GAMES = {
    "latin": {"width": 6, "features": {"pips": 0, "double": 1, "kept for the ends": 2, "played of the ends": 3,
                                       "both ends alike": 5},
              "lead": 4, "source": ("src", "line", "beliefs.cpp")},
    "mexican-train": {"width": 4, "features": {"pips": 0, "double": 1, "kept for the new end": 2, "own train": 3},
                      "lead": None, "source": ("src", "mexican_train", "beliefs.cpp")},
}


def read(path, game):
    """Decisions by kind, {"lead": [...], "play": [...]}, each decision
    (options, chosen, engine_ll), each option its model features; engine_ll
    is the engine's log-probability of the choice, or None."""
    g = GAMES[game]
    width, keep = g["width"], list(g["features"].values())
    kinds = {"lead": [], "play": []} if g["lead"] is not None else {"play": []}
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        sys.exit(f"fit_beliefs: cannot read {path}: {e.strerror}")
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
                opts = [v[1 + width * i:1 + width * (i + 1)] for i in range(n)]
                if n < 2 or any(len(o) != width for o in opts) or len(v) != 1 + width * n:
                    raise ValueError(f"N options of {width} numbers each")
                c = int(chosen)
                if not 0 <= c < n:
                    raise ValueError(f"the chosen option {c} is not one of the {n}")
            except ValueError as e:
                sys.exit(f"fit_beliefs: {path}:{number}: expected 'N f1..fN | CHOSEN [| LL]' "
                         f"(the {game} placements' output): {e}")
            lead = g["lead"] is not None and opts[0][g["lead"]] == 1
            kinds["lead" if lead else "play"].append(([[o[i] for i in keep] for o in opts], c, engine))
    return kinds


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


def shipped(game):
    """kPlayModel's weights as the game's beliefs.cpp ships them, by kind of
    decision (latin: lead, then play)."""
    parts = GAMES[game]["source"]
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", *parts)
    m = re.search(r"kPlayModel\s*=\s*\{(.*?)\};", open(src, encoding="utf-8").read(), re.S)
    lists = re.findall(r"\{([^{}]*)\}", m.group(1)) if m else []
    kinds = ["lead", "play"] if GAMES[game]["lead"] is not None else ["play"]
    if len(lists) != len(kinds):
        sys.exit(f"fit_beliefs: kPlayModel not found in {'/'.join(parts)}")
    return {k: [float(x) for x in w.split(",")] for k, w in zip(kinds, lists)}


def fit(decisions, steps, rate, n):
    w = [0.0] * n
    for _ in range(steps):
        _, g = mean_ll(w, decisions)
        w = [wi + rate * gi for wi, gi in zip(w, g)]
    return w


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="line_placements' or mexican_train_placements' output")
    ap.add_argument("--game", choices=sorted(GAMES), default="latin", help="whose model (default latin)")
    ap.add_argument("--steps", type=int, default=800, help="gradient steps (default 800)")
    ap.add_argument("--rate", type=float, default=0.1, help="step size (default 0.1)")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of text")
    a = ap.parse_args()
    if a.steps < 0 or not a.rate > 0:
        sys.exit("fit_beliefs: --steps must be 0 or more and --rate above 0")
    kinds = read(a.data, a.game)
    if not any(kinds.values()):
        sys.exit(f"fit_beliefs: {a.data} holds no placements: expected the {a.game} placements tool's output")
    ship = shipped(a.game)
    features = list(GAMES[a.game]["features"])
    out = {}
    for name, decisions in kinds.items():
        w = fit(decisions, a.steps, a.rate, len(features))
        out[name] = {
            "decisions": len(decisions),
            "ll_uniform": mean_ll([0.0] * len(features), decisions)[0],
            "ll_shipped": mean_ll(ship[name], decisions)[0],
            "ll_fitted": mean_ll(w, decisions)[0],
            "weights": [round(x, 3) for x in w],
        }
        out[name]["engine_checked"], out[name]["engine_max_difference"] = engine_difference(ship[name], decisions)
    disagree = [n for n, r in out.items() if r["engine_max_difference"] > 1e-9]
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        for name, r in out.items():
            print(f"{name}s: {r['decisions']} decisions; mean log-likelihood a choice: uniform {r['ll_uniform']:.3f}, "
                  f"shipped {r['ll_shipped']:.3f}, fitted {r['ll_fitted']:.3f}")
            print(f"  fitted weights ({', '.join(features)}): {{{', '.join(str(x) for x in r['weights'])}}}")
            print(f"  the engine's log-probabilities of {r['engine_checked']} choices against this script's: "
                  f"largest difference {r['engine_max_difference']:.2g}")
    if disagree:
        sys.exit(f"fit_beliefs: the engine's model and this script's differ for the {' and '.join(disagree)}s "
                 "(largest difference above 1e-9): their features or weights are not the same")


if __name__ == "__main__":
    main()
