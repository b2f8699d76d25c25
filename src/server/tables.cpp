// The Hub (tables.h): the wiring of its modules, creation, lookup,
// retention, and the requests (move, join, sit, rematch, chat). The one path
// that stores a change and the broadcasts are in hub_storage.cpp; the bots'
// turns in hub_bots.cpp.
#include "server/tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <future>
#include <iostream>
#include <thread>

#include "server/fairness.h"

namespace boneyard::server {

using nlohmann::json;
namespace net = boost::asio;

// The wiring: each module gets what it reads (the storage, the settings,
// the timers' io_context, the stop flag) and calls back only through the
// hooks given here (a change to announce, a table to make).
Hub::Hub(Storage& db, net::io_context& ioc, HubConfig cfg)
    : db_(db),
      ioc_(ioc),
      cfg_(cfg),
      ratings_(db_, cfg_.rating_period_s),
      players_(db_, ratings_),
      clock_(ioc_, cfg_.clock_second_ms, stopping_, [this](const std::shared_ptr<Table>& t) { announce(t); }),
      views_(clock_),
      presence_(ioc_, stopping_, [this](const std::shared_ptr<Table>& t) { announce(t); }),
      bots_(cfg_, stopping_),
      quickmatch_(ioc_, cfg_, stopping_, db_, players_,
                  [this](const json& body, const SeatPeople* people, const std::string& client) {
                    json b = body;
                    b["listed"] = true;                // strangers' games may be watched (watch.cpp)
                    return create(b, client, people);  // counted against the first asker's address
                  }),
      shards_(db_, cfg_.node_id, cfg_.shards, cfg_.lease_s),
      social_(db_, cfg_.operator_token, [this](const json& body, const SeatPeople* people, const std::string& client) {
        return create(body, client, people);
      }) {
  quickmatch_.keep_apart([this](const std::string& a, const std::string& b) { return social_.apart(a, b); });
  quickmatch_.fence_with([this] { return shards_.fence_of(Shards::kMatchShard); },
                         [this] {
                           shards_.fenced(Shards::lease_name(Shards::kMatchShard),
                                          "a quick-match write was refused: another node holds the queue");
                         });
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  bcast_ = std::make_unique<net::thread_pool>(static_cast<size_t>(std::max(2, cores / 2)));
  if (cfg_.measure) db_.measure_commits(true);
  if (shards_.enabled())
    shards_.start({[this](const std::set<int>& s) { take_shards(&s); },
                   [this](const std::set<int>& s, const std::string& why) { drop_shards(s, why); }});
  else
    take_shards(nullptr);
  heal_ = std::thread([this] { heal_loop(); });
  if (shards_.enabled()) peer_lobby_ = std::make_unique<PeerLobby>(shards_, lobby_);
}

Hub::~Hub() { shutdown(); }

void Hub::shutdown() {
  peer_lobby_.reset();
  shards_.stop_renewal();
  {
    std::lock_guard lk(heal_m_);
    stopping_ = true;
  }
  heal_cv_.notify_all();
  if (heal_.joinable()) heal_.join();
  bots_.join();
  if (bcast_) bcast_->join();
  db_.stop();  // the writes queued so far are stored; their broadcasts are not needed any more
  shards_.release_all();
}

// ---------------------------------------------------------------- creation

namespace {
int int_option(const json& body, const char* key, int def, int lo, int hi) {
  if (!body.contains(key)) return def;
  const json& v = body[key];
  if (!v.is_number_integer() || v.get<int64_t>() < lo || v.get<int64_t>() > hi)
    throw ApiError(400, fmt::format("'{}' must be a whole number from {} to {}", key, lo, hi));
  return v.get<int>();
}
}  // namespace

json Hub::create(const json& body, const std::string& client, const SeatPeople* people) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  if (!body.contains("game") || !body["game"].is_string())
    throw ApiError(400, "'game' must be a game name (see `boneyard rules`)");
  const std::string game = body["game"].get<std::string>();
  const GameEntry* entry = nullptr;
  try {
    entry = &find_game(game);
  } catch (const Error& e) {
    throw ApiError(400, e.what());
  }
  OptionList options;
  json opts_json = json::object();
  if (body.contains("options")) {
    if (!body["options"].is_object()) throw ApiError(400, "'options' must be an object of option names to values");
    if (body["options"].size() > 64) throw ApiError(400, "too many options");
    for (const auto& [k, v] : body["options"].items()) {
      std::string val = v.is_string() ? v.get<std::string>() : v.dump();
      if (k.size() > 64 || val.size() > 256) throw ApiError(400, "an option name or value is too long");
      options.emplace_back(k, val);
      opts_json[k] = val;
    }
  }
  int n = 0;
  try {
    n = entry->make(options, 0)->num_seats();
  } catch (const Error& e) {
    throw ApiError(400, e.what());
  }
  if (!body.contains("seats") || !body["seats"].is_array())
    throw ApiError(400, fmt::format("'seats' must be an array of {} seats, each \"human\" or \"bot:LEVEL\"", n));
  const json& seats = body["seats"];
  if (static_cast<int>(seats.size()) != n)
    throw ApiError(400, fmt::format("{} with these options has {} seats; 'seats' lists {}", game, n, seats.size()));
  bool is_public = false;
  if (body.contains("public")) {
    if (!body["public"].is_boolean()) throw ApiError(400, "'public' must be true (listed in the lobby) or false");
    is_public = body["public"].get<bool>();
  }
  std::vector<std::string> players;
  std::vector<bool> open;
  for (const auto& s : seats) {
    const std::string p = s.is_string() ? s.get<std::string>() : "";
    bool ok = p == "human" || p == "open";
    for (const auto& l : bot_levels()) ok |= p == "bot:" + l;
    if (!ok)
      throw ApiError(
          400, fmt::format("a seat must be \"human\", \"open\" (public tables: anyone may take it in the lobby) or "
                           "\"bot:LEVEL\" with LEVEL one of beginner, casual, strong, expert; got {}",
                           s.dump()));
    open.push_back(p == "open");
    players.push_back(p == "open" ? "human" : p);
  }
  const bool any_open = std::find(open.begin(), open.end(), true) != open.end();
  if (any_open && !is_public) throw ApiError(400, "an \"open\" seat is for public tables: add \"public\": true");
  if (is_public && !any_open) throw ApiError(400, "a public table needs at least one \"open\" seat for the lobby");
  // The people at the seats: a rematch's, or the creator's player key.
  SeatPeople seated{
      std::vector<std::string>(static_cast<size_t>(n)), std::vector<std::string>(static_cast<size_t>(n)), {}};
  if (people) seated = *people;
  if (body.contains("key")) {
    int ks = -1;
    for (int k = 0; k < n && ks < 0; ++k)
      if (players[static_cast<size_t>(k)] == "human" && !open[static_cast<size_t>(k)]) ks = k;
    ks = int_option(body, "key_seat", ks, 0, n - 1);
    if (ks < 0 || players[static_cast<size_t>(ks)] != "human" || open[static_cast<size_t>(ks)])
      throw ApiError(400, "'key_seat' must be a human seat: the player of 'key' sits there");
    if (auto p = players_.person_of(json{{"key", body["key"]}})) {
      seated.names[static_cast<size_t>(ks)] = p->name;
      seated.player_ids[static_cast<size_t>(ks)] = p->player_id;
    }
  }
  const int bot_delay = int_option(body, "bot_delay_ms", cfg_.default_bot_delay_ms, 0, 60000);
  const int drop_delay = int_option(body, "drop_delay_ms", cfg_.default_drop_delay_ms, 0, 86400000);
  const int expire = int_option(body, "expire_s", cfg_.default_expire_s, 1, cfg_.max_expire_s);
  std::string takeover = "casual";
  if (body.contains("takeover_level")) {
    const json& v = body["takeover_level"];
    if (!v.is_string() ||
        std::find(bot_levels().begin(), bot_levels().end(), v.get<std::string>()) == bot_levels().end())
      throw ApiError(400, "'takeover_level' must be one of beginner, casual, strong, expert");
    takeover = v.get<std::string>();
  }
  std::string secret;
  if (body.contains("seed")) {
    const json& sd = body["seed"];
    if (!sd.is_number_unsigned() && !(sd.is_number_integer() && sd.get<int64_t>() >= 0))
      throw ApiError(400, "'seed' must be a whole number");
    secret = sha256_hex("boneyard-table-seed:" + std::to_string(body["seed"].get<uint64_t>()));
  } else {
    secret = random_hex(32);
  }
  {
    std::shared_lock lk(tables_m_);
    if (tables_.size() >= cfg_.max_tables) throw ApiError(503, "the server holds as many tables as it may");
    // A fair share of the live tables per address (the client is fixed at a
    // table's creation: read without its lock).
    if (!client.empty() && cfg_.max_tables_per_client > 0) {
      size_t mine = 0;
      for (const auto& [tid, other] : tables_) mine += other->client == client;
      if (mine >= cfg_.max_tables_per_client)
        throw ApiError(429, fmt::format("your address holds {} live tables, the most it may: finish or leave some "
                                        "(a table nobody joined closes after its expire_s)",
                                        mine));
    }
  }
  json tokens = json::object();
  std::vector<std::string> toks(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k)
    if (players[static_cast<size_t>(k)] == "human" && !open[static_cast<size_t>(k)]) {
      toks[static_cast<size_t>(k)] = random_hex(16);
      tokens[std::to_string(k)] = toks[static_cast<size_t>(k)];
    }
  const std::string id = shards_.new_id();  // on a shard this node holds
  const std::string spectate = random_hex(16);
  json spec{{"game", game},
            {"options", opts_json},
            {"players", players},
            {"tokens", toks},
            {"spectate", spectate},
            {"secret", secret},
            {"commitment", commitment_of(secret)},
            {"bot_delay_ms", bot_delay},
            {"drop_delay_ms", drop_delay},
            {"takeover_level", takeover},
            {"provably_fair", !body.contains("seed")},
            {"client", client},
            {"expire_s", expire}};
  if (body.contains("rated")) {
    if (!body["rated"].is_boolean()) throw ApiError(400, "'rated' must be true (the end updates the ratings) or false");
    if (body["rated"].get<bool>()) {
      if (body.contains("seed")) throw ApiError(400, "a rated table cannot have a 'seed': its deals would be known");
      // A rated game is the player's own play: the standard terms only.
      for (const char* k : {"takeover_level", "drop_delay_ms"})
        if (body.contains(k))
          throw ApiError(400, fmt::format("a rated table plays by the standard terms: '{}' cannot be chosen there "
                                          "(docs/server.md, \"Fair play\")",
                                          k));
      spec["rated"] = true;
    }
  }
  if (body.contains("listed")) {
    if (!body["listed"].is_boolean())
      throw ApiError(400, "'listed' must be true (anyone may watch the game from the Watch list) or false");
    if (body["listed"].get<bool>()) spec["listed"] = true;
  }
  if (is_public) {
    spec["public"] = true;
    spec["open"] = open;
  }
  TurnClock::options(body, spec);  // clock_s, bank_s
  StoredTable st;
  st.id = id;
  st.created = static_cast<int64_t>(std::time(nullptr));
  st.spec = spec;
  TableMeta meta = TableMeta::fresh(static_cast<size_t>(n), seated);
  // The ratings shown beside the names (a bot level's at rated tables only:
  // a table of bots reads nothing).
  std::vector<std::string> rated_players = players;
  if (!spec.value("rated", false))
    for (auto& p : rated_players) p = p == "human" ? p : "";
  meta.ratings = ratings_.shown_seats(game, rated_players, seated.player_ids);
  st.meta = meta.to_json();
  // Made whole in memory (a table of bots starts at once: its first deal),
  // stored in one transaction, and only then seen: a table whose creation
  // could not be stored does not exist.
  auto t = build(st);
  if (!t->broken.empty()) throw ApiError(500, t->broken);
  Write w;
  w.table = id;
  w.gen = t->gen;
  w.spec = spec;
  w.fence = shards_.fence(id);
  {
    std::lock_guard lk(t->m);
    bool humans = false;
    for (int k = 0; k < t->n; ++k) humans |= t->human(k);
    if (!humans) start_game(*t);
    w.meta = t->meta().to_json();
    if (t->session) w.events = t->session->events();
  }
  try {
    db_.write(std::move(w));
  } catch (const std::exception& e) {
    throw ApiError(503, fmt::format("the table could not be stored, so it was not made: {}", e.what()));
  }
  {
    std::lock_guard lk(t->m);
    t->durable = t->queued = t->session ? t->session->events().size() : 0;
    t->durable_meta = t->meta().to_json();
    std::unique_lock lk2(tables_m_);
    tables_[t->id] = t;
  }
  {
    std::lock_guard lk(t->m);
    lobby_.update(*t);
    schedule_bot(t);
  }
  return {{"id", id}, {"tokens", tokens}, {"spectate", spectate}, {"commitment", spec["commitment"]}, {"seats", n}};
}

