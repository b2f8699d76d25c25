#include "record/protocol.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>

#include "bots/levels.h"
#include "core/text.h"
#include "record/review.h"

namespace boneyard {

using nlohmann::json;

json actor_json(const Actor& a) {
  switch (a.kind) {
    case Actor::Seat:
      return {{"kind", "seat"}, {"seat", a.seat}};
    case Actor::Chance:
      return {{"kind", "chance"}};
    case Actor::Terminal:
      return {{"kind", "terminal"}};
    case Actor::Simultaneous: {
      json seats = json::array();
      for (int i = 0; i < 16; ++i)
        if ((a.seats >> i) & 1) seats.push_back(i);
      return {{"kind", "simultaneous"}, {"seats", seats}};
    }
  }
  return nullptr;
}

Protocol::Protocol() { register_all_games(); }

std::string Protocol::handle(std::string_view line) {
  json req, out;
  try {
    check_json_depth(line);
    req = json::parse(line);
  } catch (const Error& e) {  // deeper than any request needs
    req = json::value_t::discarded;
    out = {{"ok", false}, {"error", e.what()}};
  } catch (const json::out_of_range& e) {  // 1e400: valid JSON, but no number holds it
    req = json::value_t::discarded;
    out = {{"ok", false}, {"error", json_number_error(e)}};
  } catch (const json::exception&) {
    req = json::value_t::discarded;
    out = {{"ok", false}, {"error", "not valid JSON; send one object per line, e.g. {\"cmd\":\"help\"}"}};
  }
  if (req.is_discarded()) {
    // `out` already says why
  } else if (!req.is_object()) {
    out = {{"ok", false}, {"error", "expected a JSON object with a \"cmd\" field"}};
  } else {
    try {
      out = dispatch(req);
      out["ok"] = true;
    } catch (const Error& e) {
      out = {{"ok", false}, {"error", e.what()}};
    } catch (const json::exception& e) {
      out = {{"ok", false}, {"error", fmt::format("bad request: {}", e.what())}};
    }
    if (req.contains("id")) out["id"] = req["id"];
  }
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

Session& Protocol::session() {
  if (!s_) throw Error("no game yet: send {\"cmd\":\"new\",\"game\":\"latin\"} first");
  return *s_;
}

int Protocol::seat_of(const json& req) const {
  const Actor a = s_->state().actor();
  if (req.contains("seat"))
    return static_cast<int>(whole_number(req["seat"], "'seat' (a seat number)", 0, s_->state().num_seats() - 1));
  if (a.kind == Actor::Seat) return a.seat;
  throw Error(fmt::format("say which 'seat': {}", to_string(a)));
}

json Protocol::status() const {
  const AnyState& st = s_->state();
  json j{{"actor", actor_json(st.actor())},
         {"terminal", st.terminal()},
         {"hands_finished", st.hands().size()},
         {"scores", st.scores()}};
  if (st.terminal()) j["returns"] = st.returns();
  return j;
}

void Protocol::after_move(json& out, size_t hands_before) {
  if (auto_chance_ && !s_->state().terminal()) s_->settle_chance();
  const auto& hands = s_->state().hands();
  if (hands.size() > hands_before) {
    out["hands_over"] = json::array();
    for (size_t i = hands_before; i < hands.size(); ++i) out["hands_over"].push_back(summary_json(hands[i]));
  }
  out.update(status());
}

namespace {
// The fields each command takes ("cmd" and "id" with every one). Any other
// is an error, not ignored: "state" with "Seat" for "seat" showed every hand.
const std::map<std::string, std::vector<std::string>, std::less<>>& command_fields() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> f = {
      {"help", {}},
      {"quit", {}},
      {"games", {"detail"}},
      {"new", {"game", "options", "seed", "deal", "auto_chance"}},
      {"load", {"record", "upto"}},
      {"state", {"seat"}},
      {"render", {"seat"}},
      {"legal", {"seat"}},
      {"apply", {"move", "seat"}},
      {"chance", {"outcome"}},
      {"bot", {"bot", "seat", "apply", "think_ms", "iterations", "threads"}},
      {"values", {"bot", "seat", "think_ms", "iterations", "threads"}},
      {"result", {}},
      {"record", {}},
      {"review", {"seat", "hand", "think_ms", "iterations", "threads"}},
  };
  return f;
}

void check_fields(const std::string& cmd, const json& req) {
  const auto it = command_fields().find(cmd);
  if (it == command_fields().end())
    throw Error(fmt::format("unknown cmd '{}'; send {{\"cmd\":\"help\"}} for the list", shown_text(cmd)));
  for (const auto& [k, v] : req.items()) {
    if (k == "cmd" || k == "id" || std::find(it->second.begin(), it->second.end(), k) != it->second.end()) continue;
    std::string takes;
    for (const auto& f : it->second) takes += (takes.empty() ? "" : ", ") + f;
    throw Error(fmt::format("'{}' takes no field '{}'; {}", cmd, shown_text(k),
                            takes.empty() ? "it takes none" : "its fields: " + takes));
  }
}

std::string str(const json& req, const char* key) {
  if (!req.contains(key)) throw Error(fmt::format("missing '{}'", key));
  if (!req[key].is_string()) throw Error(fmt::format("'{}' must be a string", key));
  return req[key].get<std::string>();
}
// The optional search budget of a bot request (the same bounds as the
// command line's --think-ms, --iterations, --bot-threads).
BotOptions budget_of(const json& req) {
  BotOptions o;
  if (req.contains("think_ms")) {
    const json& v = req["think_ms"];
    if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 3600000)
      throw Error(fmt::format("'think_ms' must be a number of milliseconds from 0 to 3600000, not {}", v.dump()));
    o.think_ms = v.get<double>();
  }
  if (req.contains("iterations"))
    o.iterations = static_cast<int>(whole_number(req["iterations"], "'iterations'", 0, 100000000));
  if (req.contains("threads")) o.threads = static_cast<int>(whole_number(req["threads"], "'threads'", 1, 256));
  return o;
}

// The budget a bot request plays: a level (beginner ... expert) plays its
// own, as the server's seats and the CLI's do (bots/levels.h), so the
// offline app's levels are the server's; a budget given with a level is
// refused rather than silently dropped.
BotOptions budget_for(const GameEntry& g, const std::string& bot, const json& req) {
  if (!is_bot_level(bot)) return budget_of(req);
  for (const char* key : {"think_ms", "iterations", "threads"})
    if (req.contains(key))
      throw Error(fmt::format("'{}' plays the level's own budget: leave out '{}', or name a bot ({}) to give it one",
                              bot, key, level_search_bot(g)));
  return level_bot(g, bot).options;
}

json budget_json(const BotOptions& o) {
  return {{"think_ms", o.think_ms}, {"iterations", o.iterations}, {"threads", o.threads}};
}

bool same_budget(const BotOptions& a, const BotOptions& b) {
  return a.think_ms == b.think_ms && a.iterations == b.iterations && a.threads == b.threads;
}
}  // namespace

