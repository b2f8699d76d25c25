#include "server/tables.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cerrno>
#include <chrono>
#include <future>
#include <iostream>
#include <thread>

#include "record/protocol.h"
#include "record/review.h"
#include "server/chat.h"
#include "server/fairness.h"
#include "server/public_log.h"
#include "server/replay.h"

namespace boneyard::server {

using nlohmann::json;
namespace net = boost::asio;

const std::vector<std::string>& bot_levels() {
  static const std::vector<std::string> l{"beginner", "casual", "strong", "expert"};
  return l;
}

int default_bot_pipeline() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(112, 56 * cores);
}

json public_view(const AnyState& st) {
  json v = st.view(st.num_seats());  // a seat nobody holds: every hand hidden
  v["seat"] = nullptr;
  return v;
}

json Table::meta() const {
  json j{{"entropies", entropies}, {"started", started}, {"seed", seed}, {"over", over()}};
  j["joined"] = json::array();
  for (bool b : joined) j["joined"].push_back(b);
  // An open seat's token exists once someone took it from the lobby.
  if (std::find(open.begin(), open.end(), true) != open.end()) {
    j["seat_tokens"] = json::object();
    for (size_t k = 0; k < open.size(); ++k)
      if (open[k]) j["seat_tokens"][std::to_string(k)] = tokens[k];
  }
  people_meta(j);
  if (rated) j["rated_done"] = rated_done;
  if (clock_s > 0) j["clock"] = {{"bank_ms", bank_ms}, {"timeouts", timeouts}};  // the turn clock's banks
  return j;
}

Hub::Hub(Storage& db, net::io_context& ioc, HubConfig cfg) : db_(db), ioc_(ioc), cfg_(cfg) {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  int threads = cfg_.bot_threads;
  if (threads <= 0) threads = std::max(2, cores);
  pool_ = std::make_unique<net::thread_pool>(static_cast<size_t>(threads));
  bcast_ = std::make_unique<net::thread_pool>(static_cast<size_t>(std::max(2, cores / 2)));
  if (cfg_.strong_threads <= 0) cfg_.strong_threads = std::max(1, cores / 2);
  strong_ = std::make_unique<net::thread_pool>(static_cast<size_t>(cfg_.strong_threads));
  if (cfg_.measure) db_.measure_commits(true);
  for (auto& st : db_.load_all()) restore(std::move(st));
  heal_ = std::thread([this] { heal_loop(); });
}

Hub::~Hub() { shutdown(); }

void Hub::shutdown() {
  {
    std::lock_guard lk(heal_m_);
    stopping_ = true;
  }
  heal_cv_.notify_all();
  if (heal_.joinable()) heal_.join();
  if (strong_) strong_->join();
  if (pool_) pool_->join();
  if (bcast_) bcast_->join();
  db_.stop();  // the writes queued so far are stored; their broadcasts are not needed any more
}

// While the storage fails: probe it every second; once it works again, every
// table that a failed write stopped goes on (bot-only tables included).
void Hub::heal_loop() {
  std::unique_lock lk(heal_m_);
  for (int tick = 1; !stopping_; ++tick) {
    heal_cv_.wait_for(lk, std::chrono::seconds(1));
    if (stopping_) return;
    if (tick % 5 == 0) {
      lk.unlock();
      expire_waiting();
      lk.lock();
    }
    if (!stalled_ && db_.problem().empty()) continue;
    lk.unlock();
    if (db_.probe().empty()) {
      stalled_ = false;
      std::vector<std::shared_ptr<Table>> all;
      {
        std::shared_lock l(tables_m_);
        for (const auto& [id, t] : tables_) all.push_back(t);
      }
      for (const auto& t : all) resume(t);
    }
    lk.lock();
  }
}

void Hub::resume(const std::shared_ptr<Table>& t) {
  std::lock_guard lk(t->m);
  if (!t->stalled || !t->broken.empty() || stopping_) return;
  t->stalled = false;
  if (t->inflight > 0) return;
  try {
    if (!t->started) {
      bool humans = false;
      for (int k = 0; k < t->n; ++k) humans |= t->human(k) && !t->joined[static_cast<size_t>(k)];
      if (!humans) {
        start_game(*t);
        persist(t, Change::of_meta());
        return;
      }
    }
    if (t->session) settle(*t);
    if (t->session && t->session->events().size() > t->queued) {
      persist(t, Change{});
      return;
    }
  } catch (const std::exception& e) {
    t->broken = fmt::format("cannot resume: {}", e.what());
  }
  schedule_bot(t);
}

// ---------------------------------------------------------------- creation

namespace {
// The hand in play's number, for the log (the last one once the game is over).
int log_hand(const AnyState& st) { return static_cast<int>(st.hands().size()) + (st.terminal() ? 0 : 1); }

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
  SeatPeople seated{std::vector<std::string>(static_cast<size_t>(n)), std::vector<std::string>(static_cast<size_t>(n))};
  if (people) seated = *people;
  if (body.contains("key")) {
    int ks = -1;
    for (int k = 0; k < n && ks < 0; ++k)
      if (players[static_cast<size_t>(k)] == "human" && !open[static_cast<size_t>(k)]) ks = k;
    ks = int_option(body, "key_seat", ks, 0, n - 1);
    if (ks < 0 || players[static_cast<size_t>(ks)] != "human" || open[static_cast<size_t>(ks)])
      throw ApiError(400, "'key_seat' must be a human seat: the player of 'key' sits there");
    if (auto p = person_of(json{{"key", body["key"]}})) {
      seated.names[static_cast<size_t>(ks)] = p->name;
      seated.player_ids[static_cast<size_t>(ks)] = p->player_id;
    }
  }
  const int bot_delay = int_option(body, "bot_delay_ms", cfg_.default_bot_delay_ms, 0, 60000);
  const int drop_delay = int_option(body, "drop_delay_ms", cfg_.default_drop_delay_ms, 0, 86400000);
  const int expire = int_option(body, "expire_s", cfg_.default_expire_s, 1, 30 * 86400);
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
  }
  json tokens = json::object();
  std::vector<std::string> toks(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k)
    if (players[static_cast<size_t>(k)] == "human" && !open[static_cast<size_t>(k)]) {
      toks[static_cast<size_t>(k)] = random_hex(16);
      tokens[std::to_string(k)] = toks[static_cast<size_t>(k)];
    }
  const std::string id = random_hex(8);
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
      spec["rated"] = true;
    }
  }
  if (is_public) {
    spec["public"] = true;
    spec["open"] = open;
  }
  clock_options(body, spec);  // clock_s, bank_s (turn_clock.cpp)
  StoredTable st;
  st.id = id;
  st.created = static_cast<int64_t>(std::time(nullptr));
  st.spec = spec;
  st.meta = json{{"entropies", std::vector<std::string>(static_cast<size_t>(n))},
                 {"joined", std::vector<bool>(static_cast<size_t>(n), false)},
                 {"started", false},
                 {"seed", 0},
                 {"names", seated.names},
                 {"player_ids", seated.player_ids}};
  // Made whole in memory (a table of bots starts at once: its first deal),
  // stored in one transaction, and only then seen: a table whose creation
  // could not be stored does not exist.
  auto t = build(st);
  if (!t->broken.empty()) throw ApiError(500, t->broken);
  Write w;
  w.table = id;
  w.gen = t->gen;
  w.spec = spec;
  {
    std::lock_guard lk(t->m);
    bool humans = false;
    for (int k = 0; k < t->n; ++k) humans |= t->human(k);
    if (!humans) start_game(*t);
    w.meta = t->meta();
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
    t->durable_meta = t->meta();
    std::unique_lock lk2(tables_m_);
    tables_[t->id] = t;
  }
  {
    std::lock_guard lk(t->m);
    lobby_update(*t);
    schedule_bot(t);
  }
  return {{"id", id}, {"tokens", tokens}, {"spectate", spectate}, {"commitment", spec["commitment"]}, {"seats", n}};
}

