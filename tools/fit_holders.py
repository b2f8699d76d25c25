#!/usr/bin/python3
"""Fits the Mexican Train tile-holder model to tools/mexican_train_holders'
output (docs/bots.md, "Beliefs from play (Mexican Train)"): each hidden
tile's place (another seat's hand or the boneyard) with probability
proportional to the place's size times exp(w . f), f the tile's features
there (zero in the boneyard). Debian's interpreter (numpy). Prints the mean log-likelihood a tile with
w = 0 (every tile of a place alike, given the public voids) and fitted,
and the fitted weights, in the tool's order of features:

  build/mexican_train_holders 30 300 700 > holders.txt
  tools/fit_holders.py holders.txt [--steps 3000]
"""
import argparse
import sys

import numpy as np

FEATURES = ["shows its train's end", "the same, before any draw", "double", "pips / 12",
            "shows the Mexican train's end", "double x progress", "pips / 12 x progress",
            "covers a double it laid"]


def read(path):
    rows = []
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        sys.exit(f"fit_holders: cannot read {path}: {e.strerror}")
    with f:
        for number, line in enumerate(f, 1):
            try:
                head, chosen = line.split("|")
                v = head.split()
                n = int(v[0])
                width = 1 + len(FEATURES)
                if n < 2 or len(v) != 1 + n * width:
                    raise ValueError(f"N places of {width} numbers each")
                values = np.array([float(x) for x in v[1:]]).reshape(n, width)
                c = int(chosen)
                if not 0 <= c < n:
                    raise ValueError(f"the true place {c} is not one of the {n}")
            except ValueError as e:
                sys.exit(f"fit_holders: {path}:{number}: expected 'N (LOGSIZE F1..F{len(FEATURES)})xN | TRUE': {e}")
            rows.append((values[:, 0], values[:, 1:], c))
    if not rows:
        sys.exit(f"fit_holders: {path} holds no tile")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("--steps", type=int, default=3000, help="gradient steps (default 3000)")
    args = ap.parse_args()
    rows = read(args.data)
    n, places, width = len(rows), max(len(r[0]) for r in rows), len(FEATURES)
    offset = np.full((n, places), -np.inf)
    x = np.zeros((n, places, width))
    y = np.array([r[2] for r in rows])
    for i, (o, f, _) in enumerate(rows):
        offset[i, :len(o)], x[i, :len(o)] = o, f
    at = np.arange(n)

    def loglik(w):
        s = offset + x @ w
        s -= s.max(axis=1, keepdims=True)
        lp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
        grad = (x[at, y] - (np.exp(lp)[..., None] * x).sum(axis=1)).mean(axis=0)
        return lp[at, y].mean(), grad

    w = np.zeros(width)
    base, _ = loglik(w)
    for _ in range(args.steps):
        w += 0.5 * loglik(w)[1]
    fitted, _ = loglik(w)
    print(f"{n} tiles: mean log-likelihood a tile {base:.4f} with w = 0, {fitted:.4f} fitted "
          f"({fitted - base:+.4f} nats a tile)")
    for name, value in zip(FEATURES, w):
        print(f"  {name:32} {value:+.4f}")
    print("weights:", " ".join(f"{v:.4f}" for v in w))


if __name__ == "__main__":
    main()
