#!/usr/bin/env python3
"""README's "Where things are" map names every folder of the repository.

Every folder holding a tracked file (git ls-files; fuzz/corpus/ and
tests/data/ count as their parents) must appear in the map's code block as
`path/`, and every `path/` the map names must exist. Run by ctest
(readme_map), so a folder added without a line in the map fails the tests.
"""
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
m = re.search(r"## Where things are\n.*?```\n(.*?)```", readme, re.S)
if not m:
    sys.exit('README.md has no "## Where things are" section with a map in a code block')
named = set(re.findall(r"(?<![\w./-])(\.?[\w-]+(?:/[\w-]+)*)/(?=[\s,)]|$)", m.group(1), re.M))

files = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout.split()
folders = set()
for f in files:
    d = os.path.dirname(f)
    if not d:
        continue
    parts = d.split("/")
    if parts[:2] in (["fuzz", "corpus"], ["tests", "data"]):
        d = "/".join(parts[:2])
    folders.add(d)
    # a parent with no file of its own (src/ has games.cpp; tests/ has none) is named by its children
# A game's folder (src/<folder>/ with a register.cpp) is named by the map's
# `src/<game>/`: adding a game touches no file outside its folder but its
# one registration line (README, "Adding a game").
games = "src/<game>" in m.group(1)
missing = sorted(
    d
    for d in folders
    if d not in named and not (games and re.fullmatch(r"src/[\w-]+", d) and os.path.exists(os.path.join(root, d, "register.cpp")))
)
stale = sorted(n for n in named if not os.path.isdir(os.path.join(root, n)))
for d in missing:
    print(f"README.md's map does not name the folder {d}/")
for n in stale:
    print(f"README.md's map names {n}/, which does not exist")
if missing or stale:
    sys.exit(1)
print(f"README.md's map names all {len(folders)} folders")
