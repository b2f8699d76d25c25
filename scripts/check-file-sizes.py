#!/usr/bin/env python3
"""No source file under src/, python/src/ or web/src/ passes 800 lines
(issue 31): a file that grows past it is split by concern. Run by ctest
(file_sizes)."""
import os
import subprocess
import sys

LIMIT = 800
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
files = subprocess.run(["git", "ls-files", "src", "python/src", "web/src"], cwd=root, capture_output=True, text=True,
                       check=True).stdout.split()
# Files not yet added count too (a new file fails before its commit).
files += subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "src", "python/src", "web/src"], cwd=root,
                        capture_output=True, text=True, check=True).stdout.split()
over = []
for f in sorted(set(files)):
    path = os.path.join(root, f)
    if not os.path.isfile(path):
        continue
    with open(path, "rb") as fh:
        n = fh.read().count(b"\n")
    if n > LIMIT:
        over.append((n, f))
for n, f in over:
    print(f"{f}: {n} lines, over {LIMIT}: split it by concern")
if over:
    sys.exit(1)
print(f"every file under src/, python/src/ and web/src/ has at most {LIMIT} lines ({len(set(files))} files)")
