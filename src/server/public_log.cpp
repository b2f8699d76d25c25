#include "server/public_log.h"

#include <algorithm>
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

void PublicLogText::clear() {
  first_ = next_ = 0;
  entries_.clear();
}

void PublicLogText::append(const Session& s, int hand, std::string& out) {
  const auto& ev = s.events();
  if (next_ > ev.size()) clear();  // not this session's (the owner forgot clear())
  for (; next_ < ev.size(); ++next_) {
    if (is_deal(ev[next_])) {  // earlier hands' entries are never shown again
      entries_.clear();
      first_ = next_;
    }
    // Keys in the order nlohmann's dump gives them, "hand" first.
    const std::string text = entry(ev[next_], next_, face_down(s)).dump(-1, ' ', false, json::error_handler_t::replace);
    entries_.push_back(text.substr(1));
    if (entries_.size() > max_) {
      entries_.pop_front();
      ++first_;
    }
  }
  out += '[';
  const std::string head = fmt::format("{{\"hand\":{},", hand);
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (i) out += ',';
    out += head;
    out += entries_[i];
  }
  out += ']';
}

}  // namespace boneyard::server
