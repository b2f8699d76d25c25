// Quick match (issue 25, 3; quickmatch.h).
#include "server/quickmatch.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <iostream>
#include <random>

#include "server/bots.h"
#include "server/fairness.h"
#include "server/ratings.h"

namespace boneyard::server {

using nlohmann::json;
namespace net = boost::asio;

namespace {

std::string text_field(const json& body, const char* key) {
  if (!body.contains(key) || !body[key].is_string()) throw ApiError(400, fmt::format("'{}' must be a string", key));
  return body[key].get<std::string>();
}

}  // namespace

std::pair<int, int> quickmatch_clock(const GameEntry& g) {
  const std::string& family = rating_family(g);
  return {30, family == "mexican-train" || family == "texas-42" ? 60 : 30};
}

GameTerms game_terms(const std::string& game, const json& body) {
  GameTerms t;
  try {
    t.entry = &find_game(game);
  } catch (const Error& e) {
    throw ApiError(400, e.what());
  }
  OptionList opts;
  if (body.contains("options")) {
    if (!body["options"].is_object() || body["options"].size() > 16)
      throw ApiError(400, "'options' must be an object of at most 16 option names to values");
    for (const auto& [k, v] : body["options"].items()) {
      const std::string val = v.is_string() ? v.get<std::string>() : v.dump();
      if (k.size() > 64 || val.size() > 256) throw ApiError(400, "an option name or value is too long");
      t.options[k] = val;
      opts.emplace_back(k, val);
    }
  }
  try {
    t.seats = t.entry->make(opts, 0)->num_seats();
  } catch (const Error& e) {
    throw ApiError(400, e.what());
  }
  return t;
}

json QuickMatch::join(const json& body, const std::string& client) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  if (!body.contains("key")) throw ApiError(400, "'key' must be your player key (from POST /api/players)");
  const std::optional<SeatPerson> person = players_.person_of(json{{"key", body["key"]}});
  if (!person || person->player_id.empty()) throw ApiError(403, "this player key is not known here");
  const std::string game = text_field(body, "game");
  const auto [entry, options, n] = game_terms(game, body);
  std::string level = "casual";
  if (body.contains("level")) {
    level = text_field(body, "level");
    if (std::find(bot_levels().begin(), bot_levels().end(), level) == bot_levels().end())
      throw ApiError(400, "'level' (the bots that fill empty seats) must be one of beginner, casual, strong, expert");
  }
  bool rated = false;
  if (body.contains("rated")) {
    if (!body["rated"].is_boolean()) throw ApiError(400, "'rated' must be true or false");
    rated = body["rated"].get<bool>();
  }
  std::string with;
  if (body.contains("with")) {
    with = text_field(body, "with");
    if (with.size() > 64) throw ApiError(400, "'with' must be a player id");
  }
  Seeker s;
  s.player_id = person->player_id;
  s.name = person->name;
  s.game = game;
  s.options = options;
  s.pool = fmt::format("{}|{}|{}", game, options.dump(), rated);
  s.seats = n;
  std::tie(s.clock_s, s.bank_s) = quickmatch_clock(*entry);
  s.teams = n == 4 && partnership_game(*entry, options);
  s.level = level;
  s.rated = rated;
  s.with = with;
  s.client = client;
  s.since = std::chrono::steady_clock::now();
  {
    std::lock_guard lk(m_);
    if (seekers_.size() >= 100000) throw ApiError(503, "too many players are waiting: try again later");
    if (auto old = seekers_.find(s.player_id); old != seekers_.end()) {
      if (old->second.forming) throw ApiError(409, "a table is being made for you: ask again in a moment");
      if (!old->second.seated && --waiting_[old->second.pool] <= 0) waiting_.erase(old->second.pool);
    }
    seekers_[s.player_id] = s;  // asked again: waits anew, with these terms
    ++waiting_[s.pool];
    if (!ticking_ && !stopping_) {
      ticking_ = true;
      arm();
    }
  }
  persist({s.player_id});
  form(s.pool, false);  // a full table at once
  return status(json{{"key", body["key"]}});
}