std::shared_ptr<Table> Hub::build(const StoredTable& st) {
  auto t = std::make_shared<Table>(st, cfg_.clock_second_ms);
  Chat::load(*t, st.chat);
  return t;
}

void Hub::restore(StoredTable st, const std::function<bool()>& still_ours) {
  auto t = build(st);
  if (t->broken.empty() && st.meta.value("over", false)) return;  // finished: loaded on demand
  {
    std::lock_guard lk(t->m);
    bool meta = false;
    if (t->broken.empty() && t->started) {
      try {
        t->replay(st.events, st.events.size());
        t->durable = t->queued = st.events.size();
        t->settle();  // a crash between a move and its chance outcome
      } catch (const std::exception& e) {
        t->broken = fmt::format("stored table does not replay: {}", e.what());
        t->set_session(nullptr);
      }
    }
    if (t->broken.empty() && !t->started) {
      bool humans = false;
      for (int k = 0; k < t->n; ++k) humans |= t->human(k);
      if (!humans) {  // nobody to wait for: entropy is closed at once
        try {
          start_game(*t);
          meta = true;
        } catch (const std::exception& e) {
          t->broken = fmt::format("cannot start: {}", e.what());
          t->set_session(nullptr);
        }
      }
    }
    if (!t->broken.empty()) std::cerr << "boneyard serve: table " << t->id << ": " << t->broken << "\n";
    if (t->over() && t->queued == t->durable) return;  // finished (stored before "over" was in the meta)
    {
      std::unique_lock lk2(tables_m_);
      if (still_ours && !still_ours()) return;
      tables_[t->id] = t;
    }
    if (t->broken.empty() && (meta || (t->session && t->session->events().size() > t->queued)))
      persist(t, meta ? Change::of_meta() : Change{});
  }
  std::lock_guard lk(t->m);
  if (!st.events.empty() && t->session && !t->over()) {
    // Restored after a restart: nobody is connected yet; every human seat
    // gets the usual grace period before a bot plays for it.
    for (int k = 0; k < t->n; ++k)
      if (t->human(k)) presence_.arm(t, k);
  }
  // A seat taken from the lobby before the restart gets its time again.
  if (t->broken.empty() && !t->started)
    for (int k = 0; k < t->n; ++k) {
      const Seat& s = t->seat_at(k);
      if (s.open && !s.token.empty() && !s.joined) claim_timer(t, k, s.token);
    }
  lobby_.update(*t);
  clock_.tick(t);  // the turn in play is timed afresh, with the stored banks
  schedule_bot(t);
}

