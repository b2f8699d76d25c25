#include "server/replay.h"

#include <fmt/format.h>

namespace boneyard::server {

std::unique_ptr<Session> replay_from_seed(const std::string& game, const OptionList& options, uint64_t seed,
                                          const std::vector<RecordEvent>& events) {
  auto s = std::make_unique<Session>(game, options, seed);
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    if (e.chance) {
      if (s->state().actor().kind != Actor::Chance)
        throw Error(
            fmt::format("event {}: a chance outcome where the game expects {}", i, to_string(s->state().actor())));
      const std::string got = s->chance();
      if (got != e.text)
        throw Error(
            fmt::format("event {}: the seed produces chance outcome '{}', the record says '{}'", i, got, e.text));
    } else {
      try {
        s->apply(e.seat, e.text);
      } catch (const Error& err) {
        throw Error(fmt::format("event {}: {}", i, err.what()));
      }
    }
  }
  return s;
}

std::unique_ptr<Session> replay_record_from_seed(const nlohmann::json& r) {
  Session start = Session::start_of_record(r);  // checks the form
  OptionList opts;
  if (r.contains("options"))
    for (const auto& [k, v] : r["options"].items()) opts.emplace_back(k, v.get<std::string>());
  auto s = replay_from_seed(start.entry().name, opts, start.seed(), Session::record_events(r));
  Session::from_record(r);  // hand results as recorded
  return s;
}

size_t replay_page_from(const std::string& text) {
  if (text.empty()) return 0;
  size_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9' || text.size() > 6)
      throw Error(fmt::format("'from' must be a step number from 0 to {}", kMaxReplayEvents));
    v = v * 10 + static_cast<size_t>(c - '0');
  }
  if (v > kMaxReplayEvents) throw Error(fmt::format("'from' must be a step number from 0 to {}", kMaxReplayEvents));
  return v;
}

nlohmann::json replay_steps(const nlohmann::json& r, size_t from) {
  using nlohmann::json;
  Session::start_of_record(r);  // the header first: "not a Boneyard record" before "missing events"
  const auto events = Session::record_events(r);
  if (events.size() > kMaxReplayEvents)
    throw Error(fmt::format("the record has {} events; a replay takes at most {}", events.size(), kMaxReplayEvents));
  Session::from_record(r);  // every move legal, every hand's result as recorded
  Session s = Session::start_of_record(r);
  json steps = json::array();
  const size_t total = events.size() + 1;
  const size_t to = std::min(total, from + kReplayPage);  // steps [from, to) are built
  size_t index = 0;
  auto step = [&](const RecordEvent* e) {
    if (index++ < from || index > to) return;
    const AnyState& st = s.state();
    json j{
        {"view", st.view(-1)}, {"scores", st.scores()}, {"hands_finished", st.hands().size()}, {"over", st.terminal()}};
    if (e) {
      j["chance"] = e->chance;
      j["text"] = e->text;
      if (!e->chance) j["seat"] = e->seat;
    }
    steps.push_back(std::move(j));
  };
  step(nullptr);
  size_t hands = 0;
  for (const auto& e : events) {
    s.apply_event(e);
    step(&e);
    const auto& hs = s.state().hands();
    if (hs.size() > hands) {
      hands = hs.size();
      if (index > from && index <= to) steps.back()["hand"] = summary_json(hs.back());
    }
  }
  const AnyState& st = s.state();
  json players = json::array();
  if (r.contains("players") && r["players"].is_array())
    for (const auto& p : r["players"]) players.push_back(p.is_string() ? p.get<std::string>() : std::string());
  json out{{"game", s.entry().name},  {"family", s.entry().family},
           {"seats", st.num_seats()}, {"players", players},
           {"over", st.terminal()},   {"from", from},
           {"total_steps", total},    {"next", to < total ? json(to) : json(nullptr)},
           {"steps", steps}};
  if (st.terminal()) out["returns"] = st.returns();
  return out;
}

}  // namespace boneyard::server
