#!/usr/bin/env bash
# After a failed ctest run: for each failed test, the lines of its output
# that say why (a GoogleTest failure, a browser test's FAIL, a crash), so
# that the end of a long CI log names the reason and not only the test.
#   scripts/why-failed.sh [BUILD_DIR]
set -uo pipefail
dir="${1:-build}/Testing/Temporary"
[ -f "$dir/LastTestsFailed.log" ] || exit 0
echo "==== why each failed test failed (whole output: $dir/LastTest.log; disk free: $(df -h . | awk 'NR==2{print $4}')) ===="
while IFS=: read -r _ name; do
  echo "---- $name"
  awk -v name="$name" '
    $0 ~ "^[0-9]+/[0-9]+ Test: " name "$" { on = 1; next }
    on && /^[0-9]+\/[0-9]+ Test: / { on = 0 }
    !on || /^\[ (RUN|  +OK) / || /^ok / { next }
    # a GoogleTest failure: from "file:line: Failure" to its FAILED line
    / Failure$/ { block = 1 }
    block || /FAILED|FAIL[ :]|[Ee]rror|timed out|Timeout|[Ee]xception|Sanitizer|Segmentation|Aborted|Killed|core dumped|^Test (Failed|Passed)|time elapsed/ {
      print; if (++n >= 60) exit
    }
    /^\[  FAILED  \]/ { block = 0 }
  ' "$dir/LastTest.log"
done < "$dir/LastTestsFailed.log"