// ---------------------------------------------------------------- lookup

std::shared_ptr<Table> Hub::find(const std::string& id) {
  {
    std::shared_lock lk(tables_m_);
    auto it = tables_.find(id);
    if (it != tables_.end()) return it->second;
  }
  std::lock_guard lk(cache_m_);
  auto it = finished_.find(id);
  return it == finished_.end() ? nullptr : it->second;
}

// A live table, a recently finished one, or a finished one loaded from the
// database (and replayed from its seed) on demand.
std::shared_ptr<Table> Hub::table(const std::string& id) {
  if (auto t = find(id)) return t;
  std::optional<StoredTable> st;
  if (id.size() <= 64) {
    try {
      st = db_.load(id);
    } catch (const std::exception& e) {
      throw ApiError(503, fmt::format("storage failed: {}", e.what()));
    }
  }
  if (!st) throw ApiError(404, fmt::format("no table '{}'", id.substr(0, 64)));
  if (!st->meta.value("over", false) && !shards_.owns(shards_.shard_of(id))) {
    // Another node plays it (a finished one is served by any node).
    const int shard = shards_.shard_of(id);
    const std::string owner = shards_.owner_of(shard);
    throw ApiError(421, owner.empty() ? fmt::format("table '{}' is between servers (its shard {} is being taken over): "
                                                    "try again in a few seconds",
                                                    id, shard)
                                      : fmt::format("table '{}' is played on another server (node {}, its shard {})",
                                                    id, owner, shard));
  }
  auto t = build(*st);
  {
    std::lock_guard lk(t->m);
    if (t->broken.empty() && t->started) {
      try {
        t->replay(st->events, st->events.size());
      } catch (const std::exception& e) {
        t->broken = fmt::format("stored table does not replay: {}", e.what());
        t->set_session(nullptr);
      }
    }
    t->durable = t->queued = st->events.size();
    // A live table of a shard this node has just taken, not loaded yet
    // (take_shards runs): a moment, not a 404.
    if (!t->finished() && shards_.enabled() && t->broken.empty())
      throw ApiError(503, fmt::format("table '{}' is being loaded on this server (its shard was just taken over): "
                                      "try again in a moment",
                                      id.substr(0, 64)));
    if (!t->finished()) throw ApiError(404, fmt::format("no table '{}'", id.substr(0, 64)));
  }
  keep_finished(t);
  return t;
}

