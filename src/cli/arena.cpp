// boneyard arena NAME --bots LIST --games N: bot tournaments.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>

#include "cli/cluster.h"
#include "cli/common.h"
#include "core/sprt.h"
#include "core/text.h"
#include "record/session.h"

namespace boneyard::cli {

namespace {

struct ArenaConfig {
  std::string name;
  std::vector<std::string> options;
  std::string bots;
  int games = 100;
  uint64_t seed = 1;
  std::string seed_text;
  int threads = 1;
  bool json = false;
  bool no_rotate = false;
  bool duplicate = false;
  BotOptions budget;
  std::string record_dir;
  std::string sprt;        // "elo0=0,elo1=5,..." or empty
  std::string checkpoint;  // folder of the checkpoint, or empty
  bool resume = false;
};

const char* kCheckpointFile = "arena-checkpoint.json";

// The settings that decide the results (not threads, output or ranks).
nlohmann::json settings_json(const ArenaConfig& c) {
  return {{"game", c.name},
          {"options", c.options},
          {"bots", c.bots},
          {"games", c.games},
          {"seed", c.seed},
          {"duplicate", c.duplicate},
          {"rotate", !c.no_rotate},
          {"think_ms", c.budget.think_ms},
          {"iterations", c.budget.iterations},
          {"bot_threads", c.budget.threads},
          {"sprt", c.sprt},
          {"record", c.record_dir}};
}

void settings_from_json(ArenaConfig& c, const nlohmann::json& j) {
  c.name = j.at("game").get<std::string>();
  c.options = j.at("options").get<std::vector<std::string>>();
  c.bots = j.at("bots").get<std::string>();
  c.games = j.at("games").get<int>();
  c.seed = j.at("seed").get<uint64_t>();
  c.duplicate = j.at("duplicate").get<bool>();
  c.no_rotate = !j.at("rotate").get<bool>();
  c.budget.think_ms = j.at("think_ms").get<double>();
  c.budget.iterations = j.at("iterations").get<int>();
  c.budget.threads = j.at("bot_threads").get<int>();
  c.sprt = j.at("sprt").get<std::string>();
  c.record_dir = j.at("record").get<std::string>();
  check_setting("games", c.games, 1, 100000000);
  check_bot_budget(c.budget);
}

// An entry of --bots may carry its own budget, for a match at odds of
// time: `ismcts@200ms` thinks 200 ms a decision, `ismcts@4000` runs 4,000
// iterations, and the entries without one play at --think-ms or
// --iterations. What more thinking is worth is measured so (docs/bots.md).
struct Entry {
  std::string bot;
  BotOptions budget;
};
Entry entry_of_list(const GameEntry& g, const std::string& entry, const BotOptions& common) {
  const size_t at = entry.find('@');
  if (at == std::string::npos) return {entry, common};
  Entry e{entry.substr(0, at), common};
  if (std::find(g.search_bots.begin(), g.search_bots.end(), e.bot) == g.search_bots.end())
    throw Error(
        fmt::format("'{}': only a search bot of {} ({}) takes a budget of its own after @; a level or "
                    "another bot plays at its own",
                    shown_text(entry), g.name, fmt::join(g.search_bots, ", ")));
  std::string_view amount = std::string_view(entry).substr(at + 1);
  const bool ms = amount.ends_with("ms");
  if (ms) amount.remove_suffix(2);
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(amount.data(), amount.data() + amount.size(), v);
  const uint64_t most = ms ? 3600000 : 100000000;
  if (amount.empty() || ec != std::errc() || end != amount.data() + amount.size() || v < 1 || v > most)
    throw Error(
        fmt::format("'{}': after @ comes the bot's own budget, milliseconds a decision from 1 to 3600000 "
                    "(ismcts@200ms) or iterations from 1 to 100000000 (ismcts@4000)",
                    shown_text(entry)));
  if (ms)
    e.budget.think_ms = static_cast<double>(v);
  else
    e.budget.think_ms = 0, e.budget.iterations = static_cast<int>(v);
  return e;
}

// A game stopped by SIGINT/SIGTERM (its record is written).
struct Interrupted {};

// What one game gave each entry of the bot list.
struct GameOutcome {
  std::vector<int> seats;     // how many seats each entry held
  std::vector<double> share;  // of the game won (draws split)
  std::vector<double> hands_won;
  std::vector<double> points;  // summed over hands
  int hands = 0;
  int void_hands = 0;
  // Whether a hand gave a side less than 0 (Dice & Dominoes' chips): if no
  // hand of the run did, the points intervals stop at 0.
  bool negative_points = false;
  // Each entry's decisions and their thinking time (ms): what engine
  // matches report (issue 37, Tools). Not part of the results' equality:
  // `--json` puts them apart, under "timing".
  std::vector<double> decisions, ms_sum, ms_max;
};

// The Wilson score interval (95%) for a share p, over the effective
// number of samples: n where the shares are 0 or 1 (a coin's spread), more
// where duplicate deals make them steadier (p (1 - p) over the observed
// variance, from the normal half-width `half`). Always inside 0..1.
std::pair<double, double> wilson_ci(double p, double half, int n) {
  if (n <= 0) return {0, 1};
  const double z = 1.96, z2 = z * z;
  double nn = n;
  if (half > 0 && p > 0 && p < 1) nn = std::max(1.0, p * (1 - p) / ((half / z) * (half / z)));
  const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
  const double w = z / (1 + z2 / nn) * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
  return {std::max(0.0, centre - w), std::min(1.0, centre + w)};
}

// Game `game` of the run. Plain: its own deals, the bots rotated one seat
// per game. Duplicate: games come in sets of `seatings` that share one seed,
// hence the same deals, with the bots moved round the seats, so every bot
// plays every seat's hands of every deal.
GameOutcome play_one(const ArenaConfig& c, const OptionList& opts, const std::vector<std::string>& list, int game,
                     int seatings) {
  const GameEntry& g = find_game(c.name);
  const int deal = c.duplicate ? game / seatings : game;
  const uint64_t seed = mix_seed(c.seed, static_cast<uint64_t>(deal));
  Session s(c.name, opts, seed);
  AnyState& st = s.state();
  const int n = st.num_seats();
  const int L = static_cast<int>(list.size());
  const int shift = c.duplicate ? game % seatings : c.no_rotate ? 0 : game % L;
  std::vector<int> entry_of(static_cast<size_t>(n));
  std::vector<std::unique_ptr<AnyBot>> bots;
  for (int k = 0; k < n; ++k) {
    entry_of[static_cast<size_t>(k)] = (k + shift) % L;
    const Entry e = entry_of_list(g, list[static_cast<size_t>(entry_of[static_cast<size_t>(k)])], c.budget);
    bots.push_back(make_bot(g, e.bot, mix_seed(seed, static_cast<uint64_t>(k + n * shift) + 1), e.budget));
    s.players()[static_cast<size_t>(k)] = list[static_cast<size_t>(entry_of[static_cast<size_t>(k)])];
  }
  GameOutcome o;
  o.decisions.assign(static_cast<size_t>(L), 0);
  o.ms_sum.assign(static_cast<size_t>(L), 0);
  o.ms_max.assign(static_cast<size_t>(L), 0);
  // Each bot decision timed (arena --json's timing).
  const bool finished = play_out(
      s, bots, [] { return stop_signal() != 0; },
      [&](int k, double ms) {
        const size_t e = static_cast<size_t>(entry_of[static_cast<size_t>(k)]);
        o.decisions[e] += 1, o.ms_sum[e] += ms, o.ms_max[e] = std::max(o.ms_max[e], ms);
      });
  if (!finished) {  // Ctrl-C: the game so far is recorded, not scored; one not begun (no move yet) is not
    const auto& ev = s.events();
    const bool begun = std::any_of(ev.begin(), ev.end(), [](const RecordEvent& e) { return !e.chance; });
    if (!c.record_dir.empty() && begun) RecordFile(c.record_dir, fmt::format("g{}", game)).write(s);
    throw Interrupted{};
  }
  // An entry's sides: the sides of the seats it sits in.
  std::vector<std::vector<int>> sides(static_cast<size_t>(L));
  for (int k = 0; k < n; ++k) {
    auto& v = sides[static_cast<size_t>(entry_of[static_cast<size_t>(k)])];
    const int sd = st.side_of(k);
    if (std::find(v.begin(), v.end(), sd) == v.end()) v.push_back(sd);
  }
  o.seats.assign(static_cast<size_t>(L), 0);
  for (int k = 0; k < n; ++k) ++o.seats[static_cast<size_t>(entry_of[static_cast<size_t>(k)])];
  o.share.assign(static_cast<size_t>(L), 0);
  o.hands_won.assign(static_cast<size_t>(L), 0);
  o.points.assign(static_cast<size_t>(L), 0);
  const auto ret = st.returns();
  std::vector<double> side_share(static_cast<size_t>(st.num_sides()), 0);
  for (int k = 0; k < n; ++k) side_share[static_cast<size_t>(st.side_of(k))] = ret[static_cast<size_t>(k)];
  for (int e = 0; e < L; ++e)
    for (int sd : sides[static_cast<size_t>(e)]) {
      o.share[static_cast<size_t>(e)] += side_share[static_cast<size_t>(sd)];
      for (const auto& h : st.hands()) {
        if (h.winner_side == sd) o.hands_won[static_cast<size_t>(e)] += 1;
        if (static_cast<size_t>(sd) < h.side_points.size())
          o.points[static_cast<size_t>(e)] += h.side_points[static_cast<size_t>(sd)];
      }
    }
  o.hands = static_cast<int>(st.hands().size());
  for (const auto& h : st.hands()) {
    o.void_hands += h.winner_side < 0;
    for (double p : h.side_points) o.negative_points = o.negative_points || p < 0;
  }
  if (!c.record_dir.empty()) RecordFile(c.record_dir, fmt::format("g{}", game)).write(s);
  return o;
}

// A game's outcome as bytes (doubles: exact), to cross the network, and as
// JSON numbers for the checkpoint (nlohmann writes doubles that read back
// exactly).
std::vector<double> outcome_values(const GameOutcome& o) {
  std::vector<double> v{static_cast<double>(o.hands), static_cast<double>(o.void_hands),
                        static_cast<double>(o.seats.size())};
  for (int x : o.seats) v.push_back(x);
  for (const auto* f : {&o.share, &o.hands_won, &o.points, &o.decisions, &o.ms_sum, &o.ms_max})
    v.insert(v.end(), f->begin(), f->end());
  v.push_back(o.negative_points);
  return v;
}

// Read back from a checkpoint or another rank: every value is checked, so a
// damaged checkpoint is refused with what was wrong, never read past.
GameOutcome outcome_of(const std::vector<double>& v, int entries, int seats) {
  const size_t L = static_cast<size_t>(entries);
  // 4 L values, 7 L with the timing, then whether a hand gave a side less
  // than 0 (a checkpoint from before has fewer: such points count as seen).
  if (v.size() >= 3 && v[2] != entries)
    throw Error(fmt::format("the third value, the number of bots, is {}; the run has {}", v[2], L));
  if (v.size() != 3 + 4 * L && v.size() != 3 + 7 * L && v.size() != 4 + 7 * L)
    throw Error(fmt::format("expected {} values for {} bots, found {}", 4 + 7 * L, L, v.size()));
  for (double x : v)
    if (!std::isfinite(x)) throw Error("a value is not a finite number");
  auto count = [](double x, const char* what) {
    if (x < 0 || x != std::floor(x) || x > 1e9)
      throw Error(fmt::format("{} must be a whole number from 0, not {}", what, x));
    return static_cast<int>(x);
  };
  GameOutcome o;
  o.hands = count(v[0], "the number of hands");
  o.void_hands = count(v[1], "the number of hands nobody won");
  if (o.void_hands > o.hands) throw Error("more hands nobody won than hands");
  int seated = 0;
  for (size_t e = 0; e < L; ++e) seated += o.seats.emplace_back(count(v[3 + e], "a bot's number of seats"));
  if (seated != seats) throw Error(fmt::format("the bots hold {} seats, not the game's {}", seated, seats));
  auto part = [&](size_t i) {
    return std::vector<double>(v.begin() + static_cast<long>(3 + i * L),
                               v.begin() + static_cast<long>(3 + (i + 1) * L));
  };
  o.share = part(1), o.hands_won = part(2), o.points = part(3);
  for (size_t e = 0; e < L; ++e) {
    if (o.share[e] < 0 || o.share[e] > o.seats[e]) throw Error("a bot's share is outside 0 to its seats");
    count(o.hands_won[e], "a bot's hands won");
  }
  o.decisions.assign(L, 0), o.ms_sum.assign(L, 0), o.ms_max.assign(L, 0);
  if (v.size() >= 3 + 7 * L) {
    o.decisions = part(4), o.ms_sum = part(5), o.ms_max = part(6);
    for (size_t e = 0; e < L; ++e) {
      count(o.decisions[e], "a bot's number of decisions");
      if (o.ms_sum[e] < 0 || o.ms_max[e] < 0) throw Error("a bot's milliseconds are below 0");
    }
  }
  if (v.size() == 4 + 7 * L && v.back() != 0 && v.back() != 1) throw Error("the last value must be 0 or 1");
  o.negative_points = v.size() != 4 + 7 * L || v.back() != 0;
  return o;
}

std::string to_bytes(const std::vector<double>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}
std::vector<double> from_bytes(const std::string& b) {
  std::vector<double> v(b.size() / sizeof(double));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(double));
  return v;
}

void run_arena(const ArenaConfig& c) {
  const GameEntry& g = find_game(c.name);
  const auto list = split(c.bots, ',');
  for (const auto& b : list) {  // unknown names and bad budgets fail before any game
    const Entry e = entry_of_list(g, b, c.budget);
    make_bot(g, e.bot, 0, e.budget);
  }
  const OptionList opts = parse_options(c.options);
  Session probe(c.name, opts, 0);                             // bad options fail before any game
  if (!c.record_dir.empty()) check_record_dir(c.record_dir);  // and an unwritable record folder
  install_stop_handlers();
  const int L = static_cast<int>(list.size());
  if (L > probe.state().num_seats())
    throw Error(fmt::format("--bots lists {} bots but {} has {} seats", L, c.name, probe.state().num_seats()));
  const int n_seats = probe.state().num_seats();
  // Duplicate: enough seatings that each entry plays every seat's hands.
  const int seatings = c.duplicate ? (n_seats % L == 0 ? L : n_seats) : 1;
  int games = c.games * seatings;
  // Per bot name (an entry listed twice is one bot), per seat it held.
  // Confidence intervals treat each deal set (duplicate) or game (plain)
  // as one sample: in duplicate play the sets are what is independent.
  std::vector<std::string> names;
  for (const auto& b : list)
    if (std::find(names.begin(), names.end(), b) == names.end()) names.push_back(b);
  const int B = static_cast<int>(names.size());
  auto per_seat = [&](const GameOutcome& o, int b, auto field) {  // the bot's mean over its seats
    double v = 0;
    int seats = 0;
    for (int e = 0; e < L; ++e)
      if (list[static_cast<size_t>(e)] == names[static_cast<size_t>(b)])
        v += field(o, e), seats += o.seats[static_cast<size_t>(e)];
    return seats ? v / seats : 0.0;
  };
  auto share_of = [](const GameOutcome& o, int e) {
    return o.share[static_cast<size_t>(e)] * o.seats[static_cast<size_t>(e)];
  };
  auto points_of = [](const GameOutcome& o, int e) {
    return o.hands ? o.points[static_cast<size_t>(e)] / o.hands * o.seats[static_cast<size_t>(e)] : 0.0;
  };
  std::vector<GameOutcome> out(static_cast<size_t>(games));
  // Head to head against the other bots in one deal set: this bot's share
  // per seat against theirs, over the whole set (per game it would be
  // biased: one ismcts seat against three greedy ones wins 1 of 4 games at
  // equal strength, and would read as 0.25).
  auto head_of = [&](int set, int b) {
    double mine_all = 0, others_all = 0;
    for (int r = 0; r < seatings; ++r) {
      const GameOutcome& o = out[static_cast<size_t>(set * seatings + r)];
      double others = 0;
      int other_bots = 0;
      for (int x = 0; x < B; ++x)
        if (x != b) others += per_seat(o, x, share_of), ++other_bots;
      mine_all += per_seat(o, b, share_of);
      others_all += other_bots ? others / other_bots : 0;
    }
    return mine_all + others_all > 0 ? mine_all / (mine_all + others_all) : 0.5;
  };

  std::optional<Sprt> sprt;
  if (!c.sprt.empty()) {
    if (!c.duplicate) throw Error("--sprt needs --duplicate: it tests the paired result of each deal set");
    if (B != 2) throw Error(fmt::format("--sprt tests two bots, A against B; --bots names {}", B));
    sprt.emplace(SprtParams::parse(c.sprt));
  }

  // Rank 0 (the only one without MPI) gathers every game's outcome. Deal
  // sets count in index order only: the longest run of complete sets from
  // set 0 is what the SPRT sees and what the report uses when it stops, so
  // the same seed gives the same result on any number of ranks and threads.
  std::vector<char> have(static_cast<size_t>(games), 0);
  std::vector<int> set_games(static_cast<size_t>(c.games), 0);
  int done = 0, prefix = 0, used_sets = c.games;
  bool decided = false;
  nlohmann::json saved = nlohmann::json::object();  // the checkpoint's games
  const bool root = cluster::rank() == 0;
  // One bot in every seat: a share then compares seats, not bots (a run's
  // purpose may be that; it is said, not refused).
  if (root && B == 1)
    std::cerr << wrap_text(fmt::format("Note: every seat plays {}, so the shares below compare seats, not bots; "
                                       "name two bots to compare them (e.g. --bots {},random).\n",
                                       names[0], names[0] == "random" ? "greedy" : names[0]),
                           terminal_width());
  const std::string ck_path =
      c.checkpoint.empty() ? "" : (std::filesystem::path(c.checkpoint) / kCheckpointFile).string();
  auto take = [&](int k, const GameOutcome& o) {  // returns true when the SPRT has decided
    if (have[static_cast<size_t>(k)]) return decided;
    have[static_cast<size_t>(k)] = 1;
    out[static_cast<size_t>(k)] = o;
    ++done;
    if (!ck_path.empty()) saved[std::to_string(k)] = outcome_values(o);
    ++set_games[static_cast<size_t>(k / seatings)];
    while (!decided && prefix < c.games && set_games[static_cast<size_t>(prefix)] == seatings) {
      ++prefix;
      if (sprt && sprt->add(head_of(prefix - 1, 0)) != Sprt::Result::Continue) decided = true, used_sets = prefix;
    }
    return decided;
  };
  if (c.resume && root) {
    std::ifstream f(ck_path);
    const auto j = nlohmann::json::parse(f);
    if (!j.contains("outcomes") || !j["outcomes"].is_object())
      throw Error(fmt::format("bad checkpoint '{}': expected \"outcomes\", an object of games", ck_path));
    for (const auto& [key, v] : j["outcomes"].items()) {
      try {
        int k = -1;
        const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), k);
        if (ec != std::errc{} || end != key.data() + key.size() || k < 0 || k >= games)
          throw Error(fmt::format("games are numbered 0 to {}", games - 1));
        if (!v.is_array()) throw Error("expected a list of numbers");
        std::vector<double> values;
        for (const auto& x : v) {
          if (!x.is_number()) throw Error("expected a list of numbers");
          values.push_back(x.get<double>());
        }
        take(k, outcome_of(values, L, n_seats));
      } catch (const Error& e) {
        throw Error(fmt::format("bad checkpoint '{}': game '{}': {}", ck_path, key, e.what()));
      }
    }
  }
  auto write_checkpoint = [&] {
    write_file_atomically(
        ck_path,
        nlohmann::json{{"format", "boneyard-arena-checkpoint"}, {"settings", settings_json(c)}, {"outcomes", saved}}
            .dump());
  };
  if (!ck_path.empty() && root && !c.resume) write_checkpoint();
  // Every rank learns which games are done (the checkpoint is on rank 0's disk).
  std::string have_bytes(have.begin(), have.end());
  cluster::broadcast(have_bytes);
  if (root && decided) std::cerr << "The checkpoint's deal sets already decide the SPRT.\n";

  const auto t0 = std::chrono::steady_clock::now();
  Progress bar(fmt::format("{} {}", c.name, c.bots), static_cast<uint64_t>(games));
  if (sprt) bar.total_is_the_most();
  auto last_write = std::chrono::steady_clock::now();
  bool dirty = false;
  cluster::Work w;
  w.total = games;
  w.group = seatings;  // a rank plays whole deal sets
  w.threads = c.threads;
  w.skip = [&](int k) { return have_bytes[static_cast<size_t>(k)] != 0 || decided; };
  w.play = [&](int k, int) -> std::string {
    try {
      return to_bytes(outcome_values(play_one(c, opts, list, k, seatings)));
    } catch (const Interrupted&) {
      return "";
    }
  };
  w.collect = [&](int k, const std::string& r) {
    if (r.empty()) return false;  // interrupted
    dirty = true;
    return take(k, outcome_of(from_bytes(r), L, n_seats));
  };
  w.tick = [&] {
    bar.update(static_cast<uint64_t>(done), sprt ? sprt->standing() : std::string());
    if (dirty && !ck_path.empty() && std::chrono::steady_clock::now() - last_write > std::chrono::milliseconds(500)) {
      write_checkpoint();
      dirty = false;
      last_write = std::chrono::steady_clock::now();
    }
  };
  w.interrupted = [] { return stop_signal() != 0; };
  const bool finished = cluster::run(w);
  if (!root) return;  // rank 0 reports
  bar.finish();
  if (!ck_path.empty()) write_checkpoint();
  // Ctrl-C: the results of the complete deal sets (games) from the first
  // one, in index order as always, then the exit status of the signal.
  const bool interrupted = !finished;
  if (interrupted) {
    std::cerr << wrap_text(
        fmt::format("{} after {} of {} games{}{}; {}.\n", stop_words(stop_signal()), done, games,
                    c.record_dir.empty() ? "" : ", the records of those and of the games under way written",
                    ck_path.empty() ? "" : fmt::format("; --resume {} goes on", c.checkpoint),
                    prefix == 0 ? "no results"
                                : fmt::format("the partial results of the first {} {}", prefix,
                                              seatings > 1 ? "deal sets" : "games")),
        terminal_width());
    if (prefix == 0) die_of_stop_signal();
    used_sets = std::min(used_sets, prefix);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  games = used_sets * seatings;
  out.resize(static_cast<size_t>(games));

  int total_hands = 0, void_hands = 0;
  bool negative_points = false;
  for (const auto& o : out) {
    total_hands += o.hands;
    void_hands += o.void_hands;
    negative_points = negative_points || o.negative_points;
  }
  const int sets = games / seatings;
  nlohmann::json per = nlohmann::json::array();
  for (int b = 0; b < B; ++b) {
    double s1 = 0, s2 = 0, p1 = 0, p2 = 0, h1 = 0, h2 = 0, e1 = 0, e2 = 0, hands_won = 0, pts = 0;
    for (int set = 0; set < sets; ++set) {
      double share = 0, points = 0, hshare = 0;
      for (int r = 0; r < seatings; ++r) {
        const GameOutcome& o = out[static_cast<size_t>(set * seatings + r)];
        share += per_seat(o, b, share_of);
        points += per_seat(o, b, points_of);
        double won = 0;
        int entries = 0;  // the sides this bot played (three greedy players: three)
        for (int e = 0; e < L; ++e)
          if (list[static_cast<size_t>(e)] == names[static_cast<size_t>(b)])
            won += o.hands_won[static_cast<size_t>(e)], pts += o.points[static_cast<size_t>(e)], ++entries;
        hands_won += won;
        hshare += o.hands ? won / o.hands / entries : 0;  // per side, like the game share
      }
      share /= seatings, points /= seatings, hshare /= seatings;
      const double head = head_of(set, b);
      s1 += share, s2 += share * share, p1 += points, p2 += points * points;
      h1 += hshare, h2 += hshare * hshare, e1 += head, e2 += head * head;
    }
    const MeanCI sc = mean_ci(s1, s2, sets), pc = mean_ci(p1, p2, sets), hc = mean_ci(h1, h2, sets),
                 ec = mean_ci(e1, e2, sets);
    // Shares stay inside 0..1 (issue 37, Tools): the win share's interval is
    // Wilson's score interval over the deal sets (at least as wide as the
    // normal one where the share's spread is a coin's, never past its
    // range); the hand share's normal interval is cut to the range.
    const auto [wlo, whi] = wilson_ci(sc.mean, sc.half, sets);
    // Points too: where no hand gave a side less than 0, the normal interval
    // stops at 0 (a 2-set latin run's went to -1.23 points a hand).
    const double points_lo = negative_points ? pc.mean - pc.half : std::max(0.0, pc.mean - pc.half);
    nlohmann::json row = {{"bot", names[static_cast<size_t>(b)]},
                          {"games", games},
                          {"hands", total_hands},
                          {"win_share", sc.mean},
                          {"win_share_ci95", {wlo, whi}},
                          {"hands_won", std::llround(hands_won)},  // counts, carried as doubles
                          {"hand_share", hc.mean},
                          {"hand_share_ci95", {std::max(0.0, hc.mean - hc.half), std::min(1.0, hc.mean + hc.half)}},
                          {"mean_points_per_hand", pc.mean},
                          {"mean_points_per_hand_ci95", {points_lo, pc.mean + pc.half}}};
    if (B > 1) {
      row["head_to_head"] = ec.mean;
      // The head-to-head share's interval is Wilson's too, so a run whose
      // deal sets all ended alike (2 games won of 2) is not a point.
      const auto [hlo, hhi] = wilson_ci(ec.mean, ec.half, sets);
      row["elo"] = elo(ec.mean);
      row["elo_ci95"] = {elo(hlo), elo(hhi)};
    }
    per.push_back(row);
  }
  const std::string how = c.duplicate   ? fmt::format("duplicate: {} deal sets x {} seatings", sets, seatings)
                          : c.no_rotate ? "bots stay in their seats"
                                        : "bots rotated through the seats each game";
  nlohmann::json sprt_json;
  if (sprt) {
    const SprtParams& sp = sprt->params();
    sprt_json = {{"elo0", sp.elo0},
                 {"elo1", sp.elo1},
                 {"alpha", sp.alpha},
                 {"beta", sp.beta},
                 {"bot_a", names[0]},
                 {"bot_b", names[1]},
                 {"model", "GSPRT on logistic Elo of each deal set's score of bot_a (pentanomial for two seatings)"},
                 {"llr", sprt->llr()},
                 {"lower_bound", sp.lower()},
                 {"upper_bound", sp.upper()},
                 {"result", sprt->result() == Sprt::Result::H1   ? "H1"
                            : sprt->result() == Sprt::Result::H0 ? "H0"
                                                                 : "inconclusive"},
                 {"deal_sets", sprt->samples()},
                 {"max_deal_sets", c.games}};
    // The Elo of the same deal sets as the table's (bot_a's head-to-head
    // share, Wilson's interval): the SPRT's normal interval had none where
    // every set ended alike ("+0.0 [+0.0, +0.0]" beside the table's
    // "+0 [-338, +338]").
    if (per[0].contains("elo")) sprt_json["elo"] = per[0]["elo"], sprt_json["elo_ci95"] = per[0]["elo_ci95"];
  }
  // What the per-hand column counts, and which way is better.
  const std::string unit = g.review_unit ? g.review_unit(probe.state()) : std::string("points");
  if (c.json) {
    nlohmann::json j{{"game", c.name},
                     {"games", games},
                     {"deal_sets", sets},
                     {"seatings", seatings},
                     {"duplicate", c.duplicate},
                     {"seed", c.seed},
                     {"threads", c.threads},
                     {"rotate", !c.no_rotate},
                     {"seconds", secs},
                     {"hands", total_hands},
                     {"void_hands", void_hands},
                     {"bots", per},
                     // mean_points_per_hand: in this unit, a penalty (lower is better) or a gain.
                     {"points_unit", unit},
                     {"points_lower_is_better", g.penalty}};
    if (cluster::size() > 1) j["ranks"] = cluster::size();
    if (sprt) j["sprt"] = sprt_json;
    if (interrupted) j["interrupted"] = true;
    // Each bot's thinking time a decision (wall clock: it varies run to run).
    nlohmann::json timing = nlohmann::json::array();
    for (int b = 0; b < B; ++b) {
      double d = 0, sum = 0, mx = 0;
      for (const auto& o : out)
        for (int e = 0; e < L; ++e)
          if (list[static_cast<size_t>(e)] == names[static_cast<size_t>(b)] &&
              static_cast<size_t>(e) < o.decisions.size())
            d += o.decisions[static_cast<size_t>(e)], sum += o.ms_sum[static_cast<size_t>(e)],
                mx = std::max(mx, o.ms_max[static_cast<size_t>(e)]);
      timing.push_back({{"bot", names[static_cast<size_t>(b)]},
                        {"decisions", std::llround(d)},
                        {"mean_ms", d > 0 ? sum / d : 0.0},
                        {"max_ms", mx}});
    }
    j["timing"] = timing;
    std::cout << j.dump(2) << "\n";
    if (interrupted) die_of_stop_signal();
    return;
  }
  // The first games in order, which may be fewer than those done when the
  // signal came (said above): "of the first", not "after".
  if (interrupted) std::cout << fmt::format("Partial results of the first {} games (interrupted):\n", games);
  // The report fits 80 columns (the table) or the terminal (the notes).
  const int width = std::min(80, terminal_width());
  std::cout << wrap_text(
      fmt::format("{}: {} games, {} hands ({} with no winner), seed {}, {}{} thread{}, {:.1f} s; {}\n", c.name, games,
                  total_hands, void_hands, c.seed,
                  cluster::size() > 1 ? fmt::format("{} ranks x ", cluster::size()) : "", c.threads,
                  c.threads > 1 ? "s" : "", secs, how),
      width);
  if (sprt) {
    const SprtParams& sp = sprt->params();
    // Where the LLR stands against its two bounds, in words.
    const std::string verdict = sprt->result() == Sprt::Result::H1
                                    ? fmt::format("at or above {:+.3f}: H1 accepted, A is stronger", sp.upper())
                                : sprt->result() == Sprt::Result::H0
                                    ? fmt::format("at or below {:+.3f}: H0 accepted", sp.lower())
                                    : fmt::format("between {:+.3f} and {:+.3f}: undecided", sp.lower(), sp.upper());
    std::cout << wrap_text(
        fmt::format("  SPRT, A {} against B {} (elo0 {}, elo1 {}, alpha {}, beta {}): after {} deal "
                    "sets the LLR is {:+.3f}, {}; Elo as in the table below\n",
                    names[0], names[1], sp.elo0, sp.elo1, sp.alpha, sp.beta, sprt->samples(), sprt->llr(), verdict),
        width);
  }
  std::cout << wrap_text(
      "  shares per entry of --bots (the seats it is cycled to count as one side); 95% intervals; Elo from the "
      "head-to-head share\n",
      width);
  if (sets < 2)
    std::cout << wrap_text("  (one sample only: the intervals need at least two games or deal sets)\n", width);
  // A game scored in penalties (Mexican Train's pips): a smaller number is better.
  const bool penalty = g.penalty;
  const std::string per_head =
      fmt::format("{}{}/hand", penalty ? "penalty " : "", unit);  // a Mexican Train round counts as a hand
  if (penalty)
    std::cout << wrap_text(fmt::format("  {}: the {} left in hand, so lower is better\n", per_head, unit), width);
  bool clamped = false;
  for (const auto& p : per)
    if (p.contains("elo_ci95"))
      for (double e : {p["elo"].get<double>(), p["elo_ci95"][0].get<double>(), p["elo_ci95"][1].get<double>()})
        clamped = clamped || std::abs(e) >= kEloClamp;
  if (clamped)
    std::cout << wrap_text(fmt::format("  ±{:.0f} Elo is the clamp: a share of 0 or 1 has no finite Elo\n", kEloClamp),
                           width);
  // Two tables (the game share and Elo, then the hands), each well inside
  // 80 columns. Every interval is printed as [low, high]: a share's stays
  // inside 0..1 and need not be even about the mean (Wilson's).
  const auto cell = [](const nlohmann::json& p, const std::string& k, const char* how) {
    const double m = p[k], lo = p[k + "_ci95"][0], hi = p[k + "_ci95"][1];
    return fmt::format(fmt::runtime(how), m, lo, hi);
  };
  // The bot column as wide as its longest name (ismcts-v1@200ms).
  size_t nw = 10;
  for (const auto& p : per) nw = std::max(nw, p["bot"].get<std::string>().size());
  if (per.size() == 1) {  // one bot in every seat: no share to compare, only what it scores
    std::cout << wrap_text(fmt::format("  {} played itself in every seat: its shares are 1 by definition, so only "
                                       "its points per hand are shown (give two or more bots to compare them)\n",
                                       per[0]["bot"].get<std::string>()),
                           width);
    std::cout << fmt::format("\n  {:{}} {:>24}\n", "bot", nw, per_head);
    std::cout << fmt::format("  {:{}} {:>24}\n", per[0]["bot"].get<std::string>(), nw,
                             cell(per[0], "mean_points_per_hand", "{:.2f} [{:.2f}, {:.2f}]"));
    if (interrupted) die_of_stop_signal();
    return;
  }
  std::cout << fmt::format("  {:{}} {:>21}  {:>17}\n", "bot", nw, "game share", "Elo");
  for (const auto& p : per) {
    std::string e = "-";
    if (p.contains("elo")) e = cell(p, "elo", "{:+.0f} [{:+.0f}, {:+.0f}]");
    std::cout << fmt::format("  {:{}} {:>21}  {:>17}\n", p["bot"].get<std::string>(), nw,
                             cell(p, "win_share", "{:.3f} [{:.3f}, {:.3f}]"), e);
  }
  std::cout << fmt::format("\n  {:{}} {:>21}  {:>24}\n", "bot", nw, "hand share", per_head);
  for (const auto& p : per)
    std::cout << fmt::format("  {:{}} {:>21}  {:>24}\n", p["bot"].get<std::string>(), nw,
                             cell(p, "hand_share", "{:.3f} [{:.3f}, {:.3f}]"),
                             cell(p, "mean_points_per_hand", "{:.2f} [{:.2f}, {:.2f}]"));
  if (interrupted) die_of_stop_signal();
}

}  // namespace

