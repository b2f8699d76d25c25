#pragma once
// The secrecy scan of the server's messages (server_test's Secrecy,
// watch_test's WatchSecrecy): every tile text a reader gets, against the
// tiles the full view says it may not know.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace boneyard::test {

// "6-3", "3|6" and "6-3:left" all name the tile "6-3"; "" for no tile.
inline std::string norm_tile(const std::string& s) {
  static const std::regex re("^(\\d+)[-|](\\d+)(:.*)?$");
  std::smatch m;
  if (!std::regex_match(s, m, re)) return "";
  int a = std::stoi(m[1]), b = std::stoi(m[2]);
  if (a < b) std::swap(a, b);
  return fmt::format("{}-{}", a, b);
}

inline void strings_of(const nlohmann::json& j, std::set<std::string>& out) {
  if (j.is_string()) {
    const std::string n = norm_tile(j.get<std::string>());
    if (!n.empty()) out.insert(n);
  } else if (j.is_structured()) {
    for (const auto& x : j) strings_of(x, out);
  }
}

// The tiles `viewer` (-1: a spectator) may not know in the full view.
inline std::set<std::string> forbidden(const nlohmann::json& full, int viewer) {
  std::set<std::string> hidden, known;
  const auto& seats = full.contains("players") && full["players"].is_array() ? full["players"] : full["hands"];
  for (const auto& h : seats) {
    const int k = h["seat"];
    strings_of(h["tiles"], k == viewer ? known : hidden);
    if (h.contains("known_tiles")) strings_of(h["known_tiles"], known);
    if (h.contains("discards")) strings_of(h["discards"], known);
  }
  if (full.contains("stock")) strings_of(full["stock"], hidden);
  std::set<std::string> out;
  for (const auto& t : hidden)
    if (!known.count(t)) out.insert(t);
  return out;
}

// Every tile text in a message outside the parts that are public by the
// game's rules once a hand is over (hand results, what a seat is known not
// to hold, the draws for the dealer and for the lead), added to `leaks` with
// its path when `bad` has it. `echo`: the message's top-level "move" is the reader's own, echoed.
inline void scan(const nlohmann::json& j, const std::set<std::string>& bad, const std::string& path,
                 std::vector<std::string>& leaks, bool echo = false) {
  static const std::set<std::string> skip = {"known_not_holding", "last_hand", "last_round", "first_dealer_draw",
                                             "lead_draws",        "notices",   "must_lead"};
  if (j.is_object()) {
    for (const auto& [k, v] : j.items())
      if (!skip.count(k) && !(echo && path.empty() && k == "move")) scan(v, bad, path + "." + k, leaks);
  } else if (j.is_array()) {
    // The log's entry of an earlier hand is the move that ended it, laid face
    // up for all (public_log.h): its tile may lie in a hidden hand now.
    const bool log = path.size() >= 4 && path.compare(path.size() - 4, 4, ".log") == 0;
    int hand = 0;
    if (log)
      for (const auto& e : j) hand = std::max(hand, e.value("hand", 0));
    for (size_t i = 0; i < j.size(); ++i)
      if (!log || j[i].value("hand", 0) == hand) scan(j[i], bad, fmt::format("{}[{}]", path, i), leaks);
  } else if (j.is_string()) {
    const std::string n = norm_tile(j.get<std::string>());
    if (!n.empty() && bad.count(n)) leaks.push_back(path + " = " + j.get<std::string>());
  }
}

}  // namespace boneyard::test
