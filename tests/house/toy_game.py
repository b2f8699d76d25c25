#!/usr/bin/env python3
"""The house's promise (README, "Adding a game"): a game is a folder plus one
registration line. The test game src/toy/ ("toy-block", registered only with
BONEYARD_TEST_GAME=1) must appear in `rules`, `play`, `arena`, the protocol
(`engine`), the server (a table over HTTP, played out by its bots) and Python,
and nothing outside its folder may name it but its one line in src/games.cpp.
(The app's lobby: web/tests/lobby.mjs.)

usage: toy_game.py BONEYARD_EXE SOURCE_DIR [PYTHONPATH]"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

EXE, SRC = sys.argv[1], sys.argv[2]
PYPATH = sys.argv[3] if len(sys.argv) > 3 else ""
NAME = "toy-block"
ON = dict(os.environ, BONEYARD_TEST_GAME="1")
OFF = {k: v for k, v in os.environ.items() if k != "BONEYARD_TEST_GAME"}
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(args, env=ON, stdin=None, timeout=120):
    p = subprocess.run([EXE] + args, env=env, input=stdin, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


# Only its one registration line names it outside its folder.
pattern = re.compile(r"\btoy\b|toy-block|toy::|toy/")
named = []
for top in ["src", "python/src", "python/boneyard", "web/src", "cmake"]:
    for root, dirs, files in os.walk(os.path.join(SRC, top)):
        if os.path.relpath(root, SRC).startswith("src/toy"):
            continue
        for f in files:
            path = os.path.join(root, f)
            try:
                text = open(path, encoding="utf-8").read()
            except (UnicodeDecodeError, OSError):
                continue
            for n, line in enumerate(text.splitlines(), 1):
                if pattern.search(line):
                    named.append(f"{os.path.relpath(path, SRC)}:{n}: {line.strip()}")
for f in ["CMakeLists.txt", "setup.py"]:
    for n, line in enumerate(open(os.path.join(SRC, f), encoding="utf-8").read().splitlines(), 1):
        if pattern.search(line):
            named.append(f"{f}:{n}: {line.strip()}")
check(len(named) == 1 and named[0].startswith("src/games.cpp:") and "BONEYARD_GAME(toy)" in named[0],
      "outside src/toy/ only its registration line names the test game: " + "; ".join(named))

# rules: listed with the variable, absent without it.
rc, out = run(["rules"])
check(rc == 0 and NAME in out, "boneyard rules lists it")
rc, out = run(["rules"], env=OFF)
check(rc == 0 and NAME not in out, "without BONEYARD_TEST_GAME players never see it")
rc, out = run(["rules", NAME])
check(rc == 0 and "single_hand" in out, "boneyard rules toy-block describes its options")

# play: bots play it to the end (its help and words come from its registration).
rc, out = run(["play", NAME, "--watch", "--seed", "7", "--pace", "0"])
check(rc == 0 and "Score:" in out and "passes" in out.lower(), "boneyard play --watch plays it to the end")

# arena
rc, out = run(["arena", NAME, "--games", "6", "--bots", "greedy,random", "--json"])
ok = rc == 0
try:
    ok = ok and json.loads(out[out.index("{"):])["games"] == 6
except (ValueError, KeyError):
    ok = False
check(ok, "boneyard arena plays it")

# the protocol
lines = [json.dumps({"cmd": "new", "game": NAME, "seed": 3})] + [json.dumps({"cmd": "bot", "bot": "greedy"})] * 60
lines += [json.dumps({"cmd": "result"}), json.dumps({"cmd": "quit"})]
rc, out = run(["engine"], stdin="\n".join(lines) + "\n")
answers = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
check(rc == 0 and answers and answers[0].get("ok") and answers[0].get("game") == NAME and answers[0].get("seats") == 2,
      "boneyard engine: new")
check(any(a.get("terminal") for a in answers), "boneyard engine: its bots play it to the end")

# the server: a table of bots, over HTTP, played out.
with tempfile.TemporaryDirectory() as tmp:
    srv = subprocess.Popen([EXE, "serve", "--port", "0", "--db", os.path.join(tmp, "t.db"), "--static", "none"],
                           env=ON, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = None
        for _ in range(50):
            line = srv.stdout.readline()
            m = re.search(r"http://[\d.]+:(\d+)", line)
            if m:
                port = int(m.group(1))
                break
        check(port is not None, "boneyard serve starts")
        base = f"http://127.0.0.1:{port}"
        games = json.load(urllib.request.urlopen(base + "/api/games"))
        listed = games["games"] if isinstance(games, dict) else games
        check(any(g.get("name") == NAME for g in listed), "the server lists it (/api/games)")
        body = json.dumps({"game": NAME, "seats": ["bot:casual", "bot:beginner"], "seed": 5, "bot_delay_ms": 0})
        req = urllib.request.Request(base + "/api/tables", data=body.encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        table = json.load(urllib.request.urlopen(req))
        record = None
        for _ in range(200):
            try:
                record = json.load(urllib.request.urlopen(f"{base}/api/tables/{table['id']}/record"))
                break
            except urllib.error.HTTPError as e:
                if e.code != 409:
                    raise
                time.sleep(0.05)
        check(record is not None and record.get("game") == NAME, "the server: its bots play a table of it out")
    finally:
        srv.terminate()
        srv.wait(10)

# Python
if PYPATH:
    code = f"""
import boneyard
assert "{NAME}" in boneyard.registered_games()
g = boneyard.load_game("{NAME}")
s = g.new_initial_state(seed=1)
import random
r = random.Random(1)
while not s.is_terminal():
    if s.is_chance_node():
        s.apply_action(r.choice([a for a, _ in s.chance_outcomes()]))
    else:
        s.apply_action(r.choice(s.legal_actions()))
print("returns", s.returns())
"""
    p = subprocess.run([sys.executable, "-c", code], env=dict(ON, PYTHONPATH=PYPATH), capture_output=True, text=True,
                       timeout=120)
    check(p.returncode == 0 and "returns" in p.stdout, "Python plays it out: " + (p.stdout + p.stderr)[-300:])

sys.exit(1 if failures else 0)