std::shared_ptr<Table> Hub::build(const StoredTable& st) {
  auto t = std::make_shared<Table>();
  t->id = st.id;
  try {
    const json& s = st.spec;
    t->spec = s;
    t->game = s.at("game").get<std::string>();
    for (const auto& [k, v] : s.at("options").items()) t->options.emplace_back(k, v.get<std::string>());
    t->players = s.at("players").get<std::vector<std::string>>();
    t->n = static_cast<int>(t->players.size());
    t->tokens = s.at("tokens").get<std::vector<std::string>>();
    t->spectate = s.at("spectate").get<std::string>();
    t->secret = s.at("secret").get<std::string>();
    t->commitment = s.at("commitment").get<std::string>();
    t->bot_delay_ms = s.at("bot_delay_ms").get<int>();
    t->drop_delay_ms = s.at("drop_delay_ms").get<int>();
    t->takeover_level = s.at("takeover_level").get<std::string>();
    t->provably_fair = s.value("provably_fair", true);
    t->client = s.value("client", "");
    t->expire_s = s.value("expire_s", int64_t{86400});
    t->is_public = s.value("public", false);
    t->rated = s.value("rated", false);
    t->rated_done = st.meta.value("rated_done", false);
    t->open = s.value("open", std::vector<bool>(t->players.size(), false));
    if (t->open.size() != t->players.size()) throw Error("'open' does not match the seats");
    if (st.meta.contains("seat_tokens"))
      for (const auto& [k, tok] : st.meta["seat_tokens"].items()) t->tokens.at(std::stoul(k)) = tok.get<std::string>();
    t->entropies = st.meta.at("entropies").get<std::vector<std::string>>();
    t->joined = st.meta.at("joined").get<std::vector<bool>>();
    t->started = st.meta.at("started").get<bool>();
    t->seed = st.meta.at("seed").get<uint64_t>();
    t->read_people(st.meta);
  } catch (const std::exception& e) {
    t->broken = fmt::format("stored table is unreadable: {}", e.what());
  }
  const size_t n = static_cast<size_t>(std::max(t->n, 0));
  t->bots.resize(n);
  t->connections.assign(n, 0);
  t->autopilot.assign(n, false);
  t->drop_gen.assign(n, 0);
  t->drop_cancel.assign(n, nullptr);
  clock_load(*t, st.meta);
  chat_load(*t, st.chat);
  t->created = st.created;
  if (t->entropies.size() != n || t->joined.size() != n || t->tokens.size() != n) {
    if (t->broken.empty()) t->broken = "stored table is inconsistent";
  }
  t->durable_meta = st.meta;
  return t;
}

