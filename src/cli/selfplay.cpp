// boneyard selfplay NAME --bots LIST --games N --out DIR: game records for
// training, one zstd-compressed JSON-lines shard per rank and thread, and a
// manifest. Under mpirun the games are shared over the ranks.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli/cluster.h"
#include "cli/common.h"
#include "core/text.h"
#include "record/session.h"
#include "record/zstd_io.h"

namespace boneyard::cli {

namespace {

namespace fs = std::filesystem;

struct SelfplayConfig {
  std::string name;
  std::vector<std::string> options;
  std::string bots;
  int games = 100;
  uint64_t seed = 1;
  std::string seed_text;
  int threads = 1;
  BotOptions budget;
  std::string out;
  bool resume = false;
  bool json = false;  // the manifest on stdout, not the sentence (not a setting: --resume may differ)
};

const char* kManifest = "manifest.json";

nlohmann::json settings_json(const SelfplayConfig& c) {
  return {{"game", c.name},
          {"options", c.options},
          {"bots", c.bots},
          {"games", c.games},
          {"seed", c.seed},
          {"think_ms", c.budget.think_ms},
          {"iterations", c.budget.iterations},
          {"bot_threads", c.budget.threads}};
}

void settings_from_json(SelfplayConfig& c, const nlohmann::json& j) {
  c.name = j.at("game").get<std::string>();
  c.options = j.at("options").get<std::vector<std::string>>();
  c.bots = j.at("bots").get<std::string>();
  c.games = j.at("games").get<int>();
  c.seed = j.at("seed").get<uint64_t>();
  c.budget.think_ms = j.at("think_ms").get<double>();
  c.budget.iterations = j.at("iterations").get<int>();
  c.budget.threads = j.at("bot_threads").get<int>();
  check_setting("games", c.games, 1, 100000000);
  check_bot_budget(c.budget);
}

// Game k: its own seed from the run's, the bots rotated k seats (as a plain
// arena). Returns its record, with "selfplay": {"index": k}.
nlohmann::json play_game(const SelfplayConfig& c, const OptionList& opts, const std::vector<std::string>& list, int k) {
  const GameEntry& g = find_game(c.name);
  const uint64_t seed = mix_seed(c.seed, static_cast<uint64_t>(k));
  Session s(c.name, opts, seed);
  const int n = s.state().num_seats();
  const int L = static_cast<int>(list.size());
  const int shift = k % L;
  std::vector<std::unique_ptr<AnyBot>> bots;
  for (int seat = 0; seat < n; ++seat) {
    const auto& name = list[static_cast<size_t>((seat + shift) % L)];
    bots.push_back(make_bot(g, name, mix_seed(seed, static_cast<uint64_t>(seat + n * shift) + 1), c.budget));
    s.players()[static_cast<size_t>(seat)] = name;
  }
  if (!play_out(s, bots, [] { return stop_signal() != 0; })) return nullptr;
  nlohmann::json rec = s.record();
  rec["selfplay"] = {{"index", k}};
  return rec;
}

struct ShardScan {
  std::map<std::string, std::vector<int>> shards;  // file name -> game indices, in file order
  int parts = 0;
};

// The games already in DIR's shards; cut-off last frames are truncated away.
ShardScan scan_shards(const std::string& dir) {
  ShardScan r;
  std::set<int> seen;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    if (f.rfind("shard-", 0) == 0 && f.size() > 10 && f.substr(f.size() - 10) == ".jsonl.zst")
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    const ZstdLines z = read_zstd_lines(p.string());
    if (z.valid_bytes < z.file_bytes) {
      std::cerr << fmt::format("{}: dropping a game cut off at byte {} (of {})\n", p.string(), z.valid_bytes,
                               z.file_bytes);
      fs::resize_file(p, z.valid_bytes);
    }
    auto& v = r.shards[p.filename().string()];
    for (size_t n = 0; n < z.lines.size(); ++n) {
      int k = -1;
      try {
        k = nlohmann::json::parse(z.lines[n]).at("selfplay").at("index").get<int>();
      } catch (const nlohmann::json::exception& e) {
        throw Error(
            fmt::format("'{}', line {}: not a self-play record with its index ({})", p.string(), n + 1, e.what()));
      }
      if (!seen.insert(k).second) throw Error(fmt::format("game {} is in two shards ({})", k, p.string()));
      v.push_back(k);
    }
  }
  return r;
}

void run_selfplay(SelfplayConfig& c) {
  const bool root = cluster::rank() == 0;
  std::string text;  // settings and games done, from rank 0
  int part = 0;
  ShardScan scan;
  if (root) {
    make_folder(c.out, "the --out folder", true);
    const fs::path manifest = fs::path(c.out) / kManifest;
    nlohmann::json m;
    if (c.resume) {
      std::ifstream f(manifest);
      if (!f) throw Error(fmt::format("no self-play run to resume: cannot read '{}'", manifest.string()));
      try {
        m = nlohmann::json::parse(f);
        settings_from_json(c, m.at("settings"));
        part = m.at("parts").get<int>();
      } catch (const std::exception& e) {  // JSON of the wrong shape, or a setting out of range
        throw Error(fmt::format("bad manifest '{}': {}", manifest.string(), e.what()));
      }
      scan = scan_shards(c.out);
    } else if (fs::exists(manifest)) {
      throw Error(fmt::format("'{}' already holds a self-play run: --resume {} goes on with it", c.out, c.out));
    }
    nlohmann::json done = nlohmann::json::array();
    for (const auto& [f, v] : scan.shards)
      for (int k : v) {
        if (k < 0 || k >= c.games)
          throw Error(fmt::format("'{}' holds game {}, but the run has games 0 to {}", (fs::path(c.out) / f).string(),
                                  k, c.games - 1));
        done.push_back(k);
      }
    text = nlohmann::json{{"settings", settings_json(c)}, {"part", part}, {"done", done}}.dump();
  }
  cluster::broadcast(text);
  const auto shared = nlohmann::json::parse(text);
  settings_from_json(c, shared["settings"]);
  part = shared["part"].get<int>();
  std::vector<char> done(static_cast<size_t>(c.games), 0);
  for (const auto& k : shared["done"]) done[static_cast<size_t>(k.get<int>())] = 1;

  const GameEntry& g = find_game(c.name);
  const auto list = split(c.bots, ',');
  for (const auto& b : list) make_bot(g, b, 0, c.budget);  // unknown names fail before any game
  const OptionList opts = parse_options(c.options);
  Session probe(c.name, opts, 0);
  if (static_cast<int>(list.size()) > probe.state().num_seats())
    throw Error(
        fmt::format("--bots lists {} bots but {} has {} seats", list.size(), c.name, probe.state().num_seats()));
  install_stop_handlers();

  auto manifest_of = [&](bool complete) {
    nlohmann::json shards = nlohmann::json::array();
    int total = 0;
    for (const auto& [f, v] : scan.shards) {
      shards.push_back({{"file", f}, {"games", v.size()}, {"indices", v}});
      total += static_cast<int>(v.size());
    }
    return nlohmann::json{{"format", "boneyard-selfplay"},
                          {"settings", settings_json(c)},
                          {"seeds",
                           "game k has seed mix_seed(seed, k) (its record's \"seed\") and the bots of --bots "
                           "rotated k seats; each record's \"selfplay\".\"index\" is k"},
                          {"parts", part + 1},
                          {"complete", complete},
                          {"games_written", total},
                          {"shards", shards}};
  };
  const fs::path manifest = fs::path(c.out) / kManifest;
  if (root) write_file_atomically(manifest.string(), manifest_of(false).dump(2));

  std::vector<std::unique_ptr<ZstdLineWriter>> writers(static_cast<size_t>(c.threads));
  Progress bar(fmt::format("selfplay {} {}", c.name, c.bots), static_cast<uint64_t>(c.games));
  int count = static_cast<int>(std::count(done.begin(), done.end(), 1));
  cluster::Work w;
  w.total = c.games;
  w.threads = c.threads;
  w.skip = [&](int k) { return done[static_cast<size_t>(k)] != 0; };
  w.play = [&](int k, int t) -> std::string {
    const nlohmann::json rec = play_game(c, opts, list, k);
    if (rec.is_null()) return "";  // interrupted
    auto& wr = writers[static_cast<size_t>(t)];
    const std::string name = fmt::format("shard-p{}-r{}-t{}.jsonl.zst", part, cluster::rank(), t);
    if (!wr) wr = std::make_unique<ZstdLineWriter>((fs::path(c.out) / name).string());
    wr->write_line(rec.dump());
    return name;
  };
  w.collect = [&](int k, const std::string& shard) {
    if (shard.empty()) return false;
    scan.shards[shard].push_back(k);
    ++count;
    return false;
  };
  w.tick = [&] { bar.update(static_cast<uint64_t>(count)); };
  w.interrupted = [] { return stop_signal() != 0; };
  const bool finished = cluster::run(w);
  writers.clear();
  if (!root) return;
  bar.finish();
  write_file_atomically(manifest.string(), manifest_of(finished).dump(2));
  if (c.json) {  // what the manifest says, with where it is: interrupted too ("complete": false)
    nlohmann::json j = manifest_of(finished);
    j["manifest"] = manifest.string();
    std::cout << j.dump(2) << "\n" << std::flush;
  }
  if (!finished) {
    std::cerr << wrap_text(fmt::format("{} after {} of {} games; --resume {} goes on.\n", stop_words(stop_signal()),
                                       count, c.games, c.out),
                           terminal_width());
    die_of_stop_signal();
  }
  if (!c.json)
    std::cout << fmt::format("{} games of {} in {} shard{} under {} (manifest: {})\n", count, c.name,
                             scan.shards.size(), scan.shards.size() == 1 ? "" : "s", c.out, manifest.string());
}

}  // namespace

