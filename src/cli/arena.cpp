// boneyard arena NAME --bots LIST --games N: bot tournaments.
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/common.h"
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
};

// A game stopped by SIGINT/SIGTERM (its record is written).
struct Interrupted {};

// What one game gave each entry of the bot list.
struct GameOutcome {
  std::vector<int> seats;           // how many seats each entry held
  std::vector<double> share;        // of the game won (draws split)
  std::vector<double> hands_won;
  std::vector<double> points;       // summed over hands
  int hands = 0;
  int void_hands = 0;
};

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
    bots.push_back(make_bot(g, list[static_cast<size_t>(entry_of[static_cast<size_t>(k)])],
                            mix_seed(seed, static_cast<uint64_t>(k + n * shift) + 1), c.budget));
    s.players()[static_cast<size_t>(k)] = list[static_cast<size_t>(entry_of[static_cast<size_t>(k)])];
  }
  for (int guard = 0; !st.terminal(); ++guard) {
    if (guard > 10000000) throw Error(fmt::format("{} game {} did not end", c.name, game));
    if (stop_signal()) {  // Ctrl-C: the game so far is recorded, not scored
      if (!c.record_dir.empty()) RecordFile(c.record_dir, fmt::format("g{}", game)).write(s);
      throw Interrupted{};
    }
    const Actor a = st.actor();
    if (a.kind == Actor::Chance) {
      s.chance();
      continue;
    }
    for (int k = 0; k < n; ++k) {
      if (!a.acts(k)) continue;
      s.bot_move(k, *bots[static_cast<size_t>(k)]);
      if (a.kind == Actor::Seat) break;
    }
  }
  // An entry's sides: the sides of the seats it sits in.
  std::vector<std::vector<int>> sides(static_cast<size_t>(L));
  for (int k = 0; k < n; ++k) {
    auto& v = sides[static_cast<size_t>(entry_of[static_cast<size_t>(k)])];
    const int sd = st.side_of(k);
    if (std::find(v.begin(), v.end(), sd) == v.end()) v.push_back(sd);
  }
  GameOutcome o;
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
        if (static_cast<size_t>(sd) < h.side_points.size()) o.points[static_cast<size_t>(e)] += h.side_points[static_cast<size_t>(sd)];
      }
    }
  o.hands = static_cast<int>(st.hands().size());
  for (const auto& h : st.hands()) o.void_hands += h.winner_side < 0;
  if (!c.record_dir.empty()) RecordFile(c.record_dir, fmt::format("g{}", game)).write(s);
  return o;
}