void Hub::restore(StoredTable st) {
  auto t = build(st);
  if (t->broken.empty() && st.meta.value("over", false)) return;  // finished: loaded on demand
  {
    std::lock_guard lk(t->m);
    bool meta = false;
    if (t->broken.empty() && t->started) {
      try {
        t->set_session(replay_from_seed(t->game, t->options, t->seed, st.events));
        for (int k = 0; k < t->n; ++k)
          t->session->players()[static_cast<size_t>(k)] = t->players[static_cast<size_t>(k)];
        t->durable = t->queued = st.events.size();
        settle(*t);  // a crash between a move and its chance outcome
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
      if (t->human(k)) arm_drop(t, k);
  }
  // A seat taken from the lobby before the restart gets its time again.
  if (t->broken.empty() && !t->started)
    for (int k = 0; k < t->n; ++k) {
      const size_t u = static_cast<size_t>(k);
      if (t->open[u] && !t->tokens[u].empty() && !t->joined[u]) claim_timer(t, k, t->tokens[u]);
    }
  lobby_update(*t);
  clock_tick(t);  // the turn in play is timed afresh, with the stored banks
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
  auto t = build(*st);
  {
    std::lock_guard lk(t->m);
    if (t->broken.empty() && t->started) {
      try {
        t->set_session(replay_from_seed(t->game, t->options, t->seed, st->events));
        for (int k = 0; k < t->n; ++k)
          t->session->players()[static_cast<size_t>(k)] = t->players[static_cast<size_t>(k)];
      } catch (const std::exception& e) {
        t->broken = fmt::format("stored table does not replay: {}", e.what());
        t->set_session(nullptr);
      }
    }
    t->durable = t->queued = st->events.size();
    if (!t->finished()) throw ApiError(404, fmt::format("no table '{}'", id.substr(0, 64)));
  }
  keep_finished(t);
  return t;
}

int Hub::seat_for(const Table& t, const std::string& token) const {
  if (token.empty()) throw ApiError(401, "a token is required (a seat's token or the spectator token)");
  for (int k = 0; k < t.n; ++k)
    if (!t.tokens[static_cast<size_t>(k)].empty() && t.tokens[static_cast<size_t>(k)] == token) return k;
  if (token == t.spectate) return -1;
  throw ApiError(403, "this token holds no seat at this table");
}

// ---------------------------------------------------------------- views

json Hub::message(Table& t, int seat, bool with_log) {
  json m{{"type", "state"},
         {"table", t.id},
         {"game", t.game},
         {"seat", seat >= 0 ? json(seat) : json(nullptr)},
         {"commitment", t.commitment},
         {"provably_fair", t.provably_fair}};
  json seats = json::array();
  for (int k = 0; k < t.n; ++k) {
    const size_t u = static_cast<size_t>(k);
    seats.push_back({{"seat", k},
                     {"player", t.players[u]},
                     {"joined", t.human(k) ? json(bool(t.joined[u])) : json(true)},
                     {"connected", t.human(k) ? json(t.connections[u] > 0) : json(true)},
                     {"autopilot", bool(t.autopilot[u])}});
  }
  m["seats"] = seats;
  m["rated"] = t.rated;
  people_view(t, seat, m);
  if (t.clock_s > 0) m["clock"] = clock_json(t);
  json notices = json::array();
  const size_t from = t.notices.size() > 20 ? t.notices.size() - 20 : 0;
  for (size_t i = from; i < t.notices.size(); ++i) notices.push_back(t.notices[i]);
  m["notices"] = notices;
  m["chat"] = chat_json(t, seat);  // this audience's lines only
  if (!t.broken.empty()) {
    m["status"] = "broken";
    m["error"] = t.broken;
    return m;
  }
  if (!t.session) {
    m["status"] = "waiting";
    m["version"] = 0;
    m["view"] = nullptr;
    m["waiting_for"] = json::array();
    for (int k = 0; k < t.n; ++k)
      if (t.human(k) && !t.joined[static_cast<size_t>(k)]) m["waiting_for"].push_back(k);
    m["legal"] = json::array();
    m["to_act"] = false;
    return m;
  }
  const AnyState& st = t.session->state();
  m["status"] = st.terminal() ? "over" : "playing";
  m["version"] = t.session->events().size();
  m["view"] = seat >= 0 ? st.view(seat) : public_view(st);
  const Actor a = st.actor();
  m["actor"] = actor_json(a);
  const bool to_act = seat >= 0 && a.acts(seat);
  m["to_act"] = to_act;
  m["legal"] = to_act ? json(st.legal_moves(seat)) : json::array();
  m["scores"] = st.scores();
  m["hands_finished"] = st.hands().size();
  if (with_log) m["log"] = public_log(*t.session, kLogEntries, log_hand(st));  // "Last moves"
  if (t.finished()) {
    m["returns"] = st.returns();
    m["secret"] = t.secret;
  }
  return m;
}

// The message as sent on each change: the log's entries come as text
// serialized once (Table::log_text); the rest as message() builds it.
std::string Hub::message_text(Table& t, int seat) {
  const bool log = t.broken.empty() && t.session;
  std::string text = message(t, seat, !log).dump(-1, ' ', false, json::error_handler_t::replace);
  if (log) {
    text.pop_back();  // the closing brace
    text += ",\"log\":";
    t.log_text.append(*t.session, log_hand(t.session->state()), text);
    text += '}';
  }
  return text;
}

void Hub::notice(Table& t, int seat, const std::string& text) {
  t.notices.push_back({{"n", ++t.notice_seq}, {"seat", seat >= 0 ? json(seat) : json(nullptr)}, {"text", text}});
  if (t.notices.size() > 100) t.notices.erase(t.notices.begin(), t.notices.begin() + 50);
}

// With t->m held. Nothing is broadcast while a write is in flight (the
// state may not be durable yet): its completion broadcasts.
void Hub::changed(const std::shared_ptr<Table>& t) {
  if (t->inflight > 0) return;
  clock_tick(t);  // before the messages: they show whose turn is timed
  lobby_update(*t);
  const auto began = std::chrono::steady_clock::now();
  // Each seat's message is built once per change; spectators share one.
  std::map<int, std::shared_ptr<const std::string>> cache;
  auto& subs = t->subs;
  for (auto it = subs.begin(); it != subs.end();) {
    auto sub = it->second.lock();
    if (!sub) {
      it = subs.erase(it);
      continue;
    }
    auto& msg = cache[it->first];
    if (!msg) msg = std::make_shared<const std::string>(message_text(*t, it->first));
    sub->push(msg);
    ++it;
  }
  if (!t->arrivals.empty()) {
    for (const auto& [arrived, durable] : t->arrivals) measured(arrived, durable, began);
    t->arrivals.clear();
  }
  if (t->gate_slot) {
    t->gate_slot = false;
    leave_gate();
  }
  if (t->finished()) {
    rate(t);
    retire(t);
    return;
  }
  schedule_bot(t);
}

void Hub::broadcast(const std::shared_ptr<Table>& t) {
  std::lock_guard lk(t->m);
  changed(t);
}

// ---------------------------------------------------------------- storage

// A request's answer shows the table as stored: it waits (briefly: one
// group commit) for the writes in flight.
void Hub::wait_stored(std::unique_lock<std::mutex>& lk, Table& t) {
  t.idle.wait_for(lk, std::chrono::seconds(10), [&] { return t.inflight == 0; });
}

void Hub::persist(const std::shared_ptr<Table>& t, Change change, std::function<void(const std::string&)> then) {
  Write w;
  w.table = t->id;
  w.gen = t->gen;
  if (change.meta) w.meta = t->meta();
  const size_t end = t->session ? t->session->events().size() : 0;
  if (end > t->queued) {
    w.first = t->queued;
    w.events.assign(t->session->events().begin() + static_cast<long>(t->queued), t->session->events().end());
  }
  w.chat = change.chat;
  w.ratings = std::move(change.ratings);
  t->queued = std::max(t->queued, end);
  ++t->inflight;
  std::optional<json> m = w.meta;
  w.done = [this, t, gen = w.gen, end, m = std::move(m), arrival = change.arrival, chat = std::move(change.chat),
            then](const std::string& err) {
    {
      std::lock_guard lk(t->m);
      --t->inflight;
      if (err.empty()) {
        t->durable = std::max(t->durable, end);
        if (m) t->durable_meta = *m;
        for (const ChatLine& line : chat) {  // shown once stored, like a move
          auto& lines = t->chat[line.audience];
          lines.push_back(line);
          while (lines.size() > kChatRecent) lines.pop_front();
        }
        if (arrival && cfg_.measure) t->arrivals.emplace_back(*arrival, std::chrono::steady_clock::now());
        t->stalled = false;
      } else if (gen == t->gen) {
        rollback(*t);
      }
      // The broadcast (and the next bot) off the writer thread.
      if (t->inflight == 0) {
        clock_tick(t);  // a turn is timed from the moment it is durable (before any answer shows it)
        t->idle.notify_all();
        announce(t);
      }
    }
    if (then) then(err);
  };
  if (!db_.submit(std::move(w))) {
    if (--t->inflight == 0) t->idle.notify_all();
    rollback(*t);
    if (then) then("the server is stopping");
  }
}

void Hub::persist_and_wait(std::unique_lock<std::mutex>& lk, const std::shared_ptr<Table>& t, Change change,
                           const char* what) {
  auto stored = std::make_shared<std::promise<std::string>>();
  auto fut = stored->get_future();
  persist(t, std::move(change), [stored](const std::string& e) { stored->set_value(e); });
  // The answer waits for the change's group to be durable (a few ms: one
  // fsync for every change waiting then), off the table's lock.
  lk.unlock();
  const std::string err = fut.get();
  lk.lock();
  if (!err.empty()) throw ApiError(503, fmt::format("storage failed; {}: {}", what, err));
  wait_stored(lk, *t);
}

// Every broadcast runs on a broadcast thread (never a bot's, a request's or
// the writer's): the change's messages, then what follows it (the next bot).
void Hub::announce(const std::shared_ptr<Table>& t) {
  if (!stopping_) net::post(*bcast_, [this, t] { broadcast(t); });
}

// With t->m held: back to what is durable, in a new generation (writes made
// on top of the lost ones are refused by the storage).
void Hub::rollback(Table& t) {
  ++t.gen;
  t.stalled = true;
  stalled_ = true;
  try {
    const json& m = t.durable_meta;
    t.entropies = m.at("entropies").get<std::vector<std::string>>();
    t.joined = m.at("joined").get<std::vector<bool>>();
    t.started = m.at("started").get<bool>();
    t.seed = m.at("seed").get<uint64_t>();
    if (m.contains("seat_tokens"))
      for (const auto& [k, tok] : m["seat_tokens"].items()) t.tokens.at(std::stoul(k)) = tok.get<std::string>();
    t.read_people(m);
    if (!t.started)
      t.set_session(nullptr);
    else if (t.session && t.session->events().size() > t.durable)
      rebuild(t, t.durable);
  } catch (const std::exception& e) {
    t.broken = fmt::format("cannot roll back to the stored table: {}", e.what());
  }
  t.queued = t.durable;
  t.arrivals.clear();
  clock_release(t);
  clock_load(t, t.durable_meta);     // the banks as stored
  for (auto& b : t.bots) b.reset();  // a bot may hold state from the lost moves
  std::cerr << "boneyard serve: table " << t.id << ": a write failed; back to its " << t.durable
            << " stored events until the storage heals\n";
}

json Hub::get(const std::string& id, const std::string& token) {
  auto t = table(id);
  std::unique_lock lk(t->m);
  wait_stored(lk, *t);
  return message(*t, seat_for(*t, token));
}

// ---------------------------------------------------------------- moves

void Hub::rebuild(Table& t, size_t events) {
  std::vector<RecordEvent> ev(t.session->events().begin(), t.session->events().begin() + static_cast<long>(events));
  t.set_session(replay_from_seed(t.game, t.options, t.seed, ev));
  for (int k = 0; k < t.n; ++k) t.session->players()[static_cast<size_t>(k)] = t.players[static_cast<size_t>(k)];
}

// Chance outcomes, in memory: stored with the move that led to them.
void Hub::settle(Table& t) {
  while (t.session->state().actor().kind == Actor::Chance) t.session->chance();
}

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
  settle(t);
  clock_stop(t, seat, arrival);  // the turn is timed to the move's arrival
  const bool over = t.session->state().terminal();
  if (over) notice(t, -1, "the game is over; the server's secret is revealed");
  // The meta says "over" (not loaded at start any more), and the clock's banks.
  Change change;
  change.meta = over || t.clock_s > 0;
  change.arrival = arrival;
  return {canon, std::move(change)};
}

void Hub::measured(Clock::time_point since, Clock::time_point durable, Clock::time_point sending) {
  if (!cfg_.measure) return;
  auto us = [](Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); };
  const auto now = Clock::now();
  std::lock_guard lk(stats_.m);
  stats_.latency_us.add(us(now - since));
  stats_.durable_us.add(us(durable - since));
  stats_.queued_us.add(us(sending - durable));
  stats_.sending_us.add(us(now - sending));
}