json Hub::get(const std::string& id, const std::string& token) {
  auto t = table(id);
  std::unique_lock lk(t->m);
  t->wait_stored(lk);
  return views_.message(*t, t->seat_for(token));
}

// ---------------------------------------------------------------- moves

// With t->m held: the move and the chance outcomes after it, in memory:
// its text as the game writes it, and the change that stores them (one write).
std::pair<std::string, Hub::Change> Hub::apply_move(Table& t, int seat, const std::string& move,
                                                    std::chrono::steady_clock::time_point arrival) {
  std::string canon;
  try {
    canon = t.session->apply(seat, move);
  } catch (const Error& e) {
    throw ApiError(400, e.what());
  }
  t.settle();
  clock_.stop(t, seat, arrival);  // the turn is timed to the move's arrival
  const bool over = t.session->state().terminal();
  if (over) t.notice(-1, "the game is over; the server's secret is revealed");
  // The meta says "over" (not loaded at start any more), and the clock's banks.
  Change change;
  change.meta = over || t.clock_s > 0;
  change.arrival = arrival;
  return {canon, std::move(change)};
}

json Hub::move(const std::string& id, const std::string& token, const std::string& move,
               std::optional<int64_t> version) {
  const auto arrival = std::chrono::steady_clock::now();
  auto t = table(id);
  std::unique_lock lk(t->m);
  const int seat = t->seat_for(token);
  if (seat < 0) throw ApiError(403, "a spectator cannot move");
  if (t->aborted) throw ApiError(409, t->broken);
  if (!t->broken.empty()) throw ApiError(500, t->broken);
  if (!t->session) throw ApiError(409, "the game has not started: it starts when every human seat has joined");
  // A retry: this seat has moved since the version its move was decided at
  // (others moving meanwhile, as in a simultaneous turn, is no reason).
  const auto& events = t->session->events();
  const auto now = static_cast<int64_t>(events.size());  // the state's "version" (Views)
  if (version && *version > now)
    throw ApiError(409, fmt::format("the table is at version {}; there is no version {} yet", now, *version));
  if (version && std::any_of(events.begin() + *version, events.end(),
                             [&](const RecordEvent& e) { return !e.chance && e.seat == seat; }))
    throw ApiError(409, fmt::format("you have moved since version {} (the table is at version {} now): this move "
                                    "was not played; a retry of a move already made? Get the table and decide again",
                                    *version, now));
  if (t->over()) throw ApiError(409, "the game is over");
  const Actor a = t->session->state().actor();
  if (!a.acts(seat)) throw ApiError(409, fmt::format("not your turn: {}", to_string(a)));
  if (move.size() > 200) throw ApiError(400, "the move is too long");
  if (t->seat_at(seat).autopilot) {
    t->seat_at(seat).autopilot = false;
    t->notice(seat, fmt::format("seat {} is back and plays again", seat));
  }
  auto [canon, change] = apply_move(*t, seat, move, arrival);
  // The version this move made (with the chance it led to): the state
  // answered may be later, a bot having moved while the move was stored.
  const auto made = static_cast<int64_t>(t->session->events().size());
  t->seat_at(seat).clock.forced = false;
  persist_and_wait(lk, t, std::move(change), "the move was not made");
  json m = views_.message(*t, seat);
  m["move"] = canon;
  m["move_version"] = made;
  return m;
}

