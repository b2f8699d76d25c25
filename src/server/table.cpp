#include "server/table.h"

#include <algorithm>

#include "server/replay.h"

namespace boneyard::server {

using nlohmann::json;

// ---------------------------------------------------------------- the meta

TableMeta TableMeta::fresh(size_t seats, const SeatPeople& people) {
  TableMeta m;
  m.entropies.assign(seats, "");
  m.joined.assign(seats, false);
  m.names = people.names;
  m.player_ids = people.player_ids;
  m.names.resize(seats);
  m.player_ids.resize(seats);
  // A rematch keeps where its people sat down from: two of one network are
  // not rated together at the rematch either (Players::network).
  m.addresses = people.addresses;
  m.addresses.resize(seats);
  for (size_t a = 0; a < seats && m.not_rated.empty(); ++a)
    for (size_t b = a + 1; b < seats && m.not_rated.empty(); ++b)
      if (!m.addresses[a].empty() && m.addresses[a] == m.addresses[b] && !m.player_ids[a].empty() &&
          m.player_ids[a] != m.player_ids[b])
        m.not_rated = not_rated_one_network(a, b);
  return m;
}

json TableMeta::to_json() const {
  json j{{"entropies", entropies}, {"started", started}, {"seed", seed}, {"over", over}};
  j["joined"] = json::array();
  for (bool b : joined) j["joined"].push_back(b);
  // An open seat's token exists once someone took it from the lobby; an
  // invited seat's is here once its invitation was claimed (Hub::claim).
  if (!seat_tokens.empty()) {
    j["seat_tokens"] = json::object();
    for (const auto& [k, tok] : seat_tokens) j["seat_tokens"][std::to_string(k)] = tok;
  }
  j["names"] = names;
  j["player_ids"] = player_ids;
  if (!rematch.empty()) j["rematch"] = {{"table", rematch}, {"tokens", rematch_tokens}, {"spectate", rematch_spectate}};
  if (rated_done) j["rated_done"] = *rated_done;
  if (std::any_of(bot_moves.begin(), bot_moves.end(), [](int n) { return n > 0; })) j["bot_moves"] = bot_moves;
  if (std::any_of(addresses.begin(), addresses.end(), [](const std::string& a) { return !a.empty(); }))
    j["addresses"] = addresses;
  if (!not_rated.empty()) j["not_rated"] = not_rated;
  if (stopped) j["stopped"] = true;
  auto any = [](const std::vector<json>& v) {
    return std::any_of(v.begin(), v.end(), [](const json& x) { return !x.is_null(); });
  };
  if (any(ratings)) j["ratings"] = ratings;
  if (any(rated)) j["rated"] = rated;
  if (rematch_asked > 0) {
    j["rematch_asked"] = rematch_asked;
    j["rematch_yes"] = json::array();
    for (bool b : rematch_yes) j["rematch_yes"].push_back(b);
  }
  if (!bot_events.empty()) j["bot_events"] = bot_events;
  if (!returns.empty()) j["returns"] = returns;
  if (bank_ms && timeouts) j["clock"] = {{"bank_ms", *bank_ms}, {"timeouts", *timeouts}};  // the turn clock's banks
  return j;
}

TableMeta TableMeta::read(const json& j, size_t seats) {
  TableMeta m;
  m.entropies = j.at("entropies").get<std::vector<std::string>>();
  m.joined = j.at("joined").get<std::vector<bool>>();
  m.started = j.at("started").get<bool>();
  m.seed = j.at("seed").get<uint64_t>();
  m.over = j.value("over", false);
  if (m.entropies.size() != seats || m.joined.size() != seats) throw Error("stored table is inconsistent");
  if (j.contains("seat_tokens"))
    for (const auto& [k, tok] : j["seat_tokens"].items()) {
      const size_t u = std::stoul(k);
      if (u >= seats) throw Error("stored table is inconsistent");
      m.seat_tokens[u] = tok.get<std::string>();
    }
  m.names = j.value("names", std::vector<std::string>(seats));
  m.player_ids = j.value("player_ids", std::vector<std::string>(seats));
  m.names.resize(seats);
  m.player_ids.resize(seats);
  if (j.contains("rematch") && j["rematch"].is_object()) {
    const json& r = j["rematch"];
    m.rematch = r.value("table", "");
    m.rematch_tokens = r.value("tokens", std::vector<std::string>(seats));
    m.rematch_spectate = r.value("spectate", "");
  }
  m.rematch_tokens.resize(seats);
  if (j.contains("rated_done")) m.rated_done = j["rated_done"].get<bool>();
  m.bot_moves = j.value("bot_moves", std::vector<int>(seats));
  m.returns = j.value("returns", std::vector<double>{});
  m.bot_moves.resize(seats);
  m.addresses = j.value("addresses", std::vector<std::string>(seats));
  m.addresses.resize(seats);
  m.not_rated = j.value("not_rated", "");
  m.stopped = j.value("stopped", false);
  m.ratings = j.value("ratings", std::vector<json>(seats));
  m.rated = j.value("rated", std::vector<json>(seats));
  m.ratings.resize(seats);
  m.rated.resize(seats);
  m.rematch_asked = j.value("rematch_asked", int64_t{0});
  m.rematch_yes = j.value("rematch_yes", std::vector<bool>(seats));
  m.rematch_yes.resize(seats);
  m.bot_events = j.value("bot_events", std::vector<std::pair<size_t, std::string>>{});
  if (j.contains("clock")) {
    try {
      auto bank = j["clock"].at("bank_ms").get<std::vector<int64_t>>();
      auto outs = j["clock"].at("timeouts").get<std::vector<int>>();
      if (bank.size() == seats) m.bank_ms = bank;
      if (outs.size() == seats) m.timeouts = outs;
    } catch (const std::exception&) {
      // An unreadable clock restarts with full banks; the game itself is unharmed.
    }
  }
  return m;
}

// ---------------------------------------------------------------- the table

Table::Table(const StoredTable& st, int clock_second_ms) : id(st.id), created(st.created) {
  ++alive_;
  try {
    const json& s = st.spec;
    spec = s;
    game = s.at("game").get<std::string>();
    for (const auto& [k, v] : s.at("options").items()) options.emplace_back(k, v.get<std::string>());
    const auto players = s.at("players").get<std::vector<std::string>>();
    const auto tokens = s.at("tokens").get<std::vector<std::string>>();
    const auto open = s.value("open", std::vector<bool>(players.size(), false));
    if (open.size() != players.size()) throw Error("'open' does not match the seats");
    if (tokens.size() != players.size()) throw Error("stored table is inconsistent");
    n = static_cast<int>(players.size());
    seats.resize(players.size());
    for (size_t k = 0; k < seats.size(); ++k) {
      seats[k].player = players[k];
      seats[k].token = tokens[k];
      seats[k].open = open[k];
    }
    spectate = s.at("spectate").get<std::string>();
    secret = s.at("secret").get<std::string>();
    commitment = s.at("commitment").get<std::string>();
    bot_delay_ms = s.at("bot_delay_ms").get<int>();
    drop_delay_ms = s.at("drop_delay_ms").get<int>();
    takeover_level = s.at("takeover_level").get<std::string>();
    provably_fair = s.value("provably_fair", true);
    client = s.value("client", "");
    expire_s = s.value("expire_s", int64_t{86400});
    is_public = s.value("public", false);
    rated = s.value("rated", false);
    clock_s = s.value("clock_s", 0);
    bank_s = s.value("bank_s", 0);
    bank_full_ms = int64_t{bank_s} * clock_second_ms;
  } catch (const std::exception& e) {
    broken = fmt::format("stored table is unreadable: {}", e.what());
    return;
  }
  try {
    restore(TableMeta::read(st.meta, seats.size()));
  } catch (const std::exception& e) {
    broken = std::string(e.what()) == "stored table is inconsistent"
                 ? e.what()
                 : fmt::format("stored table is unreadable: {}", e.what());
  }
  durable_meta = st.meta;
}

std::vector<std::string> Table::players() const {
  std::vector<std::string> out;
  for (const Seat& s : seats) out.push_back(s.player);
  return out;
}

std::vector<std::string> Table::names() const {
  std::vector<std::string> out;
  for (const Seat& s : seats) out.push_back(s.name);
  return out;
}

std::vector<std::string> Table::entropies() const {
  std::vector<std::string> out;
  for (const Seat& s : seats) out.push_back(s.entropy);
  return out;
}

TableMeta Table::meta() const {
  TableMeta m;
  m.started = started;
  m.seed = seed;
  m.over = over();
  if (m.over && session->state().terminal()) m.returns = session->state().returns();  // a stopped game has none
  for (size_t k = 0; k < seats.size(); ++k) {
    const Seat& s = seats[k];
    m.entropies.push_back(s.entropy);
    m.joined.push_back(s.joined);
    // An open seat's token, and one made anew by an invitation's claim: the
    // spec keeps the tokens the table was made with.
    if (s.open || s.token != spec.at("tokens").at(k).get<std::string>()) m.seat_tokens[k] = s.token;
    m.names.push_back(s.name);
    m.player_ids.push_back(s.player_id);
    m.rematch_tokens.push_back(s.rematch_token);
    m.bot_moves.push_back(s.bot_moves);
    m.addresses.push_back(s.address);
    m.ratings.push_back(s.rating);
    m.rated.push_back(s.rated);
    m.rematch_yes.push_back(s.rematch_yes);
  }
  m.not_rated = not_rated;
  m.stopped = stopped;
  m.rematch_asked = rematch_asked;
  m.bot_events = bot_events;
  m.rematch = rematch;
  m.rematch_spectate = rematch_spectate;
  if (rated) m.rated_done = rated_done;
  if (clock_s > 0) {
    m.bank_ms.emplace();
    m.timeouts.emplace();
    for (const Seat& s : seats) {
      m.bank_ms->push_back(s.clock.bank_ms);
      m.timeouts->push_back(s.clock.timeouts);
    }
  }
  return m;
}

void Table::restore(const TableMeta& m) {
  started = m.started;
  seed = m.seed;
  rated_done = m.rated_done.value_or(false);
  rematch = m.rematch;
  rematch_spectate = m.rematch_spectate;
  not_rated = m.not_rated;
  stopped = m.stopped;
  rematch_asked = m.rematch_asked;
  bot_events = m.bot_events;
  for (size_t k = 0; k < seats.size(); ++k) {
    Seat& s = seats[k];
    s.entropy = m.entropies[k];
    s.joined = m.joined[k];
    if (auto it = m.seat_tokens.find(k); it != m.seat_tokens.end())
      s.token = it->second;
    else if (s.open)
      s.token = "";
    s.name = m.names[k];
    s.player_id = m.player_ids[k];
    s.rematch_token = m.rematch_tokens[k];
    s.bot_moves = k < m.bot_moves.size() ? m.bot_moves[k] : 0;
    s.address = k < m.addresses.size() ? m.addresses[k] : "";
    s.rating = k < m.ratings.size() ? m.ratings[k] : json();
    s.rated = k < m.rated.size() ? m.rated[k] : json();
    s.rematch_yes = k < m.rematch_yes.size() && m.rematch_yes[k];
    // The clock as stored (full banks when none is): no turn is timed.
    s.clock.bank_ms = m.bank_ms ? (*m.bank_ms)[k] : bank_full_ms;
    s.clock.timeouts = m.timeouts ? (*m.timeouts)[k] : 0;
    s.clock.running = s.clock.forced = false;
    s.clock.turn_start = {};
  }
}

int Table::seat_for(const std::string& token) const {
  if (token.empty()) throw ApiError(401, "a token is required (a seat's token or the spectator token)");
  for (int k = 0; k < n; ++k)
    if (!seat_at(k).token.empty() && seat_at(k).token == token) return k;
  if (token == spectate) return -1;
  throw ApiError(403, "this token holds no seat at this table");
}

void Table::wait_stored(std::unique_lock<std::mutex>& lk) {
  idle.wait_for(lk, std::chrono::seconds(10), [&] { return inflight == 0; });
}

void Table::set_session(std::unique_ptr<Session> s) {
  session = std::move(s);
  log_text.clear();
}

void Table::replay(const std::vector<RecordEvent>& all, size_t events) {
  std::vector<RecordEvent> ev(all.begin(), all.begin() + static_cast<long>(std::min(events, all.size())));
  set_session(replay_from_seed(game, options, seed, ev));
  for (int k = 0; k < n; ++k) session->players()[static_cast<size_t>(k)] = seat_at(k).player;
}

void Table::settle() {
  while (session->state().actor().kind == Actor::Chance) session->chance();
}

void Table::notice(int seat, const std::string& text) {
  notices.push_back({{"n", ++notice_seq}, {"seat", seat >= 0 ? json(seat) : json(nullptr)}, {"text", text}});
  if (notices.size() > 100) notices.erase(notices.begin(), notices.begin() + 50);
}

}  // namespace boneyard::server
