#!/usr/bin/env bash
# scripts/why-failed.sh on a made-up ctest log: it must print the reason of
# each failed test (a GoogleTest failure block, a browser test's FAIL line)
# and nothing of the tests that passed.
set -euo pipefail
script="$1/scripts/why-failed.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/Testing/Temporary"
cat > "$dir/Testing/Temporary/LastTest.log" <<'LOG'
1/3 Testing: server_postgresql
1/3 Test: server_postgresql
Output:
[ RUN      ] Chat.TextIsKeptLiterallyAndBadLinesAreRefusedWithAClearError
[       OK ] Chat.TextIsKeptLiterallyAndBadLinesAreRefusedWithAClearError (68 ms)
[ RUN      ] Chat.LinesAreLimited
tests/server/chat_test.cpp:88: Failure
Expected equality of these values:
  r.status
    Which is: 429
  200
[  FAILED  ] Chat.LinesAreLimited (74 ms)
Test Failed.
2/3 Testing: quiet_one
2/3 Test: quiet_one
Output:
[ RUN      ] ClockTest.TheBankIsSpentBeforeTheTimeout
an error the test expected
Test Passed.
3/3 Testing: web_browser
3/3 Test: web_browser
Output:
ok   the lobby opens
FAIL the board shows my hand
Test Failed.
LOG
printf '1:server_postgresql\n3:web_browser\n' > "$dir/Testing/Temporary/LastTestsFailed.log"
out=$("$script" "$dir")
echo "$out"
for want in "---- server_postgresql" "chat_test.cpp:88: Failure" "Which is: 429" "[  FAILED  ] Chat.LinesAreLimited" \
            "---- web_browser" "FAIL the board shows my hand"; do
  grep -qF -- "$want" <<<"$out" || { echo "missing: $want"; exit 1; }
done
for unwanted in "quiet_one" "an error the test expected" "TheBankIsSpentBeforeTheTimeout" "ok   the lobby opens"; do
  if grep -qF -- "$unwanted" <<<"$out"; then echo "should not be shown: $unwanted"; exit 1; fi
done
# Nothing failed: nothing is printed.
rm "$dir/Testing/Temporary/LastTestsFailed.log"
[ -z "$("$script" "$dir")" ] || { echo "printed something with no failed test"; exit 1; }
echo "why-failed.sh: every reason shown, nothing else"