void add_selfplay(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "selfplay", "Game records for training: zstd JSON-lines shards per rank and thread, with a manifest");
  auto c = std::make_shared<SelfplayConfig>();
  cmd->add_option("name", c->name, "Game or preset");
  cmd->add_option("--bots", c->bots,
                  "Comma list of bots, cycled over the seats and rotated one seat per game; each is " + bots_help());
  cmd->add_option("--games", c->games, fmt::format("Number of games (default {})", c->games))
      ->check(CLI::Range(1, 100000000));
  add_seed_option(cmd, c->seed_text, "Base seed (game k uses a seed derived from it; default 1)");
  cmd->add_option("--threads", c->threads, fmt::format("Games played at once, per rank (default {})", c->threads))
      ->check(CLI::Range(1, 256));
  cmd->add_option("--option,-o", c->options, "Rule option key=value (repeatable)");
  cmd->add_option("--out", c->out, "Folder for the shards and manifest.json");
  add_bot_budget(cmd, c->budget);
  cmd->add_flag("--json", c->json, "Print the run's manifest (JSON, with its path) instead of the sentence");
  auto resume_dir = std::make_shared<std::string>();
  cmd->add_option("--resume", *resume_dir,
                  "Go on with the interrupted run in this folder (its settings; games written are kept)");
  cmd->callback([c, cmd, resume_dir] {
    if (!resume_dir->empty()) {
      for (const char* opt :
           {"name", "--bots", "--games", "--seed", "--option", "--think-ms", "--iterations", "--bot-threads"})
        if (cmd->count(opt))
          throw Error(fmt::format("--resume takes the run's settings from its manifest; leave out {}", opt));
      if (!c->out.empty() && c->out != *resume_dir) throw Error("--resume and --out name different folders");
      c->out = *resume_dir;
      c->resume = true;
    } else {
      if (c->name.empty() || c->bots.empty() || c->out.empty())
        throw Error("selfplay needs a game, --bots and --out (or --resume DIR)");
      if (cmd->count("--seed")) c->seed = parse_seed(c->seed_text);
    }
    run_selfplay(*c);
  });
}

}  // namespace boneyard::cli
