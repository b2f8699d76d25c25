#pragma once
// Small text helpers shared by every game's move parser.
#include <cctype>
#include <string>
#include <string_view>

namespace boneyard {

// Lower case, with surrounding blanks removed: how move input is compared.
inline std::string lower_trim(std::string_view t) {
  std::string s;
  for (char c : t) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace boneyard