void run_arena(const ArenaConfig& c) {
  const GameEntry& g = find_game(c.name);
  const auto list = split(c.bots, ',');
  for (const auto& b : list) make_bot(g, b, 0, c.budget);  // unknown names fail before any game
  const OptionList opts = parse_options(c.options);
  Session probe(c.name, opts, 0);  // bad options fail before any game
  if (!c.record_dir.empty()) check_record_dir(c.record_dir);  // and an unwritable record folder
  install_stop_handlers();
  const int L = static_cast<int>(list.size());
  if (L > probe.state().num_seats())
    throw Error(fmt::format("--bots lists {} bots but {} has {} seats", L, c.name, probe.state().num_seats()));
  const int n_seats = probe.state().num_seats();
  // Duplicate: enough seatings that each entry plays every seat's hands.
  const int seatings = c.duplicate ? (n_seats % L == 0 ? L : n_seats) : 1;
  const int games = c.games * seatings;
  std::vector<GameOutcome> out(static_cast<size_t>(games));
  std::atomic<int> next{0}, done{0};
  std::string failure;
  std::mutex fail_mu;
  const auto t0 = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (int k; (k = next++) < games && !stop_signal();) {
      try {
        out[static_cast<size_t>(k)] = play_one(c, opts, list, k, seatings);
      } catch (const Interrupted&) {
        break;
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(fail_mu);
        failure = e.what();
        next = games;
      }
      ++done;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < c.threads; ++t) pool.emplace_back(worker);
  Progress bar(fmt::format("{} {}", c.name, c.bots), static_cast<uint64_t>(games));
  while (done < games && failure.empty() && !stop_signal()) {
    bar.update(static_cast<uint64_t>(done.load()));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (auto& t : pool) t.join();
  bar.finish();
  if (!failure.empty()) throw Error(failure);
  if (stop_signal()) {
    std::cerr << fmt::format("Interrupted (signal {}) after {} of {} games{}; no results.\n", stop_signal(), done.load(), games,
                             c.record_dir.empty() ? "" : ", the records of those and of the games under way written");
    die_of_stop_signal();
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  int total_hands = 0, void_hands = 0;
  for (const auto& o : out) {
    total_hands += o.hands;
    void_hands += o.void_hands;
  }
  // Per bot name (an entry listed twice is one bot), per seat it held.
  // Confidence intervals treat each deal set (duplicate) or game (plain)
  // as one sample: in duplicate play the sets are what is independent.
  std::vector<std::string> names;
  for (const auto& b : list)
    if (std::find(names.begin(), names.end(), b) == names.end()) names.push_back(b);
  const int B = static_cast<int>(names.size());
  const int sets = games / seatings;
  auto per_seat = [&](const GameOutcome& o, int b, auto field) {  // the bot's mean over its seats
    double v = 0;
    int seats = 0;
    for (int e = 0; e < L; ++e)
      if (list[static_cast<size_t>(e)] == names[static_cast<size_t>(b)])
        v += field(o, e), seats += o.seats[static_cast<size_t>(e)];
    return seats ? v / seats : 0.0;
  };
  auto share_of = [](const GameOutcome& o, int e) { return o.share[static_cast<size_t>(e)] * o.seats[static_cast<size_t>(e)]; };
  auto points_of = [](const GameOutcome& o, int e) {
    return o.hands ? o.points[static_cast<size_t>(e)] / o.hands * o.seats[static_cast<size_t>(e)] : 0.0;
  };
  nlohmann::json per = nlohmann::json::array();
  for (int b = 0; b < B; ++b) {
    double s1 = 0, s2 = 0, p1 = 0, p2 = 0, h1 = 0, h2 = 0, e1 = 0, e2 = 0, hands_won = 0, pts = 0;
    for (int set = 0; set < sets; ++set) {
      double share = 0, points = 0, hshare = 0, mine_all = 0, others_all = 0;
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
        // Head to head against the other bots: this bot's share per seat
        // against theirs, over the whole deal set (per game it would be
        // biased: one ismcts seat against three greedy ones wins 1 of 4
        // games at equal strength, and would read as 0.25).
        double others = 0;
        int other_bots = 0;
        for (int x = 0; x < B; ++x)
          if (x != b) others += per_seat(o, x, share_of), ++other_bots;
        mine_all += per_seat(o, b, share_of);
        others_all += other_bots ? others / other_bots : 0;
      }
      share /= seatings, points /= seatings, hshare /= seatings;
      const double head = mine_all + others_all > 0 ? mine_all / (mine_all + others_all) : 0.5;
      s1 += share, s2 += share * share, p1 += points, p2 += points * points;
      h1 += hshare, h2 += hshare * hshare, e1 += head, e2 += head * head;
    }
    const MeanCI sc = mean_ci(s1, s2, sets), pc = mean_ci(p1, p2, sets), hc = mean_ci(h1, h2, sets),
                 ec = mean_ci(e1, e2, sets);
    nlohmann::json row = {{"bot", names[static_cast<size_t>(b)]},
                          {"games", games},
                          {"hands", total_hands},
                          {"win_share", sc.mean},
                          {"win_share_ci95", {sc.mean - sc.half, sc.mean + sc.half}},
                          {"hands_won", hands_won},
                          {"hand_share", hc.mean},
                          {"hand_share_ci95", {hc.mean - hc.half, hc.mean + hc.half}},
                          {"mean_points_per_hand", pc.mean},
                          {"mean_points_per_hand_ci95", {pc.mean - pc.half, pc.mean + pc.half}}};
    if (B > 1) {
      row["head_to_head"] = ec.mean;
      row["elo"] = elo(ec.mean);
      row["elo_ci95"] = {elo(ec.mean - ec.half), elo(ec.mean + ec.half)};
    }
    per.push_back(row);
  }
  const std::string how = c.duplicate ? fmt::format("duplicate: {} deal sets x {} seatings", sets, seatings)
                          : c.no_rotate ? "bots stay in their seats"
                                        : "bots rotated through the seats each game";
  if (c.json) {
    std::cout << nlohmann::json{{"game", c.name},         {"games", games},        {"deal_sets", sets},
                                {"seatings", seatings},   {"duplicate", c.duplicate}, {"seed", c.seed},
                                {"threads", c.threads},   {"rotate", !c.no_rotate}, {"seconds", secs},
                                {"hands", total_hands},   {"void_hands", void_hands}, {"bots", per}}
                     .dump(2)
              << "\n";
    return;
  }
  std::cout << fmt::format("{}: {} games, {} hands ({} with no winner), seed {}, {} thread{}, {:.1f} s; {}\n", c.name,
                           games, total_hands, void_hands, c.seed, c.threads, c.threads > 1 ? "s" : "", secs, how);
  std::cout << "  shares per entry of --bots (the seats it is cycled to count as one side); 95% intervals; Elo from the head-to-head share\n";
  if (sets < 2) std::cout << "  (one sample only: the intervals need at least two games or deal sets)\n";
  // Mexican Train scores penalty pips: there a smaller number is better.
  const bool penalty = find_game(c.name).family == "mexican-train";
  if (penalty) std::cout << "  penalty/hand: the pips left in hand, so lower is better\n";
  std::cout << fmt::format("  {:12} {:>20} {:>20} {:>22} {:>22}\n", "bot", "game win share", "hand win share",
                           penalty ? "penalty/hand" : "points/hand", "Elo");
  for (const auto& p : per) {
    auto pm = [&](const char* k) {
      const double m = p[k], lo = p[std::string(k) + "_ci95"][0];
      return fmt::format("{:.3f} ± {:.3f}", m, m - lo);
    };
    std::string e = "-";
    if (p.contains("elo"))
      e = fmt::format("{:+.0f} [{:+.0f}, {:+.0f}]", p["elo"].get<double>(), p["elo_ci95"][0].get<double>(),
                      p["elo_ci95"][1].get<double>());
    std::cout << fmt::format("  {:12} {:>20} {:>20} {:>22} {:>22}\n", p["bot"].get<std::string>(), pm("win_share"),
                             pm("hand_share"), pm("mean_points_per_hand"), e);
  }
}

}  // namespace

