#!/usr/bin/env bash
# Installs what the build needs (Debian packages, only when missing) and
# configures + builds into build/ (or $BUILD_DIR with extra CMake flags),
# then the browser app into web/dist (npm ci once, from package-lock.json).
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
for pkg in cmake ninja-build g++ libgtest-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev libfmt-dev pkg-config \
           libboost-dev libsqlite3-dev libpq-dev postgresql haproxy libssl-dev libsodium-dev libicu-dev chromium fonts-ipafont-gothic libzstd-dev openmpi-bin libopenmpi-dev \
           pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-dev python3-setuptools python3-venv ccache clang-format emscripten; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ "${#need[@]}" -gt 0 ]; then
  echo "Installing: ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
# The browser app (web/): TypeScript bundled by esbuild; puppeteer-core drives
# Debian's chromium in the browser tests. No downloads at run time.
if [ ! -d web/node_modules ]; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
# BONEYARD_QUIET (run.sh): the build says nothing unless it fails or has
# work to do, so `./run.sh play latin` starts with the game.
QUIET="${BONEYARD_QUIET:-}"
# ccache: a rebuild of the same sources (another clone, CI after a session)
# compiles nothing twice. Paths are made relative to the folder above the
# repository, so clones in different places share the cache.
LAUNCHER=""
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$PWD")}" CCACHE_NOHASHDIR=1
  LAUNCHER="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
fi
BUILD_DIR="${BUILD_DIR:-build}"
# ninja in DIR (targets after it). Quiet: ninja's own lines when it has
# nothing to do are left out; a build's lines still stream as they come (a
# dry run cannot tell: the globbed folders are re-checked only by a real run).
ninja_quiet() {
  local dir="$1" rc
  shift
  if [ -z "$QUIET" ]; then
    ninja -C "$dir" "$@"
    return
  fi
  set +e +o pipefail
  ninja -C "$dir" "$@" 2>&1 |
    grep -v -E '^ninja: (Entering directory|no work to do)|Re-checking globbed directories' >&2
  rc=${PIPESTATUS[0]}
  set -e -o pipefail
  return "$rc"
}
# The engine in WebAssembly (docs/wasm.md): Debian's emscripten compiles the
# same engine sources into web/dist/engine/ (engine.js + engine.wasm) for the
# app's Web Worker, in build-wasm/ (configured once; ninja then rebuilds only
# what changed, through ccache). Built with the whole build (NINJA_TARGETS
# unset) or BONEYARD_WASM=1; never in the sanitizer or fuzz builds
# (./test.sh --sanitize: the comparison test is skipped there); BONEYARD_WASM=0 skips it.
WASM="${BONEYARD_WASM:-}"
if [ -z "$WASM" ]; then
  WASM=1
  [ -n "${NINJA_TARGETS:-}" ] && WASM=0
  case "${CMAKE_EXTRA:-}" in *BONEYARD_SANITIZE=ON* | *BONEYARD_FUZZ=ON*) WASM=0 ;; esac
fi
if [ "$WASM" = 1 ]; then
  if [ ! -f build-wasm/build.ninja ]; then
    emcmake cmake -S . -B build-wasm -G Ninja -DCMAKE_BUILD_TYPE=Release $LAUNCHER >/dev/null
  fi
  ninja_quiet build-wasm
fi
if [ -n "$QUIET" ]; then
  log="$(mktemp)"
  (cd web && node build.mjs) >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; exit 1; }
  rm -f "$log"
else
  (cd web && node build.mjs) >&2
fi
# Debian's interpreter (it has numpy), even when another python3 comes first on PATH.
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DPython3_EXECUTABLE=/usr/bin/python3 $LAUNCHER ${CMAKE_EXTRA:-} >/dev/null
ninja_quiet "$BUILD_DIR" ${NINJA_TARGETS:-}
