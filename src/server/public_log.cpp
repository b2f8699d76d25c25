#include "server/public_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

namespace boneyard::server {

using nlohmann::json;

namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

bool is_deal(const RecordEvent& e) { return e.chance && starts_with(e.text, "deal"); }

// What every seat may know of one event: its kind and, when shown, the
// move's text (the secrecy rule of the log, for both of its forms below).
struct Shown {
  const char* kind;
  std::optional<std::string> move;  // none: withheld
};

// The game says which chance outcomes are public (GameEntry::public_chance:
// the dice) and whether its simultaneous moves are laid face down.
Shown shown(const RecordEvent& e, const GameEntry& game) {
  if (e.chance) {
    if (is_deal(e)) return {"deal", std::nullopt};
    if (game.public_chance)
      if (auto seen = game.public_chance(e.text)) return {"roll", std::move(seen)};
    return {"chance", std::nullopt};
  }
  if (game.face_down && e.text.find('-') != std::string::npos)
    return {"laid", std::nullopt};  // which tiles is the player's secret
  return {"move", e.text};
}

// The event that ended the hand before the hand in play, when the log
// starts at the hand in play's deal (`from` == `deal`, not cut short): it
// reaches a reader in the same message as the next deal, so without it
// "Last moves" would never show a hand's last move. It is public history
// (everyone saw it played), whoever holds its tile now. Returns its index
// and the hand's number, or nothing.
std::optional<std::pair<std::size_t, int>> hand_end(const Session& s, std::size_t deal, std::size_t from) {
  const auto& ends = s.hand_ends();
  if (ends.empty() || ends.back() >= deal || from > deal) return std::nullopt;
  return std::pair{ends.back(), static_cast<int>(ends.size())};
}

// The hand in play's first deal: the first deal after the last hand's end.
// A redeal (latin's five doubles, Texas 42's four passes) deals again in
// the same hand; the log keeps the first deal so that who asked for it, or
// the four passes, stay in "Last moves".
bool opens_hand(const Session& s, std::size_t i) {
  const auto& ends = s.hand_ends();
  const auto after = std::lower_bound(ends.begin(), ends.end(), i);  // the ends before i: [begin, after)
  const std::size_t since = after == ends.begin() ? 0 : *std::prev(after) + 1;
  for (std::size_t k = since; k < i; ++k)
    if (is_deal(s.events()[k])) return false;
  return true;
}

// The first event of the log: the hand in play's first deal, or the last `max`.
std::size_t window(std::size_t events, std::size_t max, std::size_t deal) {
  return std::max(events > max ? events - max : 0, deal);
}

}  // namespace

json public_log(const Session& s, std::size_t max, int hand) {
  const auto& ev = s.events();
  std::size_t deal = 0;
  for (std::size_t i = 0; i < ev.size(); ++i)
    if (is_deal(ev[i]) && opens_hand(s, i)) deal = i;
  const std::size_t from = window(ev.size(), max, deal);
  json out = json::array();
  auto add = [&](std::size_t i, int h) {
    const Shown x = shown(ev[i], s.entry());
    out.push_back({{"n", i},
                   {"hand", h},
                   {"seat", ev[i].seat >= 0 ? json(ev[i].seat) : json(nullptr)},
                   {"kind", x.kind},
                   {"move", x.move ? json(*x.move) : json(nullptr)}});
  };
  if (const auto end = hand_end(s, deal, from)) add(end->first, end->second);
  for (std::size_t i = from; i < ev.size(); ++i) add(i, hand);
  return out;
}

namespace {

// Text that JSON takes as it is (the engine's canonical moves are).
bool plain(std::string_view t) {
  for (const unsigned char c : t)
    if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) return false;
  return true;
}

}  // namespace

// The text nlohmann's dump gives public_log's entries: keys in order
// (hand, kind, move, n, seat), no spaces.
void PublicLogText::append(const Session& s, int hand, std::string& out) {
  const auto& ev = s.events();
  if (scanned_ > ev.size()) clear();  // not this session's (the owner forgot clear())
  for (; scanned_ < ev.size(); ++scanned_)
    if (is_deal(ev[scanned_]) && opens_hand(s, scanned_)) deal_ = scanned_;
  const std::size_t from = window(ev.size(), max_, deal_);
  auto it = std::back_inserter(out);
  bool first = true;
  auto add = [&](std::size_t i, int h) {
    const RecordEvent& e = ev[i];
    if (!first) out += ',';
    first = false;
    const Shown x = shown(e, s.entry());
    fmt::format_to(it, "{{\"hand\":{},\"kind\":\"{}\",\"move\":", h, x.kind);
    if (!x.move) {
      out += "null";
    } else if (plain(*x.move)) {
      out += '"';
      out += *x.move;
      out += '"';
    } else {
      out += json(*x.move).dump(-1, ' ', false, json::error_handler_t::replace);
    }
    if (e.seat >= 0)
      fmt::format_to(it, ",\"n\":{},\"seat\":{}}}", i, e.seat);
    else
      fmt::format_to(it, ",\"n\":{},\"seat\":null}}", i);
  };
  out += '[';
  if (const auto end = hand_end(s, deal_, from)) add(end->first, end->second);
  for (std::size_t i = from; i < ev.size(); ++i) add(i, hand);
  out += ']';
}

}  // namespace boneyard::server