// ---------------------------------------------------------------- joining

// In memory; the caller stores the meta and the first chance outcomes.
void Hub::start_game(Table& t) {
  t.seed = derive_seed(t.secret, t.entropies());
  t.started = true;
  t.set_session(std::make_unique<Session>(t.game, t.options, t.seed));
  for (int k = 0; k < t.n; ++k) t.session->players()[static_cast<size_t>(k)] = t.seat_at(k).player;
  t.notice(-1, "every seat has joined: entropy is closed and the game starts");
  t.settle();
}

void Hub::join_locked(const std::shared_ptr<Table>& t, int seat, const std::optional<std::string>& entropy) {
  if (!t->broken.empty()) throw ApiError(500, t->broken);
  if (entropy) {
    if (entropy->size() > 256) throw ApiError(400, "entropy is at most 256 characters");
    for (const char c : *entropy)
      if (c < 0x20 || c > 0x7e) throw ApiError(400, "entropy must be printable ASCII text");
    if (t->started) throw ApiError(409, "entropy is closed: the game has started");
    t->seat_at(seat).entropy = *entropy;
  }
  if (t->started) return;
  t->seat_at(seat).joined = true;
  bool all = true;
  for (const Seat& s : t->seats) all &= !s.human() || s.joined;
  if (!all) {
    t->notice(seat, fmt::format("seat {} has joined", seat));
    return;
  }
  start_game(*t);
  // Someone who joined and left before the start gets the usual grace
  // period, then a bot plays for them (a connection cancels it).
  for (int k = 0; k < t->n; ++k)
    if (t->human(k) && t->seat_at(k).connections == 0) presence_.arm(t, k);
}

