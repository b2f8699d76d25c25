#!/usr/bin/env bash
# The declared checks of the house (run by ctest, so by ./test.sh and CI):
#   cpp   every C++ source formatted as .clang-format says (clang-format 14)
#   web   the app's TypeScript type-checks (tsc --noEmit, strict) and every
#         file of web/ is formatted as web/.prettierrc.json says (prettier)
# Fix what they report with:  scripts/check-format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
cpp_files() { git ls-files '*.cpp' '*.h' 2>/dev/null || find src tests bench fuzz python -name '*.cpp' -o -name '*.h'; }
if [ "$what" = "--fix" ]; then
  cpp_files | xargs clang-format -i
  (cd web && npx --no-install prettier --write . >/dev/null)
  exit 0
fi
if [ "$what" = all ] || [ "$what" = cpp ]; then
  cpp_files | xargs clang-format --dry-run --Werror
  echo "C++: every file formatted"
fi
if [ "$what" = all ] || [ "$what" = web ]; then
  (cd web && npx --no-install tsc --noEmit && echo "TypeScript: no type error" &&
    npx --no-install prettier --check --log-level warn . && echo "web/: every file formatted") ||
    { echo "web/: run scripts/check-format.sh --fix, or fix the type errors above" >&2; exit 1; }
fi