json QuickMatch::status(const json& who) {
  const std::optional<SeatPerson> person = players_.person_of(who);
  if (!person || person->player_id.empty()) throw ApiError(400, "'key' must be your player key");
  std::lock_guard lk(m_);
  auto it = seekers_.find(person->player_id);
  if (it == seekers_.end()) throw ApiError(404, "you are not waiting for a quick match (or it was cancelled)");
  const Seeker& s = it->second;
  // The table's terms, shown while waiting: rated or not, and its clock.
  const json clock{{"move_s", s.clock_s}, {"bank_s", s.bank_s}};
  if (s.seated)
    return {{"status", "seated"}, {"table", s.table}, {"seat", s.seat}, {"token", s.token},
            {"game", s.game},     {"rated", s.rated}, {"clock", clock}};
  // Bots fill the table when its first asker has waited long enough
  // (arm()), so the countdown is theirs for everyone in the pool, not the
  // time since this player asked.
  auto first = s.since;
  if (waiting_[s.pool] > 1)
    for (const auto& [id, o] : seekers_)
      if (o.pool == s.pool && !o.seated && !o.forming && o.since < first) first = o.since;
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - first).count();
  // Who could sit with this player (form()): a rated table seats one player
  // of an address, and nobody with someone they blocked. "2 of 4 here" for
  // two of one network promised a table they never shared.
  int here = 1, same_network = 0;
  for (const auto& [id, o] : seekers_) {
    if (&o == &s || o.pool != s.pool || o.seated || o.forming) continue;
    if (s.rated && !s.client.empty() && o.client == s.client)
      ++same_network;
    else if (!apart_ || !apart_(s.player_id, o.player_id))
      ++here;
  }
  return {{"status", "waiting"}, {"game", s.game},
          {"waiting", here},     {"same_network", same_network},
          {"seats", s.seats},    {"rated", s.rated},
          {"clock", clock},      {"seconds_left", std::max(0.0, cfg_.quickmatch_wait_s - waited)}};
}

json QuickMatch::leave(const json& who) {
  const std::optional<SeatPerson> person = players_.person_of(who);
  if (!person || person->player_id.empty()) throw ApiError(400, "'key' must be your player key");
  std::unique_lock lk(m_);
  auto it = seekers_.find(person->player_id);
  if (it == seekers_.end() || it->second.seated) throw ApiError(404, "you are not waiting for a quick match");
  if (it->second.forming) throw ApiError(409, "too late: a table is being made for you");
  if (--waiting_[it->second.pool] <= 0) waiting_.erase(it->second.pool);
  seekers_.erase(it);
  lk.unlock();
  persist({person->player_id});
  return {{"status", "cancelled"}};
}

void QuickMatch::arm() {
  auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::milliseconds(250));
  timer->async_wait([this, timer](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    std::vector<std::string> due, gone;
    {
      std::lock_guard lk(m_);
      const auto now = std::chrono::steady_clock::now();
      // Seated answers are kept a while for their players to read, then go.
      std::erase_if(seekers_, [&](const auto& kv) {
        const bool old = kv.second.seated && now - kv.second.since > std::chrono::minutes(5);
        if (old) gone.push_back(kv.first);
        return old;
      });
      for (const auto& [id, s] : seekers_)
        if (!s.seated && !s.forming && std::chrono::duration<double>(now - s.since).count() >= cfg_.quickmatch_wait_s)
          due.push_back(s.pool);
    }
    std::sort(due.begin(), due.end());
    due.erase(std::unique(due.begin(), due.end()), due.end());
    persist(gone);
    for (const auto& pool : due) form(pool, true);
    std::lock_guard lk(m_);
    ticking_ = !seekers_.empty();
    if (ticking_) arm();
  });
}