json Hub::move(const std::string& id, const std::string& token, const std::string& move) {
  const auto arrival = std::chrono::steady_clock::now();
  auto t = table(id);
  std::unique_lock lk(t->m);
  const int seat = seat_for(*t, token);
  if (seat < 0) throw ApiError(403, "a spectator cannot move");
  if (!t->broken.empty()) throw ApiError(500, t->broken);
  if (!t->session) throw ApiError(409, "the game has not started: it starts when every human seat has joined");
  if (t->over()) throw ApiError(409, "the game is over");
  const Actor a = t->session->state().actor();
  if (!a.acts(seat)) throw ApiError(409, fmt::format("not your turn: {}", to_string(a)));
  if (move.size() > 200) throw ApiError(400, "the move is too long");
  if (t->autopilot[static_cast<size_t>(seat)]) {
    t->autopilot[static_cast<size_t>(seat)] = false;
    notice(*t, seat, fmt::format("seat {} is back and plays again", seat));
  }
  auto [canon, change] = apply_move(*t, seat, move, arrival);
  if (!t->clock_forced.empty()) t->clock_forced[static_cast<size_t>(seat)] = false;
  persist_and_wait(lk, t, std::move(change), "the move was not made");
  json m = message(*t, seat);
  m["move"] = canon;
  return m;
}

// ---------------------------------------------------------------- joining

// In memory; the caller stores the meta and the first chance outcomes.
void Hub::start_game(Table& t) {
  t.seed = derive_seed(t.secret, t.entropies);
  t.started = true;
  t.set_session(std::make_unique<Session>(t.game, t.options, t.seed));
  for (int k = 0; k < t.n; ++k) t.session->players()[static_cast<size_t>(k)] = t.players[static_cast<size_t>(k)];
  notice(t, -1, "every seat has joined: entropy is closed and the game starts");
  settle(t);
}

