#include "record/session.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

namespace boneyard {

using nlohmann::json;

Session::Session(std::string_view game, const OptionList& options, uint64_t seed)
    : entry_(&find_game(game)), options_(options), seed_(seed), state_(entry_->make(options, seed)) {
  players_.assign(static_cast<size_t>(state_->num_seats()), "");
}

std::string Session::apply(int seat, std::string_view move) {
  std::string canon = state_->apply(seat, move);
  events_.push_back({false, seat, canon});
  return canon;
}

std::string Session::chance() {
  std::string text = state_->apply_chance();
  events_.push_back({true, -1, text});
  return text;
}

void Session::chance(std::string_view outcome) {
  state_->apply_chance(outcome);
  events_.push_back({true, -1, std::string(outcome)});
}

std::string Session::bot_move(int seat, AnyBot& bot) {
  std::string text = state_->play_bot(seat, bot);
  events_.push_back({false, seat, text});
  return text;
}

void Session::settle_chance() {
  while (state_->actor().kind == Actor::Chance) chance();
}

json summary_json(const HandSummary& h) {
  json j{{"winner_side", h.winner_side >= 0 ? json(h.winner_side) : json(nullptr)},
         {"side_points", h.side_points},
         {"how", h.how},
         {"text", h.text}};
  if (!h.next_json.empty()) j["next_leader"] = json::parse(h.next_json);
  if (!h.detail_json.empty()) j["detail"] = json::parse(h.detail_json);
  return j;
}

json Session::record() const {
  json opts = json::object();
  for (const auto& [k, v] : options_) opts[k] = v;
  json ev = json::array();
  for (const auto& e : events_) {
    if (e.chance) ev.push_back({{"chance", e.text}});
    else ev.push_back({{"seat", e.seat}, {"move", e.text}});
  }
  json hands = json::array();
  for (const auto& h : state_->hands()) hands.push_back(summary_json(h));
  json result{{"over", state_->terminal()}, {"scores", state_->scores()}};
  if (state_->terminal()) result["returns"] = state_->returns();
  return {{"format", "boneyard-record"},
          {"version", 1},
          {"game", entry_->name},
          {"options", opts},
          {"effective_options", state_->options()},
          {"seed", seed_},
          {"players", players_},
          {"events", ev},
          {"hands", hands},
          {"result", result}};
}

namespace {
const json& field(const json& j, const char* key, json::value_t type, const char* what) {
  auto it = j.find(key);
  if (it == j.end()) throw Error(fmt::format("bad record: missing '{}' ({})", key, what));
  const bool ok = it->type() == type || (type == json::value_t::number_unsigned && it->is_number_integer() && *it >= 0);
  if (!ok) throw Error(fmt::format("bad record: '{}' must be {}", key, what));
  return *it;
}
}  // namespace

Session Session::start_of_record(const json& r) {
  if (!r.is_object()) throw Error("bad record: expected a JSON object");
  if (r.value("format", "") != "boneyard-record")
    throw Error("bad record: 'format' must be \"boneyard-record\" (is this a Boneyard record?)");
  if (!r.contains("version") || !r["version"].is_number_integer() || r["version"] != 1)
    throw Error("bad record: unsupported 'version' (this program reads version 1)");
  const std::string game = field(r, "game", json::value_t::string, "a game name").get<std::string>();
  OptionList opts;
  if (r.contains("options")) {
    if (!r["options"].is_object()) throw Error("bad record: 'options' must be an object of strings");
    for (const auto& [k, v] : r["options"].items()) {
      if (!v.is_string()) throw Error(fmt::format("bad record: option '{}' must be a string", k));
      opts.emplace_back(k, v.get<std::string>());
    }
  }
  const uint64_t seed = field(r, "seed", json::value_t::number_unsigned, "a whole number").get<uint64_t>();
  Session s(game, opts, seed);
  if (r.contains("players") && r["players"].is_array())
    for (size_t i = 0; i < r["players"].size() && i < s.players_.size(); ++i)
      if (r["players"][i].is_string()) s.players_[i] = r["players"][i].get<std::string>();
  return s;
}

std::vector<RecordEvent> Session::record_events(const json& r) {
  const json& events = field(r, "events", json::value_t::array, "an array of events");
  std::vector<RecordEvent> out;
  for (const json& e : events) {
    const auto n = out.size();
    if (!e.is_object()) throw Error(fmt::format("bad record: event {}: an event must be an object", n));
    if (e.contains("chance")) {
      if (!e["chance"].is_string()) throw Error(fmt::format("bad record: event {}: 'chance' must be a string", n));
      out.push_back({true, -1, e["chance"].get<std::string>()});
    } else {
      if (!e.contains("seat") || !e["seat"].is_number_integer())
        throw Error(fmt::format("bad record: event {}: 'seat' must be a seat number", n));
      if (!e.contains("move") || !e["move"].is_string())
        throw Error(fmt::format("bad record: event {}: 'move' must be a string", n));
      out.push_back({false, e["seat"].get<int>(), e["move"].get<std::string>()});
    }
  }
  return out;
}

void Session::apply_event(const RecordEvent& e) {
  try {
    if (e.chance) chance(e.text);
    else apply(e.seat, e.text);
  } catch (const Error& err) {
    throw Error(fmt::format("bad record: event {}: {}", events_.size(), err.what()));
  }
}

Session Session::from_record(const json& r, int upto) {
  Session s = start_of_record(r);
  const auto events = record_events(r);
  for (const auto& e : events) {
    if (upto >= 0 && static_cast<int>(s.events_.size()) >= upto) break;
    s.apply_event(e);
  }
  // The recorded hand results must be what the replay produced.
  if (r.contains("hands") && r["hands"].is_array()) {
    const auto& got = s.state().hands();
    const json& want = r["hands"];
    for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
      const json g = summary_json(got[i]);
      if (!want[i].is_object() || want[i].value("side_points", json()) != g["side_points"] ||
          want[i].value("winner_side", json()) != g["winner_side"])
        throw Error(fmt::format("bad record: hand {} replays to {} but the record says {}", i + 1,
                                g["side_points"].dump(), want[i].is_object() ? want[i].value("side_points", json()).dump() : want[i].dump()));
    }
    if (upto < 0 && want.size() != got.size())
      throw Error(fmt::format("bad record: it lists {} hands but its events make {}", want.size(), got.size()));
  }
  return s;
}

json parse_record_text(std::string_view text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) throw Error("bad record: not valid JSON");
  return j;
}

std::string write_record(const Session& s, const std::string& dir, const std::string& tag) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("cannot create record folder '{}': {}", dir, ec.message()));
  const std::string path =
      fmt::format("{}/{}-{}{}.json", dir, s.entry().name, s.seed(), tag.empty() ? "" : "-" + tag);
  std::ofstream f(path);
  if (!f) throw Error(fmt::format("cannot write record '{}'", path));
  f << s.record().dump(1) << "\n";
  if (!f) throw Error(fmt::format("cannot write record '{}'", path));
  return path;
}

}  // namespace boneyard