void QuickMatch::form(const std::string& pool, bool timed_out) {
  // Copies: the queue may be forgotten (another node took it) while the
  // table is made, unlocked; the entries are looked up again after.
  std::vector<Seeker> group;
  int n = 0;
  bool teams = false, rated = false;
  int clock_s = 0, bank_s = 0;
  std::string level, game;
  json options;
  {
    std::lock_guard lk(m_);
    std::vector<Seeker*> waiting;
    for (auto& [id, s] : seekers_)
      if (s.pool == pool && !s.seated && !s.forming) waiting.push_back(&s);
    if (waiting.empty()) return;
    std::sort(waiting.begin(), waiting.end(), [](const Seeker* a, const Seeker* b) { return a->since < b->since; });
    n = waiting.front()->seats;
    // A rated table never seats two players of one address (one person's
    // accounts would feed each other's ratings): the next ones wait for
    // another table. A household plays unrated games together freely.
    if (waiting.front()->rated) {
      std::vector<Seeker*> apart;
      std::vector<std::string> addrs;
      for (Seeker* s : waiting) {
        if (!s->client.empty() && std::find(addrs.begin(), addrs.end(), s->client) != addrs.end()) continue;
        addrs.push_back(s->client);
        apart.push_back(s);
      }
      waiting = apart;
    }
    // Two of whom one blocked the other: the later one waits for another table.
    if (apart_) {
      std::vector<Seeker*> kept;
      for (Seeker* s : waiting)
        if (std::none_of(kept.begin(), kept.end(), [&](const Seeker* k) { return apart_(k->player_id, s->player_id); }))
          kept.push_back(s);
      waiting = kept;
    }
    if (static_cast<int>(waiting.size()) < n && !timed_out) return;
    waiting.resize(std::min<size_t>(waiting.size(), static_cast<size_t>(n)));
    for (auto* s : waiting) {
      s->forming = true;
      group.push_back(*s);
    }
    teams = group.front().teams;
    level = group.front().level;
    rated = group.front().rated;
    clock_s = group.front().clock_s;
    bank_s = group.front().bank_s;
    game = group.front().game;
    options = group.front().options;
  }
  // The seats: at random; two who asked for each other sit as partners.
  std::vector<int> order(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) order[static_cast<size_t>(k)] = k;
  std::mt19937_64 rng(std::random_device{}());
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> seat_of(group.size(), -1);
  std::vector<bool> used(static_cast<size_t>(n), false);
  if (teams)
    for (size_t i = 0; i < group.size(); ++i)
      for (size_t j = i + 1; j < group.size(); ++j)
        if (seat_of[i] < 0 && seat_of[j] < 0 && group[i].with == group[j].player_id &&
            group[j].with == group[i].player_id) {
          // A free pair of partner seats (k, k+2).
          for (int k = 0; k < 2 && seat_of[i] < 0; ++k) {
            const int a = order[static_cast<size_t>(k)] % 2, b = a + 2;
            if (!used[static_cast<size_t>(a)] && !used[static_cast<size_t>(b)]) {
              seat_of[i] = a;
              seat_of[j] = b;
              used[static_cast<size_t>(a)] = used[static_cast<size_t>(b)] = true;
            }
          }
        }
  for (size_t i = 0, k = 0; i < group.size(); ++i) {
    if (seat_of[i] >= 0) continue;
    while (used[static_cast<size_t>(order[k])]) ++k;
    seat_of[i] = order[k];
    used[static_cast<size_t>(order[k])] = true;
  }
  std::vector<std::string> seats(static_cast<size_t>(n), "bot:" + level);
  SeatPeople people{
      std::vector<std::string>(static_cast<size_t>(n)), std::vector<std::string>(static_cast<size_t>(n)), {}};
  for (size_t i = 0; i < group.size(); ++i) {
    const size_t u = static_cast<size_t>(seat_of[i]);
    seats[u] = "human";
    people.names[u] = group[i].name;
    people.player_ids[u] = group[i].player_id;
  }
  json made;
  std::string err;
  try {
    // Everyone seated must come: a table whose players never all join closes.
    made = create_(json{{"game", game},
                        {"options", options},
                        {"seats", seats},
                        {"expire_s", cfg_.quickmatch_expire_s},
                        {"rated", rated},
                        {"clock_s", clock_s},
                        {"bank_s", bank_s}},
                   &people, group.front().client);
  } catch (const std::exception& e) {
    err = e.what();
  }
  std::vector<std::string> ids;
  {
    std::lock_guard lk(m_);
    for (size_t i = 0; i < group.size(); ++i) {
      auto it = seekers_.find(group[i].player_id);
      if (it == seekers_.end() || !it->second.forming) continue;  // forgotten meanwhile
      Seeker* s = &it->second;
      s->forming = false;
      if (!err.empty()) continue;  // they wait on; the next look tries again
      s->seated = true;
      s->table = made["id"];
      s->seat = seat_of[i];
      s->token = made["tokens"][std::to_string(seat_of[i])];
      s->since = std::chrono::steady_clock::now();
      if (--waiting_[s->pool] <= 0) waiting_.erase(s->pool);
      ids.push_back(s->player_id);
    }
  }
  persist(ids);
}

// ---------------------------------------------------------------- the queue in the store

// `since` is a steady_clock time (one process's); the store keeps wall
// clock milliseconds, so another node (or a restart) keeps each wait.
json QuickMatch::to_json(const Seeker& s) {
  const auto age = std::chrono::steady_clock::now() - s.since;
  const auto since_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>((std::chrono::system_clock::now() - age).time_since_epoch())
          .count();
  return {{"player_id", s.player_id}, {"name", s.name},       {"game", s.game},     {"pool", s.pool},
          {"level", s.level},         {"with", s.with},       {"client", s.client}, {"options", s.options},
          {"seats", s.seats},         {"clock_s", s.clock_s}, {"bank_s", s.bank_s}, {"teams", s.teams},
          {"rated", s.rated},         {"since_ms", since_ms}, {"seated", s.seated}, {"table", s.table},
          {"token", s.token},         {"seat", s.seat}};
}