void Hub::join_locked(const std::shared_ptr<Table>& t, int seat, const std::optional<std::string>& entropy) {
  if (!t->broken.empty()) throw ApiError(500, t->broken);
  if (entropy) {
    if (entropy->size() > 256) throw ApiError(400, "entropy is at most 256 characters");
    for (const char c : *entropy)
      if (c < 0x20 || c > 0x7e) throw ApiError(400, "entropy must be printable ASCII text");
    if (t->started) throw ApiError(409, "entropy is closed: the game has started");
    t->entropies[static_cast<size_t>(seat)] = *entropy;
  }
  if (t->started) return;
  t->joined[static_cast<size_t>(seat)] = true;
  bool all = true;
  for (int k = 0; k < t->n; ++k) all &= !t->human(k) || t->joined[static_cast<size_t>(k)];
  if (!all) {
    notice(*t, seat, fmt::format("seat {} has joined", seat));
    return;
  }
  start_game(*t);
  // Someone who joined and left before the start gets the usual grace
  // period, then a bot plays for them (a connection cancels it).
  for (int k = 0; k < t->n; ++k)
    if (t->human(k) && t->connections[static_cast<size_t>(k)] == 0) arm_drop(t, k);
}

json Hub::join(const std::string& id, const std::string& token, const std::optional<std::string>& entropy,
               const json& who) {
  const std::optional<SeatPerson> person = person_of(who);  // checked (and looked up) before the table is locked
  auto t = table(id);
  std::unique_lock lk(t->m);
  const int seat = seat_for(*t, token);
  if (seat < 0) throw ApiError(403, "a spectator does not join; watch with GET or the WebSocket");
  const bool was = t->started;
  join_locked(t, seat, entropy);
  const bool named = person && seat_person(*t, seat, *person);
  if (was && !named) return message(*t, seat);
  persist_and_wait(lk, t, Change::of_meta(), "the join was not stored");
  return message(*t, seat);
}

// ---------------------------------------------------------------- lobby

json Hub::sit(const std::string& id, const json& body) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  std::optional<int> wanted;
  if (body.contains("seat")) {
    if (!body["seat"].is_number_integer()) throw ApiError(400, "'seat' must be a seat number (from 0)");
    wanted = body["seat"].get<int>();
  }
  const std::optional<SeatPerson> person = person_of(body);  // "key" or "name", as for a join
  auto t = table(id);
  std::unique_lock lk(t->m);
  if (!t->is_public) throw ApiError(403, "this table is not public: its seats go by invitation links");
  if (!t->broken.empty()) throw ApiError(409, t->broken);
  if (t->started) throw ApiError(409, "the game has started: no seat is free");
  auto is_free = [&](int k) { return t->open[static_cast<size_t>(k)] && t->tokens[static_cast<size_t>(k)].empty(); };
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
  t->tokens[static_cast<size_t>(seat)] = token;
  if (person) seat_person(*t, seat, *person);
  notice(*t, seat, fmt::format("seat {} was taken from the lobby", seat));
  persist_and_wait(lk, t, Change::of_meta(), "the seat was not taken");
  claim_timer(t, seat, token);
  lobby_update(*t);  // before the answer: whoever asks the lobby next sees the seat taken (the broadcast comes later)
  return {{"table", t->id}, {"seat", seat}, {"token", token}};
}

// With t->m held. A seat taken from the lobby whose player never came is
// free again after claim_s (a new token when taken again: the old one is void).
void Hub::claim_timer(const std::shared_ptr<Table>& t, int seat, const std::string& token) {
  auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::seconds(cfg_.claim_s));
  timer->async_wait([this, t, seat, token, timer](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    std::lock_guard lk(t->m);
    const size_t u = static_cast<size_t>(seat);
    if (t->started || t->joined[u] || t->tokens[u] != token || !t->broken.empty()) return;
    t->tokens[u].clear();
    t->names[u].clear();
    t->player_ids[u].clear();
    notice(*t, seat, fmt::format("seat {} is free again: its player did not come", seat));
    persist(t, Change::of_meta());  // broadcast (and the lobby) once stored
  });
}

