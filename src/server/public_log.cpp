#include "server/public_log.h"

#include <algorithm>
#include <string>

namespace boneyard::server {

using nlohmann::json;

namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

}  // namespace

json public_log(const Session& s, std::size_t max, int hand) {
  const auto& ev = s.events();
  const bool face_down = s.entry().family == "dice-and-dominoes";
  std::size_t deal = 0;
  for (std::size_t i = 0; i < ev.size(); ++i)
    if (ev[i].chance && starts_with(ev[i].text, "deal")) deal = i;
  std::size_t from = ev.size() > max ? ev.size() - max : 0;
  from = std::max(from, deal);
  json out = json::array();
  for (std::size_t i = from; i < ev.size(); ++i) {
    const RecordEvent& e = ev[i];
    json j{{"n", i}, {"hand", hand}, {"seat", e.seat >= 0 ? json(e.seat) : json(nullptr)}, {"move", nullptr}};
    if (e.chance) {
      if (starts_with(e.text, "deal")) {
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
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace boneyard::server