json Hub::join(const std::string& id, const std::string& token, const std::optional<std::string>& entropy,
               const json& who, const std::string& client) {
  const std::optional<SeatPerson> person =
      players_.person_of(who);  // checked (and looked up) before the table is locked
  auto t = table(id);
  // The rating shown beside the name, read before the lock (the game is fixed).
  const json rating = person ? ratings_.shown(person->player_id, t->game) : json();
  std::unique_lock lk(t->m);
  const int seat = t->seat_for(token);
  if (seat < 0) throw ApiError(403, "a spectator does not join; watch with GET or the WebSocket");
  const bool was = t->started;
  join_locked(t, seat, entropy);
  bool named = person && Players::seat(*t, seat, *person);
  if (named) t->seat_at(seat).rating = rating;
  named = Players::network(*t, seat, client) || named;
  if (was && !named) return views_.message(*t, seat);
  persist_and_wait(lk, t, Change::of_meta(), "the join was not stored");
  return views_.message(*t, seat);
}

// ---------------------------------------------------------------- lobby

json Hub::sit(const std::string& id, const json& body, const std::string& client) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  std::optional<int> wanted;
  if (body.contains("seat")) {
    if (!body["seat"].is_number_integer()) throw ApiError(400, "'seat' must be a seat number (from 0)");
    wanted = body["seat"].get<int>();
  }
  const std::optional<SeatPerson> person = players_.person_of(body);  // "key" or "name", as for a join
  auto t = table(id);
  const json rating = person ? ratings_.shown(person->player_id, t->game) : json();
  std::unique_lock lk(t->m);
  if (!t->is_public) throw ApiError(403, "this table is not public: its seats go by invitation links");
  if (!t->broken.empty()) throw ApiError(409, t->broken);
  if (t->started) throw ApiError(409, "the game has started: no seat is free");
  auto is_free = [&](int k) { return t->seat_at(k).open && t->seat_at(k).token.empty(); };
  int seat = -1;
  if (wanted) {
    if (*wanted < 0 || *wanted >= t->n) throw ApiError(400, fmt::format("'seat' must be from 0 to {}", t->n - 1));
    if (!is_free(*wanted))
      throw ApiError(409, fmt::format("seat {} is not free: someone has it, or it is not open", *wanted));
    seat = *wanted;
  } else {
    for (int k = 0; k < t->n && seat < 0; ++k)
      if (is_free(k)) seat = k;
    if (seat < 0) throw ApiError(409, "no seat is free at this table any more");
  }
  const std::string token = random_hex(16);
  t->seat_at(seat).token = token;
  if (person && Players::seat(*t, seat, *person)) t->seat_at(seat).rating = rating;
  t->notice(seat, fmt::format("seat {} was taken from the lobby", seat));
  Players::network(*t, seat, client);
  persist_and_wait(lk, t, Change::of_meta(), "the seat was not taken");
  claim_timer(t, seat, token);
  lobby_.update(*t);  // before the answer: whoever asks the lobby next sees the seat taken (the broadcast comes later)
  return {{"table", t->id}, {"seat", seat}, {"token", token}};
}

