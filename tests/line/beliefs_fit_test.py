#!/usr/bin/env python3
"""A player model's fit is reproducible (ctest line_beliefs_fit, latin;
mexican_train_beliefs_fit): tools/line_placements (or
mexican_train_placements) plays a few games and prints its placements'
features; tools/fit_beliefs.py reads them. Checks: the decisions are read
(latin: leads and plays apart); the fitted weights explain the choices at
least as well as a uniform choice; the weights shipped in the game's
beliefs.cpp, read by the script, explain them better than uniform (so the C++
features and the script's model are the same features in the same order);
the engine's own log-probability of each choice (play_log_likelihood) and the
script's agree to 1e-9 under the shipped weights; a malformed line is refused
with its line number and what was expected.

usage: beliefs_fit_test.py PLACEMENTS_TOOL [GAME]
"""
import json
import os
import subprocess
import sys
import tempfile

EXE = sys.argv[1]
GAME = sys.argv[2] if len(sys.argv) > 2 else "latin"
FIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "fit_beliefs.py")
# Per game: the tool's arguments (games, iterations, seed), the fit's step
# size, the kinds of decision and the weights of each, and a line with an
# option too short.
SETUP = {"latin": (["6", "100", "7"], "0.1", {"lead": 5, "play": 5}, "2 1 0 0 0 0 0 2 1 0 0 0 0 | 1\n3 1 0 | 0\n"),
         "mexican-train": (["1", "100", "7"], "0.02", {"play": 4}, "2 1 0 0 0 2 1 0 0 | 1\n3 1 0 | 0\n")}


def fail(what):
    print(f"FAIL: {what}")
    sys.exit(1)


def main():
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "placements.txt")
        with open(data, "w") as f:
            subprocess.run([EXE] + SETUP[GAME][0], stdout=f, check=True, timeout=240)
        r = subprocess.run([sys.executable, FIT, data, "--game", GAME, "--steps", "200", "--rate", SETUP[GAME][1], "--json"],
                           capture_output=True, text=True, check=True, timeout=240)
        out = json.loads(r.stdout)
        for name, weights in SETUP[GAME][2].items():
            m = out[name]
            if m["decisions"] < (2 if name == "lead" else 100):
                fail(f"{name}s: only {m['decisions']} decisions read")
            if m["ll_fitted"] < m["ll_uniform"] - 1e-9:
                fail(f"{name}s: the fit ({m['ll_fitted']:.4f}) is worse than a uniform choice ({m['ll_uniform']:.4f})")
            if len(m["weights"]) != weights:
                fail(f"{name}s: {len(m['weights'])} weights, kPlayModel has {weights}")
            if m["engine_checked"] < (2 if name == "lead" else 100):
                fail(f"{name}s: only {m['engine_checked']} choices carry the engine's log-probability")
            if not m["engine_max_difference"] <= 1e-9:
                fail(f"{name}s: the engine's log-probabilities and the script's differ by {m['engine_max_difference']}")
        play = out["play"]
        if not play["ll_shipped"] > play["ll_uniform"]:
            fail(f"the shipped weights ({play['ll_shipped']:.4f}) explain the plays no better than uniform "
                 f"({play['ll_uniform']:.4f}): the features differ from the model's")
        agreed = ", ".join(f"{m['engine_checked']} {n}s" for n, m in out.items())
        print(f"ok: the engine and the script agree on {agreed} "
              f"(largest difference {max(m['engine_max_difference'] for m in out.values()):.2g})")
        print(f"ok: {play['decisions']} plays; their mean log-likelihood: uniform {play['ll_uniform']:.3f}, "
              f"shipped {play['ll_shipped']:.3f}, fitted {play['ll_fitted']:.3f}")

        bad = os.path.join(d, "bad.txt")
        with open(bad, "w") as f:
            f.write(SETUP[GAME][3])
        r = subprocess.run([sys.executable, FIT, bad, "--game", GAME], capture_output=True, text=True, timeout=60)
        if r.returncode == 0 or "bad.txt:2" not in r.stderr or "expected" not in r.stderr:
            fail(f"a malformed line: exit {r.returncode}, {r.stderr.strip()!r}")
        empty = os.path.join(d, "empty.txt")
        open(empty, "w").close()
        r = subprocess.run([sys.executable, FIT, empty, "--game", GAME], capture_output=True, text=True, timeout=60)
        if r.returncode == 0 or "holds no placements" not in r.stderr:
            fail(f"an empty file: exit {r.returncode}, {r.stderr.strip()!r}")
        r = subprocess.run([EXE, "many", "100"], capture_output=True, text=True, timeout=60)
        if r.returncode == 0 or "GAMES must be a whole number" not in r.stderr:
            fail(f"a bad count of games: exit {r.returncode}, {r.stderr.strip()!r}")
        r = subprocess.run([sys.executable, FIT, os.path.join(d, "none.txt"), "--game", GAME], capture_output=True, text=True,
                           timeout=60)
        if r.returncode == 0 or "cannot read" not in r.stderr or "Traceback" in r.stderr:
            fail(f"a missing file: exit {r.returncode}, {r.stderr.strip()!r}")
        r = subprocess.run([EXE, "3"], capture_output=True, text=True, timeout=60)
        if r.returncode != 2 or "usage" not in r.stderr:
            fail(f"a missing argument: exit {r.returncode}")
    print("ok: bad input is refused in words")


if __name__ == "__main__":
    main()
