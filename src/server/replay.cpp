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
        throw Error(fmt::format("event {}: a chance outcome where the game expects {}", i, to_string(s->state().actor())));
      const std::string got = s->chance();
      if (got != e.text)
        throw Error(fmt::format("event {}: the seed produces chance outcome '{}', the record says '{}'", i, got, e.text));
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

}  // namespace boneyard::server
