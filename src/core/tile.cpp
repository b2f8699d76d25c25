#include "core/tile.h"

#include <fmt/format.h>

#include "core/error.h"

namespace boneyard {

std::string to_string(Tile t) { return fmt::format("{}-{}", t.high(), t.low()); }

namespace {
// Reads 1 or 2 decimal digits at s[i]; returns -1 when none.
int read_number(std::string_view s, size_t& i) {
  if (i >= s.size() || s[i] < '0' || s[i] > '9') return -1;
  int v = s[i++] - '0';
  if (i < s.size() && s[i] >= '0' && s[i] <= '9') v = v * 10 + (s[i++] - '0');
  if (i < s.size() && s[i] >= '0' && s[i] <= '9') return -1;  // 3+ digits
  return v;
}
}  // namespace

Tile parse_tile(std::string_view text, int max_pip) {
  std::string_view s = text;
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  auto fail = [&](std::string_view why) -> Error {
    return Error(
        fmt::format("bad tile '{}': {}; expected a-b, a|b or [a|b] with numbers 0..{} (e.g. 6-4)", text, why, max_pip));
  };
  bool bracket = false;
  if (!s.empty() && s.front() == '[') {
    if (s.back() != ']') throw fail("'[' without closing ']'");
    bracket = true;
    s = s.substr(1, s.size() - 2);
  }
  size_t i = 0;
  const int a = read_number(s, i);
  if (a < 0) throw fail("expected a number first");
  if (i >= s.size()) throw fail("missing separator and second number");
  const char sep = s[i++];
  if (sep != '-' && sep != '|') throw fail(fmt::format("unexpected '{}' between the numbers", sep));
  if (bracket && sep != '|') throw fail("inside brackets use '|'");
  const int b = read_number(s, i);
  if (b < 0) throw fail("expected a number after the separator");
  if (i != s.size()) throw fail("unexpected text after the tile");
  if (a > max_pip || b > max_pip)
    throw Error(fmt::format("bad tile '{}': numbers must be 0..{} in this set", text, max_pip));
  return Tile::of(a, b);
}

}  // namespace boneyard
