#pragma once
// Small text helpers shared by every game's move parser.
#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace boneyard {

// Lower case, with surrounding blanks removed: how move input is compared.
inline std::string lower_trim(std::string_view t) {
  std::string s;
  for (char c : t) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// A whole number written with decimal digits only ("007" is 7) that fits
// in T; nothing for anything else (empty, signs, blanks, too big), so user
// text never meets std::stoul's exceptions.
template <class T>
std::optional<T> parse_whole(std::string_view s) {
  if (s.empty()) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  T x{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return x;
}

// A rule option's whole-number value in [lo, hi]; throws Error naming the
// option and what it accepts.
inline int parse_option_int(std::string_view key, std::string_view v, int lo, int hi) {
  int x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size() || x < lo || x > hi)
    throw Error(fmt::format("bad value '{}' for option {}; expected a whole number from {} to {}", v, key, lo, hi));
  return x;
}

// A rule option's on/off value (also true/false, 1/0, yes/no).
inline bool parse_option_bool(std::string_view key, std::string_view v) {
  if (v == "on" || v == "true" || v == "1" || v == "yes") return true;
  if (v == "off" || v == "false" || v == "0" || v == "no") return false;
  throw Error(fmt::format("bad value '{}' for option {}; expected on or off", v, key));
}

// "1 tile", "3 tiles": counts a person reads.
inline std::string count_of(int n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// Text from a request as an error may show it: at most 64 characters (then
// "...", never cut inside a UTF-8 character), a control character or a
// direction override as '?' (a NUL cut the message short, a megabyte of name
// was echoed whole, and an override turned the message around).
std::string shown_text(std::string_view s);

// Columns of the terminal for laying out the table: $COLUMNS, else the
// window of standard output, else 80 (pipes, tests).
int terminal_width();

// Joins `items` into lines no wider than `width`: the first line starts
// with `first`, the following ones with `indent`; items are never split.
std::string wrap_items(const std::vector<std::string>& items, std::string_view first, std::string_view indent,
                       int width, std::string_view sep = "");

// Every line of `text` no wider than `width`: a longer line breaks at blanks,
// its following rows indented two past the line's own indent; a word wider
// than a row breaks between tiles ("[6|4][4|2]"), after a comma, or, as a
// last resort, anywhere. Tiles and words are never split otherwise.
std::string wrap_text(std::string_view text, int width);

}  // namespace boneyard
