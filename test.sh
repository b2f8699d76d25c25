#!/usr/bin/env bash
# Sets everything up on a fresh machine, builds, and runs every test (unit,
# rule, property, CLI, protocol and fuzz-smoke tests) with ctest.
#   ./test.sh              the Release build in build/
#   ./test.sh --sanitize   an ASan+UBSan build in build-asan/ (smaller property runs)
set -euo pipefail
cd "$(dirname "$0")"
if [ "${1:-}" = "--sanitize" ]; then
  export BUILD_DIR=build-asan BUILD_TYPE=RelWithDebInfo CMAKE_EXTRA="-DBONEYARD_SANITIZE=ON -DBONEYARD_BENCH=OFF"
  export BONEYARD_PROPERTY_GAMES="${BONEYARD_PROPERTY_GAMES:-200}"
  export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
fi
./scripts/setup.sh
cd "${BUILD_DIR:-build}"
if ! ctest --output-on-failure -j"$(nproc)" --timeout 1800; then
  ../scripts/why-failed.sh .  # the reasons again, at the end of a long log
  exit 1
fi
