#include "server/bots.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <thread>

#include "bots/levels.h"
#include "core/game.h"

namespace boneyard::server {

namespace net = boost::asio;

const std::vector<std::string>& bot_levels() { return boneyard::bot_levels(); }

int default_bot_pipeline() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(112, 56 * cores);
}

Bots::Bots(const HubConfig& cfg, const std::atomic<bool>& stopping)
    : cfg_(cfg), stopping_(stopping), gate_size_(cfg.bot_pipeline) {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const int threads = cfg_.bot_threads > 0 ? cfg_.bot_threads : std::max(2, cores);
  cheap_ = std::make_unique<net::thread_pool>(static_cast<size_t>(threads));
  const int strong = cfg_.strong_threads > 0 ? cfg_.strong_threads : std::max(1, cores / 2);
  strong_ = std::make_unique<net::thread_pool>(static_cast<size_t>(strong));
}

void Bots::join() {
  strong_->join();
  cheap_->join();
}

int Bots::seat_to_play(const Table& t) {
  if (!t.session) return -1;
  const Actor a = t.session->state().actor();
  for (int k = 0; k < t.n; ++k) {
    const Seat& s = t.seat_at(k);
    if (a.acts(k) && (!s.human() || s.autopilot || s.clock.forced)) return k;
  }
  return -1;
}

int Bots::pause_ms(const std::vector<RecordEvent>& events, int seat, int delay_ms) {
  const auto last = std::find_if(events.rbegin(), events.rend(), [](const RecordEvent& e) { return !e.chance; });
  return last != events.rend() && last->seat == seat ? delay_ms / 3 : delay_ms;
}

std::string Bots::level(const Table& t, int seat) {
  return t.human(seat) ? t.takeover_level : t.seat_at(seat).player.substr(4);
}

AnyBot& Bots::seat_bot(Table& t, int seat) const {
  const std::string lvl = level(t, seat);
  auto& b = t.seat_at(seat).bot;
  if (!b) {
    const GameEntry& g = find_game(t.game);
    const uint64_t seed = t.seed ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(seat + 1));
    const LevelBot l = level_bot(g, lvl, {cfg_.strong_ms, cfg_.expert_ms, cfg_.expert_threads});
    b = make_bot(g, l.bot, seed, l.options);
  }
  return *b;
}

// The gate: under load a bot waits here, before it thinks, rather than its
// move queueing behind thousands of others after it: the moves in flight (a
// person's among them, which never waits here) keep a short way to every
// watcher, and the throughput is the same.
void Bots::run_cheap(std::function<void()> turn) {
  std::lock_guard lk(gate_m_);
  if (gate_size_ <= 0 || gate_used_ < gate_size_) {
    gate_peak_ = std::max(gate_peak_, ++gate_used_);
    net::post(*cheap_, std::move(turn));
  } else {
    gate_waiting_.push_back(std::move(turn));
  }
}

int Bots::gate_peak() {
  std::lock_guard lk(gate_m_);
  return gate_peak_;
}

void Bots::leave_gate() {
  std::lock_guard lk(gate_m_);
  if (!gate_waiting_.empty() && !stopping_) {
    net::post(*cheap_, std::move(gate_waiting_.front()));  // the slot passes on
    gate_waiting_.pop_front();
  } else {
    --gate_used_;
  }
}

void Bots::run_strong(const std::string& client, std::function<void()> turn) {
  auto task = [this, client, turn = std::move(turn)] {
    turn();
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

void Bots::strong_done(const std::string& client) {
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

}  // namespace boneyard::server