json Hub::claim(const std::string& id, const std::string& token) {
  auto t = table(id);
  std::unique_lock lk(t->m);
  if (!t->broken.empty()) throw ApiError(409, t->broken);
  int seat = -1;
  for (int k = 0; k < t->n && seat < 0; ++k)
    if (!t->seat_at(k).token.empty() && t->seat_at(k).token == token) seat = k;
  if (seat < 0 && !token.empty() && token == t->spectate)
    throw ApiError(403,
                   "this is the table's watching link: it holds no seat to claim (watch with GET or the WebSocket)");
  if (seat < 0)
    throw ApiError(403,
                   "this invitation opens no seat: it was used already (the seat is held by the person who sat down "
                   "with it first), or it is not a link of this table");
  // A seat whose player has come keeps its token: a claim now would hand the
  // seat (and its hand) to a second holder while the first still plays it.
  if (t->seat_at(seat).joined || t->started)
    throw ApiError(409, fmt::format("seat {} has joined already: it is played with the token it joined with, and "
                                    "its invitation can no longer be claimed",
                                    seat));
  const std::string mine = random_hex(16);
  t->seat_at(seat).token = mine;
  persist_and_wait(lk, t, Change::of_meta(), "the invitation was not taken");
  return {{"table", t->id}, {"seat", seat}, {"token", mine}};
}

// With t->m held. A seat taken from the lobby whose player never came is
// free again after claim_s (a new token when taken again: the old one is void).
void Hub::claim_timer(const std::shared_ptr<Table>& t, int seat, const std::string& token) {
  auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::seconds(cfg_.claim_s));
  timer->async_wait([this, t, seat, token, timer](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    std::lock_guard lk(t->m);
    Seat& s = t->seat_at(seat);
    if (t->started || s.joined || s.token != token || !t->broken.empty()) return;
    s.token.clear();
    s.name.clear();
    s.player_id.clear();
    s.rating = nullptr;
    t->notice(seat, fmt::format("seat {} is free again: its player did not come", seat));
    persist(t, Change::of_meta());  // broadcast (and the lobby) once stored
  });
}

int Hub::subscribe(const std::string& id, const std::string& token, const std::optional<std::string>& entropy,
                   const std::shared_ptr<Subscriber>& sub) {
  auto t = table(id);
  std::lock_guard lk(t->m);
  const int seat = t->seat_for(token);
  Presence::room(*t);
  if (seat >= 0) {
    // Connecting joins the seat; entropy given again on a reconnect, after
    // the start, is ignored rather than refused.
    if (!t->started) {
      join_locked(t, seat, entropy);
      persist(t, Change::of_meta());  // broadcast once stored
    }
    presence_.connected(*t, seat);
  }
  Presence::watch(*t, seat, sub);
  announce(t);
  return seat;
}

void Hub::unsubscribe(const std::string& id, int seat, const Subscriber* sub) {
  std::shared_ptr<Table> t = find(id);  // never loads a finished table back
  if (!t) return;
  std::lock_guard lk(t->m);
  if (presence_.left(t, seat, sub)) announce(t);
}