void add_arena(CLI::App& app) {
  auto* cmd = app.add_subcommand("arena", "Bot tournaments: win shares with 95% confidence intervals");
  auto c = std::make_shared<ArenaConfig>();
  cmd->add_option("name", c->name, "Game or preset")->required();
  cmd->add_option("--bots", c->bots,
                  "Comma list of bots, cycled over the seats (greedy,random: seats 0,2 greedy and 1,3 random)")
      ->required();
  cmd->add_option("--games", c->games, "Number of games (with --duplicate: deal sets)")->check(CLI::Range(1, 100000000));
  add_seed_option(cmd, c->seed_text, "Base seed, 0 to 2^64-1 (game k uses a seed derived from it; default 1)");
  cmd->add_option("--threads", c->threads, "Games played at once")->check(CLI::Range(1, 256));
  cmd->add_option("--option,-o", c->options, "Rule option key=value (repeatable)");
  cmd->add_option("--record", c->record_dir, "Write every game's record into this folder");
  cmd->add_flag("--no-rotate", c->no_rotate, "Keep each bot in the same seats (default: rotate every game)");
  cmd->add_flag("--duplicate", c->duplicate,
                "Duplicate play: each deal set is played once per seating (partnerships' hands swapped, or "
                "hands rotated through the seats), cancelling the luck of the deal; --games counts deal sets");
  add_bot_budget(cmd, c->budget);
  cmd->add_flag("--json", c->json, "Machine-readable output");
  cmd->callback([c, cmd] {
    if (cmd->count("--seed")) c->seed = parse_seed(c->seed_text);
    run_arena(*c);
  });
}

}  // namespace boneyard::cli
