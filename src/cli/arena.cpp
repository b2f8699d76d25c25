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
  int threads = 1;
  bool json = false;
  bool no_rotate = false;
  std::string record_dir;
};

// What one game gave each entry of the bot list.
struct GameOutcome {
  std::vector<double> share;        // of the game won (draws split)
  std::vector<double> hands_won;
  std::vector<double> points;       // summed over hands
  int hands = 0;
  int void_hands = 0;
};

GameOutcome play_one(const ArenaConfig& c, const OptionList& opts, const std::vector<std::string>& list, int game) {
  const GameEntry& g = find_game(c.name);
  const uint64_t seed = mix_seed(c.seed, static_cast<uint64_t>(game));
  Session s(c.name, opts, seed);
  AnyState& st = s.state();
  const int n = st.num_seats();
  const int L = static_cast<int>(list.size());
  const int shift = c.no_rotate ? 0 : game % L;  // rotate the bots through the seats
  std::vector<int> entry_of(static_cast<size_t>(n));
  std::vector<std::unique_ptr<AnyBot>> bots;
  for (int k = 0; k < n; ++k) {
    entry_of[static_cast<size_t>(k)] = (k + shift) % L;
    bots.push_back(make_bot(g, list[static_cast<size_t>(entry_of[static_cast<size_t>(k)])], mix_seed(seed, static_cast<uint64_t>(k) + 1)));
    s.players()[static_cast<size_t>(k)] = list[static_cast<size_t>(entry_of[static_cast<size_t>(k)])];
  }
  for (int guard = 0; !st.terminal(); ++guard) {
    if (guard > 10000000) throw Error(fmt::format("{} game {} did not end", c.name, game));
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
  if (!c.record_dir.empty()) write_record(s, c.record_dir, fmt::format("g{}", game));
  return o;
}

void run_arena(const ArenaConfig& c) {
  const GameEntry& g = find_game(c.name);
  const auto list = split(c.bots, ',');
  for (const auto& b : list) make_bot(g, b, 0);  // unknown names fail before any game
  const OptionList opts = parse_options(c.options);
  Session probe(c.name, opts, 0);  // bad options fail before any game
  const int L = static_cast<int>(list.size());
  if (L > probe.state().num_seats())
    throw Error(fmt::format("--bots lists {} bots but {} has {} seats", L, c.name, probe.state().num_seats()));
  std::vector<GameOutcome> out(static_cast<size_t>(c.games));
  std::atomic<int> next{0}, done{0};
  std::string failure;
  std::mutex fail_mu;
  const auto t0 = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (int k; (k = next++) < c.games;) {
      try {
        out[static_cast<size_t>(k)] = play_one(c, opts, list, k);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(fail_mu);
        failure = e.what();
        next = c.games;
      }
      ++done;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < c.threads; ++t) pool.emplace_back(worker);
  Progress bar(fmt::format("{} {}", c.name, c.bots), static_cast<uint64_t>(c.games));
  while (done < c.games && failure.empty()) {
    bar.update(static_cast<uint64_t>(done.load()));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (auto& t : pool) t.join();
  bar.finish();
  if (!failure.empty()) throw Error(failure);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  int total_hands = 0, void_hands = 0;
  for (const auto& o : out) {
    total_hands += o.hands;
    void_hands += o.void_hands;
  }
  nlohmann::json per = nlohmann::json::array();
  for (int e = 0; e < L; ++e) {
    double s = 0, s2 = 0, hw = 0, pts = 0;
    for (const auto& o : out) {
      s += o.share[static_cast<size_t>(e)];
      s2 += o.share[static_cast<size_t>(e)] * o.share[static_cast<size_t>(e)];
      hw += o.hands_won[static_cast<size_t>(e)];
      pts += o.points[static_cast<size_t>(e)];
    }
    const MeanCI game_ci = mean_ci(s, s2, c.games);
    const double hp = total_hands ? hw / total_hands : 0;
    const double hhalf = total_hands ? 1.96 * std::sqrt(hp * (1 - hp) / total_hands) : 0;
    per.push_back({{"entry", e},
                   {"bot", list[static_cast<size_t>(e)]},
                   {"games", c.games},
                   {"win_share", game_ci.mean},
                   {"win_share_ci95", {game_ci.mean - game_ci.half, game_ci.mean + game_ci.half}},
                   {"hands", total_hands},
                   {"hands_won", hw},
                   {"hand_share", hp},
                   {"hand_share_ci95", {hp - hhalf, hp + hhalf}},
                   {"mean_points_per_hand", total_hands ? pts / total_hands : 0}});
  }
  if (c.json) {
    std::cout << nlohmann::json{{"game", c.name}, {"games", c.games}, {"seed", c.seed}, {"threads", c.threads},
                                {"rotate", !c.no_rotate}, {"seconds", secs}, {"hands", total_hands},
                                {"void_hands", void_hands}, {"bots", per}}
                     .dump(2)
              << "\n";
    return;
  }
  std::cout << fmt::format("{}: {} games, {} hands ({} with no winner), seed {}, {} thread{}, {:.1f} s{}\n", c.name,
                           c.games, total_hands, void_hands, c.seed, c.threads, c.threads > 1 ? "s" : "", secs,
                           c.no_rotate ? "" : ", bots rotated through the seats each game");
  std::cout << fmt::format("  {:3} {:10} {:>22} {:>24} {:>14}\n", "#", "bot", "game win share (95%)",
                           "hand win share (95%)", "points/hand");
  for (const auto& p : per) {
    const double gm = p["win_share"], gh = gm - p["win_share_ci95"][0].get<double>();
    const double hm = p["hand_share"], hh = hm - p["hand_share_ci95"][0].get<double>();
    std::cout << fmt::format("  {:3} {:10} {:>14.3f} ± {:.3f} {:>16.3f} ± {:.3f} {:>14.2f}\n", p["entry"].get<int>(),
                             p["bot"].get<std::string>(), gm, gh, hm, hh, p["mean_points_per_hand"].get<double>());
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
  cmd->add_option("--games", c->games, "Number of games")->check(CLI::Range(1, 100000000));
  cmd->add_option("--seed", c->seed, "Base seed (game k uses a seed derived from it)");
  cmd->add_option("--threads", c->threads, "Games played at once")->check(CLI::Range(1, 256));
  cmd->add_option("--option,-o", c->options, "Rule option key=value (repeatable)");
  cmd->add_option("--record", c->record_dir, "Write every game's record into this folder");
  cmd->add_flag("--no-rotate", c->no_rotate, "Keep each bot in the same seats (default: rotate every game)");
  cmd->add_flag("--json", c->json, "Machine-readable output");
  cmd->callback([c] { run_arena(*c); });
}

}  // namespace boneyard::cli