void add_arena(CLI::App& app) {
  auto* cmd = app.add_subcommand("arena", "Bot tournaments: win shares with 95% confidence intervals");
  auto c = std::make_shared<ArenaConfig>();
  cmd->add_option("name", c->name, "Game or preset (with --resume: from the checkpoint)");
  cmd->add_option("--bots", c->bots,
                  "Comma list of bots, cycled over the seats (greedy,random: seats 0,2 greedy and 1,3 random); "
                  "each is " +
                      bots_help() +
                      "; a search bot may think at its own budget, for a match at odds: ismcts@200ms (milliseconds a "
                      "decision) or ismcts@4000 (iterations)");
  cmd->add_option("--games", c->games,
                  fmt::format("Number of games (with --duplicate: deal sets; default {})", c->games))
      ->check(CLI::Range(1, 100000000));
  add_seed_option(cmd, c->seed_text, "Base seed, 0 to 2^64-1 (game k uses a seed derived from it; default 1)");
  cmd->add_option("--threads", c->threads, fmt::format("Games played at once (default {})", c->threads))
      ->check(CLI::Range(1, 256));
  cmd->add_option("--option,-o", c->options, "Rule option key=value (repeatable)");
  cmd->add_option("--record", c->record_dir, "Write every game's record into this folder");
  cmd->add_flag("--no-rotate", c->no_rotate, "Keep each bot in the same seats (default: rotate every game)");
  cmd->add_flag("--duplicate", c->duplicate,
                "Duplicate play: each deal set is played once per seating (partnerships' hands swapped, or "
                "hands rotated through the seats), cancelling the luck of the deal; --games counts deal sets");
  add_bot_budget(cmd, c->budget);
  cmd->add_flag("--json", c->json, "Machine-readable output");
  cmd->add_option("--sprt", c->sprt,
                  "A/B test of two bots (needs --duplicate): stop when the SPRT decides, e.g. elo0=0,elo1=50; "
                  "a setting left out takes its default, elo0=0,elo1=5,alpha=0.05,beta=0.05; --games is then the "
                  "most deal sets (docs/tournaments.md)");
  cmd->add_option("--checkpoint", c->checkpoint,
                  "Keep a checkpoint of the finished games in this folder (written atomically as they finish)");
  auto resume_dir = std::make_shared<std::string>();
  cmd->add_option(
      "--resume", *resume_dir,
      "Go on with the interrupted run whose --checkpoint is this folder (its settings; games done are not replayed; "
      "--threads is not one of them: give it again)");
  cmd->callback([c, cmd, resume_dir] {
    if (!resume_dir->empty()) {
      if (!c->checkpoint.empty() && c->checkpoint != *resume_dir)
        throw Error("--resume and --checkpoint name different folders");
      const std::string path = (std::filesystem::path(*resume_dir) / kCheckpointFile).string();
      std::string text;  // rank 0's disk holds it; the other ranks get it from there
      if (cluster::rank() == 0) {
        std::ifstream f(path);
        if (!f) throw Error(fmt::format("no checkpoint to resume: cannot read '{}'", path));
        std::stringstream buf;
        buf << f.rdbuf();
        text = buf.str();
      }
      cluster::broadcast(text);
      for (const char* opt : {"name", "--bots", "--games", "--seed", "--option", "--duplicate", "--no-rotate", "--sprt",
                              "--think-ms", "--iterations", "--bot-threads", "--record"})
        if (cmd->count(opt))
          throw Error(fmt::format("--resume takes the run's settings from its checkpoint; leave out {}", opt));
      try {
        ArenaConfig stored = *c;
        settings_from_json(stored, nlohmann::json::parse(text).at("settings"));
        *c = stored;
      } catch (const std::exception& e) {  // JSON of the wrong shape, or a setting out of range
        throw Error(fmt::format("bad checkpoint '{}': {}", path, e.what()));
      }
      c->checkpoint = *resume_dir;
      c->resume = true;
    } else {
      if (c->name.empty() && c->bots.empty()) throw Error("arena needs a game and --bots (or --resume DIR)");
      if (c->name.empty()) throw Error("arena needs a game: `boneyard rules` lists them (or --resume DIR)");
      if (c->bots.empty()) throw Error(fmt::format("arena needs --bots, two or more to compare: {}", bots_help()));
      if (cmd->count("--sprt") && c->sprt.empty())
        throw Error("--sprt needs its settings, e.g. --sprt elo0=0,elo1=50 (an empty one ran no test)");
      if (cmd->count("--seed")) c->seed = parse_seed(c->seed_text);
      if (!c->checkpoint.empty() && cluster::rank() == 0) {
        make_folder(c->checkpoint, "the --checkpoint folder", true);
        if (std::filesystem::exists(std::filesystem::path(c->checkpoint) / kCheckpointFile))
          throw Error(fmt::format("'{}' already holds a checkpoint: --resume {} goes on with it", c->checkpoint,
                                  c->checkpoint));
      }
    }
    run_arena(*c);
  });
}

}  // namespace boneyard::cli