namespace {
// When a lobby message was made (the wall clock, µs): how lobby-bench
// measures each change's way to every watcher.
int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

// With t->m held: the table's line in the lobby, or none (private, started,
// full, closed).
void Hub::lobby_update(const Table& t) {
  if (!t.is_public) return;
  std::optional<json> entry;
  int free = 0;
  for (int k = 0; k < t.n; ++k) free += t.open[static_cast<size_t>(k)] && t.tokens[static_cast<size_t>(k)].empty();
  if (t.broken.empty() && !t.started && free > 0) {
    json seats = json::array();
    for (int k = 0; k < t.n; ++k) {
      const size_t u = static_cast<size_t>(k);
      json s{{"seat", k}};
      if (!t.human(k)) {
        s["kind"] = "bot";
        s["level"] = t.players[u].substr(4);
      } else {
        s["kind"] = t.open[u] ? "open" : "human";
        s["taken"] = !t.open[u] || !t.tokens[u].empty();
        s["joined"] = bool(t.joined[u]);
        if (!t.names[u].empty()) s["name"] = t.names[u];
      }
      seats.push_back(s);
    }
    entry = json{{"table", t.id},
                 {"game", t.game},
                 {"options", t.spec.value("options", json::object())},
                 {"seats", seats},
                 {"free", free},
                 {"rated", t.rated},
                 {"clock", t.spec.contains("clock_s") ? t.spec["clock_s"] : json(nullptr)},
                 {"created", t.created}};
  }
  std::lock_guard lk(lobby_m_);
  auto it = lobby_.find(t.id);
  // The feed sends the change alone (a watcher keeps the list; a gap in the
  // versions tells it to fetch GET /api/lobby again).
  json change{{"type", "lobby_change"}, {"version", ++lobby_version_}, {"at_us", now_us()}};
  if (!entry) {
    if (it == lobby_.end()) {
      --lobby_version_;
      return;
    }
    lobby_.erase(it);
    change["removed"] = t.id;
  } else {
    if (it != lobby_.end() && it->second == *entry) {
      --lobby_version_;
      return;
    }
    change["table"] = *entry;
    lobby_[t.id] = std::move(*entry);
  }
  if (lobby_subs_.empty()) return;
  const auto msg = std::make_shared<const std::string>(change.dump(-1, ' ', false, json::error_handler_t::replace));
  std::erase_if(lobby_subs_, [&](const std::weak_ptr<Subscriber>& w) {
    auto sub = w.lock();
    if (sub) sub->push(msg);
    return !sub;
  });
}

// With lobby_m_ held: the newest 100 public tables waiting for players.
json Hub::lobby_message() {
  std::vector<const json*> all;
  for (const auto& [id, e] : lobby_) all.push_back(&e);
  std::sort(all.begin(), all.end(), [](const json* a, const json* b) {
    return std::pair(a->at("created").get<int64_t>(), a->at("table").get<std::string>()) >
           std::pair(b->at("created").get<int64_t>(), b->at("table").get<std::string>());
  });
  json tables = json::array();
  for (size_t i = 0; i < all.size() && i < 100; ++i) tables.push_back(*all[i]);
  return {
      {"type", "lobby"}, {"version", lobby_version_}, {"at_us", now_us()}, {"tables", tables}, {"count", all.size()}};
}

json Hub::lobby() {
  std::lock_guard lk(lobby_m_);
  return lobby_message();
}

void Hub::lobby_subscribe(const std::shared_ptr<Subscriber>& sub) {
  std::lock_guard lk(lobby_m_);
  if (lobby_subs_.size() >= 100000) throw ApiError(503, "too many lobby watchers");
  lobby_subs_.push_back(sub);
  sub->push(std::make_shared<const std::string>(lobby_message().dump(-1, ' ', false, json::error_handler_t::replace)));
}

void Hub::lobby_unsubscribe(const Subscriber* sub) {
  std::lock_guard lk(lobby_m_);
  std::erase_if(lobby_subs_, [&](const std::weak_ptr<Subscriber>& w) {
    auto s = w.lock();
    return !s || s.get() == sub;
  });
}

int Hub::subscribe(const std::string& id, const std::string& token, const std::optional<std::string>& entropy,
                   const std::shared_ptr<Subscriber>& sub) {
  auto t = table(id);
  std::lock_guard lk(t->m);
  const int seat = seat_for(*t, token);
  if (t->subs.size() >= 1000) throw ApiError(503, "too many watchers at this table");
  if (seat >= 0) {
    // Connecting joins the seat; entropy given again on a reconnect, after
    // the start, is ignored rather than refused.
    if (!t->started) {
      join_locked(t, seat, entropy);
      persist(t, Change::of_meta());  // broadcast once stored
    }
    const size_t u = static_cast<size_t>(seat);
    if (t->connections[u]++ == 0) {
      ++t->drop_gen[u];
      release_drop(*t, seat);  // the player is back: the timer (and the table it holds) go now
      if (t->autopilot[u]) {
        t->autopilot[u] = false;
        notice(*t, seat, fmt::format("seat {} is back and plays again", seat));
      }
    }
  }
  t->subs.emplace_back(seat, sub);
  announce(t);
  return seat;
}

void Hub::unsubscribe(const std::string& id, int seat, const Subscriber* sub) {
  std::shared_ptr<Table> t = find(id);  // never loads a finished table back
  if (!t) return;
  std::lock_guard lk(t->m);
  auto& subs = t->subs;
  subs.erase(std::remove_if(subs.begin(), subs.end(),
                            [&](const auto& p) {
                              auto s = p.second.lock();
                              return !s || s.get() == sub;
                            }),
             subs.end());
  if (seat < 0 || seat >= t->n) return;
  const size_t u = static_cast<size_t>(seat);
  if (t->connections[u] > 0 && --t->connections[u] == 0 && t->session && !t->over()) {
    notice(*t, seat, fmt::format("seat {} disconnected; the seat is kept for them", seat));
    arm_drop(t, seat);
    announce(t);
  }
}

// With t->m held: after drop_delay_ms without a connection, a bot plays
// the seat. The timer is released as soon as the player returns.
void Hub::arm_drop(const std::shared_ptr<Table>& t, int seat) {
  const size_t u = static_cast<size_t>(seat);
  release_drop(*t, seat);
  const uint64_t gen = ++t->drop_gen[u];
  auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::milliseconds(t->drop_delay_ms));
  timer->async_wait([this, t, seat, gen, timer](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    std::lock_guard l(t->m);
    const size_t v = static_cast<size_t>(seat);
    if (t->drop_gen[v] == gen) t->drop_cancel[v] = nullptr;
    if (t->connections[v] == 0 && t->drop_gen[v] == gen && !t->autopilot[v] && !t->over()) {
      t->autopilot[v] = true;
      notice(*t, seat,
             fmt::format("seat {} is away: a {} bot plays for it until they come back", seat, t->takeover_level));
      announce(t);
    }
  });
  t->drop_cancel[u] = [this, w = std::weak_ptr<net::steady_timer>(timer)] {
    net::post(ioc_, [w] {
      if (auto p = w.lock()) p->cancel();
    });
  };
}

void Hub::release_drop(Table& t, int seat) {
  auto& c = t.drop_cancel[static_cast<size_t>(seat)];
  if (c) c();
  c = nullptr;
}

// ---------------------------------------------------------------- retention

// With t->m held: a finished game leaves the live tables (it stays in the
// database, and in a small cache of recently finished ones).
void Hub::retire(const std::shared_ptr<Table>& t) {
  for (int k = 0; k < t->n; ++k) release_drop(*t, k);
  clock_release(*t);
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
    for (int k = 0; k < t->n; ++k) release_drop(*t, k);
    clock_release(*t);
    {
      std::unique_lock l(tables_m_);
      tables_.erase(t->id);
    }
    Write w;
    w.table = t->id;
    w.gen = t->gen;
    w.erase = true;
    db_.submit(std::move(w));
    notice(*t, -1, "nobody joined in time: the table is closed");
    t->broken = "the table expired before every seat joined";
    announce(t);
  }
}

// ---------------------------------------------------------------- bots

int Hub::bot_seat(const Table& t) const {
  if (!t.session) return -1;
  const Actor a = t.session->state().actor();
  for (int k = 0; k < t.n; ++k)
    if (a.acts(k) && (!t.human(k) || t.autopilot[static_cast<size_t>(k)] || t.clock_forced[static_cast<size_t>(k)]))
      return k;
  return -1;
}

