// The family dispatch, game strings, thread checks and the batch pool
// (research/spiel.h).
#include "research/spiel.h"

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "research/families.h"

namespace boneyard::spiel {

void check_threads(const char* what, long long n) {
  if (n < 1 || n > kMaxThreads) throw Error(fmt::format("{} must be 1..{}, got {}", what, kMaxThreads, n));
}

void check_player(int player, int n) {
  if (player < 0 || player >= n) throw Error(fmt::format("player {} does not exist; players are 0..{}", player, n - 1));
}

namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

// OpenSpiel writes booleans true/false; the engine's options say on/off.
std::string option_value(std::string v) {
  std::string low = v;
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (low == "true") return "on";
  if (low == "false") return "off";
  return v;
}

void add_option(OptionList& out, const std::string& key, const std::string& value, const std::string& where) {
  if (key.empty()) throw Error(fmt::format("{}: an option with no name", where));
  if (value.empty()) throw Error(fmt::format("{}: option '{}' has no value", where, key));
  for (const auto& [k, v] : out)
    if (k == key) throw Error(fmt::format("{}: option '{}' is given twice", where, key));
  out.emplace_back(key, option_value(value));
}

}  // namespace

std::pair<std::string, OptionList> parse_game_string(const std::string& text) {
  const std::string where = fmt::format("game string '{}'", text);
  const std::string t = trim(text);
  const auto open = t.find('(');
  if (open == std::string::npos) {
    if (t.find(')') != std::string::npos) throw Error(fmt::format("{}: expected name(option=value,...)", where));
    if (t.empty()) throw Error("the game name is empty");
    return {t, {}};
  }
  if (t.back() != ')' || t.find('(', open + 1) != std::string::npos || t.find(')') != t.size() - 1)
    throw Error(fmt::format("{}: expected name(option=value,...)", where));
  std::string name = trim(std::string_view(t).substr(0, open));
  if (name.empty()) throw Error(fmt::format("{}: the game name is empty", where));
  const std::string inner = t.substr(open + 1, t.size() - open - 2);
  OptionList out;
  if (trim(inner).empty()) return {name, out};  // "latin()": no options
  size_t pos = 0;
  for (;;) {
    const size_t comma = inner.find(',', pos);
    const std::string part =
        trim(std::string_view(inner).substr(pos, comma == std::string::npos ? inner.npos : comma - pos));
    if (part.empty()) throw Error(fmt::format("{}: an empty option (two commas, or one at an end)", where));
    const auto eq = part.find('=');
    if (eq == std::string::npos) throw Error(fmt::format("{}: '{}' is not option=value", where, part));
    add_option(out, trim(std::string_view(part).substr(0, eq)), trim(std::string_view(part).substr(eq + 1)), where);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return {name, out};
}

// Every folder's factory (families.h): spiel_families.inc, written by the
// build, says BONEYARD_SPIEL(folder) for each src/<folder>/spiel.cpp.
}  // namespace boneyard::spiel
namespace boneyard {
#define BONEYARD_SPIEL(folder)       \
  namespace folder {                 \
  spiel::SpielFamily spiel_family(); \
  }
#include "spiel_families.inc"
#undef BONEYARD_SPIEL
}  // namespace boneyard
namespace boneyard::spiel {

static const std::vector<SpielFamily>& spiel_families() {
  static const std::vector<SpielFamily> all = {
#define BONEYARD_SPIEL(folder) ::boneyard::folder::spiel_family(),
#include "spiel_families.inc"
#undef BONEYARD_SPIEL
  };
  return all;
}

std::shared_ptr<const GameBase> load_game(const std::string& name, const OptionList& options) {
  register_all_games();
  auto [base, opts] = parse_game_string(name);
  const size_t in_string = opts.size();
  for (const auto& [k, v] : options) {
    for (size_t i = 0; i < in_string; ++i)
      if (opts[i].first == k) throw Error(fmt::format("option '{}' is given both in the game string and in params", k));
    add_option(opts, k, v, "params");
  }
  const GameEntry& e = find_game(base);
  for (const SpielFamily& f : spiel_families())
    if (f.family == e.family) return f.make(e, opts);
  throw Error(fmt::format("game '{}' (family {}) has no OpenSpiel support yet", base, e.family));
}

bool run_pool(int threads, const std::function<void(int)>& work, std::atomic<bool>& stop, const Interrupt& interrupt) {
  check_threads("threads", threads);
  std::mutex mu;
  std::condition_variable done;
  int running = threads;
  std::exception_ptr error;
  auto wrapped = [&](int t) {
    try {
      work(t);
    } catch (...) {
      stop = true;
      std::lock_guard lock(mu);
      if (!error) error = std::current_exception();
    }
    std::lock_guard lock(mu);
    --running;
    done.notify_all();
  };
  // Without a poller the calling thread is worker 0; with one it polls.
  const int first = interrupt ? 0 : 1;
  std::vector<std::thread> pool;
  try {
    for (int t = first; t < threads; ++t) pool.emplace_back(wrapped, t);
  } catch (const std::system_error& e) {  // the system refused a thread: stop the others, then say so
    stop = true;
    {
      std::lock_guard lock(mu);
      running -= threads - first - static_cast<int>(pool.size());
    }
    for (auto& th : pool) th.join();
    throw Error(fmt::format("could not start thread {} of {}: {}", pool.size() + static_cast<size_t>(first), threads,
                            e.what()));
  }
  bool interrupted = false;
  if (!interrupt) {
    wrapped(0);
  } else {
    std::unique_lock lock(mu);
    while (running > 0) {
      if (done.wait_for(lock, std::chrono::milliseconds(20), [&] { return running == 0; })) break;
      if (interrupted) continue;
      lock.unlock();
      if (interrupt()) {
        interrupted = true;
        stop = true;
      }
      lock.lock();
    }
  }
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
  return interrupted;
}

}  // namespace boneyard::spiel
