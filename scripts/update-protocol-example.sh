#!/usr/bin/env bash
# Rewrites the example session in docs/protocol.md with what the current build
# answers (tests/cli/terminal_test.cpp checks it stays so).
set -euo pipefail
cd "$(dirname "$0")/.."
NINJA_TARGETS="boneyard test_cli" ./scripts/setup.sh
BONEYARD_UPDATE_DOCS=1 build/test_cli --gtest_filter=Terminal.ProtocolDocExampleIsCurrent
git --no-pager diff --stat docs/protocol.md
