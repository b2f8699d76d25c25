#!/usr/bin/env bash
# ctest python_install (docs/python.md, Installing): the documented install
# from a clean copy of the sources into a fresh virtual environment that
# sees Debian's numpy, then an import from outside the sources and a game.
#   install_test.sh SOURCE_DIR [CMAKE_BUILD_DIR]
# With a build dir, setup.py links that build's static libraries
# (BONEYARD_PREBUILT) instead of compiling the engine again; without, it
# compiles everything, as a user's install does.
set -euo pipefail
src=$(cd "$1" && pwd)
build=${2:+$(cd "$2" && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
# A clean copy: what setup.py needs, no build outputs or caches.
(cd "$src" && tar --exclude=__pycache__ --exclude='*.egg-info' -cf - setup.py src python) | tar -xf - -C "$tmp/src"
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
BONEYARD_PREBUILT=$build "$tmp/venv/bin/pip" install --no-build-isolation --no-index --quiet "$tmp/src"
# Nothing built is left in the sources (build/ is the CMake build's
# folder), and the extension carries no debug information and no symbol
# table (issue 36, 14).
if [ -e "$tmp/src/build" ]; then
  echo "pip install left $(du -sh "$tmp/src/build" | cut -f1) in build/ of the sources" >&2
  exit 1
fi
so=$(find "$tmp/venv" -name '_boneyard*.so' | head -1)
if readelf -S "$so" | grep -q -e '\.debug_info' -e '\.symtab'; then
  echo "$so is not stripped: $(du -h "$so" | cut -f1)" >&2
  exit 1
fi
cd "$tmp"
"$tmp/venv/bin/python" - "$tmp/venv" <<'PY'
import random
import sys

import boneyard

assert boneyard.__file__.startswith(sys.argv[1]), f"imported {boneyard.__file__}, not the venv's"
game = boneyard.load_game("latin(single_hand=true)")
rng = random.Random(1)
state = game.new_initial_state()
while not state.is_terminal():
    state.apply_action(rng.choice(state.legal_actions()))
assert sum(state.returns()) == 0.0
env = boneyard.DominoEnv("two-draw", {"single_hand": True})
env.reset(seed=2)
for agent in env.agent_iter():
    obs, reward, term, trunc, info = env.last()
    env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
print("installed", boneyard.__file__, "returns", state.returns())
PY