std::string Hub::bot_level(const Table& t, int seat) const {
  return t.human(seat) ? t.takeover_level : t.players[static_cast<size_t>(seat)].substr(4);
}

AnyBot& Hub::seat_bot(Table& t, int seat) {
  const size_t u = static_cast<size_t>(seat);
  const std::string level = bot_level(t, seat);
  auto& b = t.bots[u];
  if (!b) {
    const GameEntry& g = find_game(t.game);
    const uint64_t seed = t.seed ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(seat + 1));
    BotOptions o;
    std::string name;
    if (level == "beginner")
      name = "random";
    else if (level == "casual")
      name = "greedy";
    else {
      name = strongest_fair_bot(g);
      if (level == "strong")
        o.think_ms = cfg_.strong_ms;
      else {
        o.think_ms = cfg_.expert_ms;
        int th = cfg_.expert_threads;
        if (th <= 0) th = std::clamp(static_cast<int>(std::thread::hardware_concurrency()) - 1, 1, 4);
        o.threads = th;
      }
    }
    b = make_bot(g, name, seed, o);
  }
  return *b;
}

// With t->m held. A bot answers only a durable state (nothing in flight) of
// a table whose writes succeed.
void Hub::schedule_bot(const std::shared_ptr<Table>& t) {
  if (!cfg_.run_bots || stopping_ || t->bot_pending || !t->session || t->over() || !t->broken.empty()) return;
  if (t->inflight > 0 || t->stalled) return;
  if (bot_seat(*t) < 0) return;
  t->bot_pending = true;
  const size_t version = t->session->events().size();
  if (t->bot_delay_ms <= 0) {
    run_bot(t, version);
    return;
  }
  auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::milliseconds(t->bot_delay_ms));
  timer->async_wait([this, t, version, timer](const boost::system::error_code& ec) {
    if (ec || stopping_) {
      std::lock_guard l(t->m);
      t->bot_pending = false;
      return;
    }
    std::lock_guard l(t->m);
    run_bot(t, version);
  });
}

// With t->m held. Cheap bots (beginner, casual) think on the main pool;
// strong and expert ones on their own pool (strong_threads at once), at most
// strong_per_client at once for the tables of one address, so a few
// expensive tables never delay a cheap bot or another person's tables.
void Hub::run_bot(const std::shared_ptr<Table>& t, size_t version) {
  const int seat = bot_seat(*t);
  const std::string level = seat >= 0 ? bot_level(*t, seat) : "casual";
  if (level != "strong" && level != "expert") {
    const auto queued = Clock::now();
    pass_gate([this, t, version, queued] {
      if (cfg_.measure) {
        std::lock_guard lk(stats_.m);
        stats_.gated_us.add(std::chrono::duration<double, std::micro>(Clock::now() - queued).count());
      }
      if (!bot_turn(t, version, true)) leave_gate();
    });
    return;
  }
  const std::string client = t->client;
  auto task = [this, t, version, client] {
    bot_turn(t, version);
    strong_done(client);
  };
  std::lock_guard lk(strong_m_);
  int& running = strong_running_[client];
  if (client.empty() || cfg_.strong_per_client <= 0 || running < cfg_.strong_per_client) {
    ++running;
    net::post(*strong_, std::move(task));
  } else {
    strong_waiting_[client].push_back(std::move(task));
  }
}

// The cheap bots' gate: at most bot_pipeline of their moves between the
// decision and the broadcast. Under load a bot waits here, before it thinks,
// rather than its move queueing behind thousands of others after it: the
// moves in flight (a person's among them, which never waits here) keep a
// short way to every watcher, and the throughput is the same.
void Hub::pass_gate(std::function<void()> turn) {
  std::lock_guard lk(gate_m_);
  if (cfg_.bot_pipeline <= 0 || gate_used_ < cfg_.bot_pipeline) {
    gate_peak_ = std::max(gate_peak_, ++gate_used_);
    net::post(*pool_, std::move(turn));
  } else {
    gate_waiting_.push_back(std::move(turn));
  }
}

int Hub::gate_peak() {
  std::lock_guard lk(gate_m_);
  return gate_peak_;
}

void Hub::leave_gate() {
  std::lock_guard lk(gate_m_);
  if (!gate_waiting_.empty() && !stopping_) {
    net::post(*pool_, std::move(gate_waiting_.front()));  // the slot passes on
    gate_waiting_.pop_front();
  } else {
    --gate_used_;
  }
}

void Hub::strong_done(const std::string& client) {
  std::lock_guard lk(strong_m_);
  auto w = strong_waiting_.find(client);
  if (w != strong_waiting_.end() && !w->second.empty()) {
    auto next = std::move(w->second.front());
    w->second.pop_front();
    if (w->second.empty()) strong_waiting_.erase(w);
    net::post(*strong_, std::move(next));  // its address's slot passes on
    return;
  }
  auto r = strong_running_.find(client);
  if (r != strong_running_.end() && --r->second <= 0) strong_running_.erase(r);
}

// A bot's thinking yields the CPU to everything a move goes through once it
// is made (network, commit, broadcast): under load the bots' turns wait,
// never a move already made, nor a person's request. Per thread (Linux).
static void think_at_low_priority() {
  thread_local const bool lowered = [] {
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, tid);
    return errno == 0 && setpriority(PRIO_PROCESS, tid, std::min(nice + 10, 19)) == 0;
  }();
  (void)lowered;
}

bool Hub::bot_turn(const std::shared_ptr<Table>& t, size_t version, bool gated) {
  think_at_low_priority();
  std::unique_ptr<AnyState> st;
  AnyBot* bot = nullptr;
  int seat = -1;
  {
    std::lock_guard lk(t->m);
    if (stopping_ || !t->session || t->session->events().size() != version || (seat = bot_seat(*t)) < 0) {
      t->bot_pending = false;
      schedule_bot(t);
      return false;
    }
    st = t->session->state().clone();
    try {
      bot = &seat_bot(*t, seat);
    } catch (const std::exception& e) {
      t->bot_pending = false;
      notice(*t, seat, fmt::format("no bot for seat {}: {}", seat, e.what()));
      return false;
    }
  }
  std::string mv, err;
  try {
    mv = st->ask_bot(seat, *bot);  // thinking, off every lock and off the network threads
  } catch (const std::exception& e) {
    err = e.what();
  }
  const auto arrival = std::chrono::steady_clock::now();
  std::lock_guard lk(t->m);
  t->bot_pending = false;
  if (stopping_) return false;
  if (!err.empty()) {
    notice(*t, seat, fmt::format("the bot for seat {} failed: {}", seat, err));
    return false;
  }
  if (t->session && t->session->events().size() == version && bot_seat(*t) == seat && t->inflight == 0) {
    try {
      persist(t, apply_move(*t, seat, mv, arrival).second);  // broadcast, and the next bot, once durable
      t->clock_forced[static_cast<size_t>(seat)] = false;    // the clock's bot plays one move only
    } catch (const std::exception& e) {
      std::cerr << "boneyard serve: table " << t->id << ": bot move failed: " << e.what() << "\n";
      return false;
    }
    t->gate_slot = gated;  // given back once broadcast (changed())
    return gated;
  }
  schedule_bot(t);
  return false;
}