QuickMatch::Seeker QuickMatch::from_json(const json& j) {
  Seeker s;
  s.player_id = j.at("player_id");
  s.name = j.at("name");
  s.game = j.at("game");
  s.pool = j.at("pool");
  s.level = j.at("level");
  s.with = j.at("with");
  s.client = j.at("client");
  s.options = j.at("options");
  s.seats = j.at("seats");
  s.clock_s = j.at("clock_s");
  s.bank_s = j.at("bank_s");
  s.teams = j.at("teams");
  s.rated = j.at("rated");
  s.seated = j.at("seated");
  s.table = j.at("table");
  s.token = j.at("token");
  s.seat = j.at("seat");
  const auto wall = std::chrono::system_clock::time_point(std::chrono::milliseconds(j.at("since_ms").get<int64_t>()));
  const auto age = std::max(std::chrono::system_clock::duration::zero(), std::chrono::system_clock::now() - wall);
  s.since = std::chrono::steady_clock::now() - std::chrono::duration_cast<std::chrono::steady_clock::duration>(age);
  return s;
}

void QuickMatch::persist(const std::vector<std::string>& player_ids) {
  if (player_ids.empty()) return;
  // store_m_ across the read and the write: the last write of an entry is
  // of its latest state, whichever thread changed it.
  std::lock_guard sk(store_m_);
  for (const auto& id : player_ids) {
    std::optional<std::string> entry;
    {
      std::lock_guard lk(m_);
      if (auto it = seekers_.find(id); it != seekers_.end()) entry = to_json(it->second).dump();
    }
    try {
      const auto fence = fence_ ? fence_() : std::nullopt;
      const Write::Fence* f = fence ? &*fence : nullptr;
      if (!(entry ? db_.put_seeker(id, *entry, f) : db_.drop_seeker(id, f))) {
        // Another node holds the queue now (this one was paused past its
        // lease): it has the queue as stored, and this node must let go.
        std::cerr << "boneyard serve: quick match: a write was refused: another node holds the queue now" << std::endl;
        if (fenced_) fenced_();
        return;
      }
    } catch (const std::exception& e) {
      std::cerr << "boneyard serve: quick match: a player's place in the queue was not stored (it is kept here "
                   "only): "
                << e.what() << std::endl;
    }
  }
}

void QuickMatch::restore() {
  ready_ = false;
  load(++attempt_);
}

void QuickMatch::load(uint64_t attempt) {
  if (attempt != attempt_ || stopping_) return;
  std::vector<std::string> rows;
  try {
    rows = db_.seekers();
  } catch (const std::exception& e) {
    const std::string why = fmt::format("the waiting list could not be read from the database: {}", e.what());
    bool first;
    {
      std::lock_guard pk(problem_m_);
      if (attempt != attempt_) return;  // forgotten while it read: not this node's to report
      first = problem_ != why;
      problem_ = why;
    }
    if (first)
      std::cerr << "boneyard serve: quick match is closed: " << why << " (trying again each second)" << std::endl;
    auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::seconds(1));
    timer->async_wait([this, timer, attempt](const boost::system::error_code& ec) {
      if (!ec) load(attempt);
    });
    return;
  }
  {
    std::lock_guard pk(problem_m_);
    if (!problem_.empty()) std::cerr << "boneyard serve: quick match: the waiting list is read again" << std::endl;
    problem_.clear();
  }
  std::lock_guard sk(store_m_);
  std::lock_guard lk(m_);
  if (attempt != attempt_) return;  // the queue went to another node meanwhile
  seekers_.clear();
  waiting_.clear();
  for (const auto& row : rows) {
    try {
      Seeker s = from_json(json::parse(row));
      if (!s.seated) ++waiting_[s.pool];
      seekers_[s.player_id] = std::move(s);
    } catch (const std::exception& e) {
      std::cerr << "boneyard serve: quick match: a stored entry was skipped: " << e.what() << std::endl;
    }
  }
  ready_ = true;
  if (!seekers_.empty() && !ticking_ && !stopping_) {
    ticking_ = true;
    arm();
  }
}

std::string QuickMatch::problem() const {
  std::lock_guard pk(problem_m_);
  return problem_;
}

void QuickMatch::forget() {
  ++attempt_;  // a read still being retried is for the node that held it
  {
    std::lock_guard pk(problem_m_);
    problem_.clear();
  }
  std::lock_guard lk(m_);
  ready_ = false;
  seekers_.clear();
  waiting_.clear();
}

}  // namespace boneyard::server