json Protocol::dispatch(const json& req) {
  const std::string cmd = str(req, "cmd");
  check_fields(cmd, req);  // before "no game yet": an unknown cmd is said as such
  if (cmd == "help") {
    return {{"commands",
             {"games {detail?}", "new {game, options?, seed?, deal?, auto_chance?}", "state {seat?}", "render {seat?}",
              "legal {seat?}", "apply {move, seat?}", "chance {outcome?}",
              "bot {bot, seat?, apply?, think_ms?, iterations?, threads?}",
              "values {bot?, seat?, think_ms?, iterations?, threads?}", "result", "record",
              "review {seat?, hand?, think_ms?, iterations?, threads?}", "load {record, upto?}", "quit"}},
            {"doc", "docs/protocol.md"}};
  }
  if (cmd == "quit") {
    quit_ = true;
    return json::object();
  }
  if (cmd == "games") {
    if (req.contains("detail") && !req["detail"].is_boolean()) throw Error("'detail' must be true or false");
    const bool detail = req.value("detail", false);
    json g = json::array();
    for (const auto& e : games()) {
      json one{{"name", e.name}, {"family", e.family}, {"summary", e.summary}, {"bots", all_bots(e)}};
      if (detail) {
        // The lobby's menu, as the server's /api/games gives it: each option's
        // value in this preset and its catalogue of values, and the seats.
        const json d = e.describe();
        one["sources"] = e.sources;
        one["options"] = d.value("options", json::object());
        one["catalogue"] = d.value("catalogue", json::object());
        one["seats"] = e.make({}, 0)->num_seats();
        one["strongest"] = level_search_bot(e);  // the strong and expert levels' bot
      }
      g.push_back(one);
    }
    return {{"games", g}};
  }
  if (cmd == "new") {
    const std::string game = str(req, "game");
    OptionList opts;
    if (req.contains("options")) {
      if (!req["options"].is_object()) throw Error("'options' must be an object like {\"target\":\"100\"}");
      for (const auto& [k, v] : req["options"].items())
        opts.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
    }
    const uint64_t seed = req.contains("seed") ? whole_number_u64(req["seed"], "'seed'") : 1;
    auto_chance_ = true;
    if (req.contains("auto_chance")) {
      if (!req["auto_chance"].is_boolean()) throw Error("'auto_chance' must be true or false");
      auto_chance_ = req["auto_chance"].get<bool>();
    }
    auto s = std::make_unique<Session>(game, opts, seed);
    if (req.contains("deal")) {
      std::vector<std::string> outcomes;
      if (req["deal"].is_string())
        outcomes.push_back(req["deal"].get<std::string>());
      else if (req["deal"].is_array()) {
        for (const auto& d : req["deal"]) {
          if (!d.is_string()) throw Error("'deal' must be a string or an array of strings");
          outcomes.push_back(d.get<std::string>());
        }
      } else
        throw Error("'deal' must be a string or an array of strings");
      for (const auto& o : outcomes) s->chance(o);
    }
    s_ = std::move(s);
    bots_.clear();
    json out{{"game", game},
             {"seats", s_->state().num_seats()},
             {"sides", s_->state().num_sides()},
             {"options", s_->state().options()}};
    after_move(out, 0);
    return out;
  }
  if (cmd == "load") {
    if (!req.contains("record")) throw Error("missing 'record' (a record object, see docs/records.md)");
    int upto = -1;
    if (req.contains("upto"))
      upto = static_cast<int>(whole_number(req["upto"], "'upto' (a number of events)", 0, INT32_MAX));
    s_ = std::make_unique<Session>(Session::from_record(req["record"], upto));
    auto_chance_ = false;
    bots_.clear();
    json out{{"game", s_->entry().name}, {"events", s_->events().size()}};
    out.update(status());
    return out;
  }
  Session& s = session();
  AnyState& st = s.state();
  if (cmd == "state") {
    const int seat = req.contains("seat") ? seat_of(req) : -1;
    json out{{"view", st.view(seat)}};
    out.update(status());
    return out;
  }
  if (cmd == "render") return {{"text", st.render(req.contains("seat") ? seat_of(req) : -1)}};
  if (cmd == "legal") {
    const Actor a = st.actor();
    if (a.kind == Actor::Simultaneous && !req.contains("seat")) {
      json per = json::object();
      for (int i = 0; i < st.num_seats(); ++i)
        if (a.acts(i)) per[std::to_string(i)] = st.legal_moves(i);
      return {{"actor", actor_json(a)}, {"legal_by_seat", per}};
    }
    if (a.kind == Actor::Chance || a.kind == Actor::Terminal)
      return {{"actor", actor_json(a)}, {"legal", json::array()}};
    const int seat = seat_of(req);
    return {{"actor", actor_json(a)}, {"seat", seat}, {"legal", st.legal_moves(seat)}};
  }
  if (cmd == "apply") {
    const std::string move = str(req, "move");
    const int seat = seat_of(req);
    const size_t before = st.hands().size();
    json out{{"move", s.apply(seat, move)}, {"seat", seat}};
    after_move(out, before);
    return out;
  }
  if (cmd == "chance") {
    const size_t before = st.hands().size();
    json out;
    if (req.contains("outcome")) {
      s.chance(str(req, "outcome"));
      out["outcome"] = req["outcome"];
    } else {
      out["outcome"] = s.chance();
    }
    after_move(out, before);
    return out;
  }
  if (cmd == "bot") {
    const std::string name = str(req, "bot");
    const int seat = seat_of(req);
    const BotOptions budget = budget_for(s.entry(), name, req);
    if (req.contains("apply") && !req["apply"].is_boolean()) throw Error("'apply' must be true or false");
    // One bot per (bot, seat) keeps its generator going over the game; a
    // call with another budget gets a bot with that budget (the budget of
    // each call applies to that call).
    auto& cached = bots_[{name, seat}];
    if (!cached.bot || !same_budget(cached.budget, budget))
      cached = {budget, make_bot(s.entry(), name, s.seed() * 1000003u + static_cast<uint64_t>(seat) + 17, budget)};
    AnyBot& bot = *cached.bot;
    const bool apply = !req.contains("apply") || req["apply"] == true;
    if (!apply) return {{"move", st.ask_bot(seat, bot)}, {"seat", seat}, {"budget", budget_json(budget)}};
    const size_t before = st.hands().size();
    json out{{"move", s.bot_move(seat, bot)}, {"seat", seat}, {"budget", budget_json(budget)}};
    after_move(out, before);
    return out;
  }
  if (cmd == "values") {
    // Every legal move's value for one seat, from that seat's view only.
    const int seat = seat_of(req);
    if (!req.contains("bot")) {
      // The coach's expected values (record/review.h), as hints give them.
      // The review's seed for the decision at hand: the same numbers as the
      // review's line for it (and the terminal's hint).
      const ExpectedValues ev =
          expected_values(st, seat, review_seed(s.seed(), s.events().size()), coach_options(budget_of(req)));
      json moves = json::array();
      for (size_t i = 0; i < ev.moves.size(); ++i)
        moves.push_back({{"move", ev.moves[i].first}, {"value", ev.moves[i].second}, {"se", ev.se[i]}});
      json out{{"method", ev.method}, {"unit", ev.unit}, {"seat", seat}, {"moves", moves}};
      if (ev.method == "sampled solver") out["samples"] = ev.samples;
      return out;
    }
    const std::string name = str(req, "bot");
    auto bot = make_bot(s.entry(), name, values_bot_seed(s.seed(), seat), budget_for(s.entry(), name, req));
    if (bot->omniscient())
      throw Error(fmt::format("'{}' sees every hand; values are from one seat's view: use a fair bot", name));
    json moves = json::array();
    for (const auto& [m, v] : st.bot_values(seat, *bot)) moves.push_back({{"move", m}, {"value", v}});
    json out{{"bot", name}, {"seat", seat}, {"moves", moves}};
    if (moves.empty()) out["choice"] = st.ask_bot(seat, *bot);
    return out;
  }
  if (cmd == "result") {
    json hands = json::array();
    for (const auto& h : st.hands()) hands.push_back(summary_json(h));
    json out{{"hands", hands}};
    out.update(status());
    return out;
  }
  if (cmd == "record") return {{"record", s.record()}};
  if (cmd == "review") {
    // One seat's graded moves in one finished hand (record/review.h), as the
    // server's review and `boneyard analyze --review` give them: fair grades,
    // from what the seat could know. hand 0 (the default): the last finished.
    const int seat = seat_of(req);
    const int done = static_cast<int>(st.hands().size());
    if (done == 0) throw Error("no hand has finished yet");
    int hand =
        req.contains("hand") ? static_cast<int>(whole_number(req["hand"], "'hand' (a hand number)", 0, done)) : 0;
    if (hand == 0) hand = done;
    const bool budget = req.contains("think_ms") || req.contains("iterations") || req.contains("threads");
    return review_json(review_hand(s.record(), seat, hand, budget ? coach_options(budget_of(req)) : ReviewOptions{}));
  }
  throw Error(fmt::format("unknown cmd '{}'; send {{\"cmd\":\"help\"}} for the list", shown_text(cmd)));
}

}  // namespace boneyard
