#include "server/public_log.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <string>

#include <fmt/format.h>

namespace boneyard::server {

using nlohmann::json;

namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

bool is_deal(const RecordEvent& e) { return e.chance && starts_with(e.text, "deal"); }

bool face_down(const Session& s) { return s.entry().family == "dice-and-dominoes"; }

// One event's entry, without its hand.
json entry(const RecordEvent& e, std::size_t i, bool face_down) {
  json j{{"n", i}, {"seat", e.seat >= 0 ? json(e.seat) : json(nullptr)}, {"move", nullptr}};
  if (e.chance) {
    if (is_deal(e)) {
      j["kind"] = "deal";
    } else if (starts_with(e.text, "roll ")) {
      j["kind"] = "roll";
      j["move"] = e.text.substr(5);  // the dice are on the table for all
    } else {
      j["kind"] = "chance";
    }
  } else if (face_down && e.text.find('-') != std::string::npos) {
    j["kind"] = "laid";  // tiles laid face down: which ones is the player's secret
  } else {
    j["kind"] = "move";
    j["move"] = e.text;
  }
  return j;
}

}  // namespace

json public_log(const Session& s, std::size_t max, int hand) {
  const auto& ev = s.events();
  std::size_t deal = 0;
  for (std::size_t i = 0; i < ev.size(); ++i)
    if (is_deal(ev[i])) deal = i;
  std::size_t from = ev.size() > max ? ev.size() - max : 0;
  from = std::max(from, deal);
  json out = json::array();
  for (std::size_t i = from; i < ev.size(); ++i) {
    json j = entry(ev[i], i, face_down(s));
    j["hand"] = hand;
    out.push_back(std::move(j));
  }
  return out;
}

namespace {

// Text that JSON takes as it is (the engine's canonical moves are).
bool plain(const std::string& t) {
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
    if (is_deal(ev[scanned_])) deal_ = scanned_;
  const std::size_t from = std::max(ev.size() > max_ ? ev.size() - max_ : 0, deal_);
  const bool down = face_down(s);
  auto it = std::back_inserter(out);
  out += '[';
  for (std::size_t i = from; i < ev.size(); ++i) {
    const RecordEvent& e = ev[i];
    if (i > from) out += ',';
    const char* kind = "move";
    std::string_view move = e.text;
    bool shown = true;
    if (e.chance) {
      shown = !is_deal(e) && starts_with(e.text, "roll ");
      kind = is_deal(e) ? "deal" : shown ? "roll" : "chance";
      if (shown) move.remove_prefix(5);
    } else if (down && e.text.find('-') != std::string::npos) {
      kind = "laid";
      shown = false;
    }
    fmt::format_to(it, "{{\"hand\":{},\"kind\":\"{}\",\"move\":", hand, kind);
    if (!shown) {
      out += "null";
    } else if (const std::string m(move); plain(m)) {
      out += '"';
      out += m;
      out += '"';
    } else {
      out += json(m).dump(-1, ' ', false, json::error_handler_t::replace);
    }
    if (e.seat >= 0) fmt::format_to(it, ",\"n\":{},\"seat\":{}}}", i, e.seat);
    else fmt::format_to(it, ",\"n\":{},\"seat\":null}}", i);
  }
  out += ']';
}

}  // namespace boneyard::server