void Hub::close_table(Table& t) {
  presence_.release_all(t);
  clock_.release(t);
  {
    std::unique_lock l(tables_m_);
    tables_.erase(t.id);
  }
  // Its row goes (the table's end, as create() is its start: neither is a
  // change of a table in play, so neither goes through persist()).
  Write w;
  w.table = t.id;
  w.gen = t.gen;
  w.erase = true;
  w.fence = shards_.fence(t.id);
  db_.submit(std::move(w));
}

// ---------------------------------------------------------------- chat, ratings (the rematch: hub_rematch.cpp)

json Hub::chat(const std::string& id, const std::string& token, const json& body) {
  const ChatLine said = parse_chat(body);
  auto t = table(id);
  std::unique_lock lk(t->m);
  const int seat = t->seat_for(token);
  if (!t->broken.empty()) throw ApiError(409, fmt::format("the table is closed: {}", t->broken));
  Change change;
  change.chat.push_back(Chat::line(*t, seat, said));
  const ChatLine line = change.chat.back();
  // Stored, shown and broadcast as a move is: with the table's generation,
  // so a failed line rolls the table back like any failed write and the
  // next change goes on.
  persist_and_wait(lk, t, std::move(change), "the line was not sent");
  return {{"line", chat_line_json(line)}};
}

// With t->m held, once the rated game is over and stored: its ratings,
// stored with the meta (rated_done) in one write.
void Hub::rate(const std::shared_ptr<Table>& t) {
  auto update = ratings_.rate(*t);
  if (!update) return;
  Change change = Change::of_meta();
  change.ratings = update->ratings;
  persist(t, std::move(change), [this, u = *update](const std::string& err) { ratings_.settled(u, err); });
}

// ---------------------------------------------------------------- retention

// With t->m held: a finished game leaves the live tables (it stays in the
// database, and in a small cache of recently finished ones).
void Hub::retire(const std::shared_ptr<Table>& t) {
  presence_.release_all(*t);
  clock_.release(*t);
  {
    std::unique_lock lk(tables_m_);
    tables_.erase(t->id);
  }
  keep_finished(t);
}

void Hub::keep_finished(const std::shared_ptr<Table>& t) {
  std::lock_guard lk(cache_m_);
  if (finished_.emplace(t->id, t).second) finished_order_.push_back(t->id);
  while (finished_order_.size() > cfg_.finished_cache) {
    finished_.erase(finished_order_.front());
    finished_order_.pop_front();
  }
}

// Tables whose game never started (someone they wait for never joined)
// leave after their expire_s, from memory and from the database.
void Hub::expire_waiting() {
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  std::vector<std::shared_ptr<Table>> all;
  {
    std::shared_lock l(tables_m_);
    for (const auto& [id, t] : tables_) all.push_back(t);
  }
  for (const auto& t : all) {
    std::lock_guard lk(t->m);
    if (t->started || t->inflight > 0 || now < t->created + t->expire_s) continue;
    close_table(*t);
    t->notice(-1, "nobody joined in time: the table is closed");
    t->broken = "the table expired before every seat joined";
    announce(t);
  }
}

json Hub::health() {
  const std::string problem = db_.problem();
  const std::string queue = quickmatch_.problem();  // its list could not be read: closed
  json h{{"ok", problem.empty() && queue.empty()},
         {"storage", problem.empty() ? std::string("ok") : problem},
         {"quickmatch", queue.empty() ? std::string("ok") : queue}};
  std::shared_lock lk(tables_m_);
  h["tables"] = tables_.size();  // live: finished ones are in the database only
  h["in_memory"] = Table::alive();
  if (shards_.enabled()) h["cluster"] = shards_.health();
  if (cfg_.measure) {  // serve --measure: the moves so far, arrival to broadcast
    std::lock_guard sl(stats_.m);
    h["moves"] = stats_.latency_us.count();
    h["latency_ms"] = {{"p50", stats_.latency_us.quantile(0.5) / 1000},
                       {"p99", stats_.latency_us.quantile(0.99) / 1000},
                       {"max", stats_.latency_us.max() / 1000}};
  }
  return h;
}

}  // namespace boneyard::server
