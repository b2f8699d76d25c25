#!/usr/bin/env bash
# Sets everything up on a fresh machine, then runs boneyard with your arguments.
#   ./run.sh play latin        ./run.sh rules        ./run.sh --help
set -euo pipefail
cd "$(dirname "$0")"
# `serve` also builds the WebAssembly engine: the app it serves offers games
# on this device, which need it (the full build makes it; the program alone
# does not).
[ "${1:-}" = serve ] && export BONEYARD_WASM=1
# Quiet: the build's own lines only when something is rebuilt (or fails).
BONEYARD_QUIET=1 NINJA_TARGETS=boneyard ./scripts/setup.sh >&2
exec ./build/boneyard "${@:---help}"