// ---------------------------------------------------------------- records

json Hub::record(const std::string& id) {
  auto t = table(id);
  std::unique_lock lk(t->m);
  wait_stored(lk, *t);
  if (!t->broken.empty()) throw ApiError(500, t->broken);
  if (!t->finished()) throw ApiError(409, "the game is not over: its record is available when it ends");
  json r = t->session->record();
  r["players"] = t->players;
  r["names"] = t->names;  // the display names ("" where none)
  r["fairness"] = {{"commitment", t->commitment}, {"secret", t->secret},
                   {"entropies", t->entropies},   {"seed", t->seed},
                   {"derivation", kDerivation},   {"provably_fair", t->provably_fair}};
  r["fairness"]["seed_text"] = std::to_string(t->seed);  // JavaScript reads 64-bit numbers rounded
  r["table"] = t->id;
  return r;
}

json Hub::fairness(const std::string& id) {
  auto t = table(id);
  std::unique_lock lk(t->m);
  wait_stored(lk, *t);
  json f{{"table", t->id},
         {"commitment", t->commitment},
         {"derivation", kDerivation},
         {"entropy_closed", t->started},
         {"over", t->finished()},
         {"provably_fair", t->provably_fair}};
  if (t->finished()) {
    f["secret"] = t->secret;
    f["entropies"] = t->entropies;
    f["seed"] = t->seed;
    f["seed_text"] = std::to_string(t->seed);  // the same, exact in JavaScript
  }
  return f;
}

json Hub::hint(const std::string& id, const std::string& token) {
  auto t = table(id);
  std::unique_ptr<AnyState> st;
  int seat;
  size_t version;
  uint64_t seed;
  {
    std::lock_guard lk(t->m);
    seat = seat_for(*t, token);
    if (seat < 0) throw ApiError(403, "a spectator gets no hints");
    if (!t->session) throw ApiError(409, "the game has not started");
    if (t->over()) throw ApiError(409, "the game is over");
    if (!t->session->state().actor().acts(seat)) throw ApiError(409, "not your turn");
    st = t->session->state().clone();
    version = t->session->events().size();
    seed = values_bot_seed(t->seed, seat);
  }
  // Thinking happens outside the table's lock, on a copy, from this seat's
  // observation only: the coach's expected values in the player's unit
  // (record/review.h), as the terminal's hint and the protocol's `values`
  // give them for the same seed, with the review's default budget.
  const ExpectedValues ev = expected_values(*st, seat, seed);
  json moves = json::array();
  for (const auto& [m, v] : ev.moves) moves.push_back({{"move", m}, {"value", v}});
  return {{"table", id},         {"seat", seat},    {"version", version}, {"bot", ev.method},
          {"method", ev.method}, {"unit", ev.unit}, {"moves", moves}};
}

json Hub::review(const std::string& id, const std::string& token, int hand, std::optional<int> seat) {
  auto t = table(id);
  nlohmann::json rec;
  int want;
  {
    std::unique_lock lk(t->m);
    wait_stored(lk, *t);
    if (!t->broken.empty()) throw ApiError(500, t->broken);
    const int mine = seat_for(*t, token);
    if (!t->session) throw ApiError(409, "the game has not started: no hand to review");
    const bool over = t->finished();
    if (mine < 0 && !over)
      throw ApiError(403, "the game is in progress: a spectator gets the review once the game is over");
    want = seat.value_or(mine);
    if (want < 0) throw ApiError(400, "name the seat to review with seat=N");
    if (want >= t->n) throw ApiError(400, fmt::format("seat {} does not exist; seats are 0..{}", want, t->n - 1));
    if (want != mine && !over)
      throw ApiError(403, "the game is in progress: you may review only your own seat until it is over");
    const int done = static_cast<int>(t->session->state().hands().size());
    if (done == 0) throw ApiError(409, "no hand has finished yet");
    if (hand == 0) hand = done;
    if (hand < 0) throw ApiError(400, fmt::format("hand {} does not exist; hands are numbered from 1", hand));
    if (hand > done)
      throw ApiError(
          409, fmt::format("hand {} is not finished: {} hand{} finished so far", hand, done, done == 1 ? "" : "s"));
    auto it = t->reviews.find({want, hand});
    if (it != t->reviews.end()) return it->second;
    rec = t->session->record();
  }
  // The solving happens outside the table's lock, on the record.
  json r = review_json(review_hand(rec, want, hand));
  r["table"] = id;
  std::lock_guard lk(t->m);
  t->reviews[{want, hand}] = r;
  return r;
}

json Hub::replay(const std::string& id, size_t from) {
  auto t = table(id);
  nlohmann::json rec;
  {
    std::unique_lock lk(t->m);
    wait_stored(lk, *t);
    if (!t->broken.empty()) throw ApiError(500, t->broken);
    if (!t->finished()) throw ApiError(409, "the game is still in progress: its replay opens when the game is over");
    rec = t->session->record();
    rec["players"] = t->players;
  }
  json r = replay_steps(rec, from);
  r["table"] = id;
  {
    std::lock_guard lk(t->m);
    r["names"] = t->names;
  }
  return r;
}

json Hub::health() {
  const std::string problem = db_.problem();
  json h{{"ok", problem.empty()}, {"storage", problem.empty() ? std::string("ok") : problem}};
  std::shared_lock lk(tables_m_);
  h["tables"] = tables_.size();  // live: finished ones are in the database only
  h["in_memory"] = Table::alive();
  return h;
}

}  // namespace boneyard::server
