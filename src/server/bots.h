#pragma once
// Bots (docs/server.md, "Bot levels"): which bot plays a seat, and the
// threads they think on. Cheap bots (beginner, casual) think on one pool
// behind the gate: at most `bot_pipeline` of their moves between decision
// and broadcast. Strong and expert bots think on a pool of their own, at
// most strong_per_client at once for the tables of one address, so a few
// expensive tables never delay a cheap bot or another person's tables.
//
// Owns: the two pools, the gate (gate_m_) and the per-address queues
// (strong_m_). Each lock is taken alone, after a table's lock when one is
// held, and nothing is called with it held but a post to a pool.
#include <atomic>
#include <boost/asio/thread_pool.hpp>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "record/session.h"
#include "server/hub_config.h"
#include "server/table.h"

namespace boneyard::server {

// The bot levels a seat may have: "bot:beginner" ... "bot:expert".
const std::vector<std::string>& bot_levels();

class Bots {
 public:
  Bots(const HubConfig& cfg, const std::atomic<bool>& stopping);
  // The seat a bot plays now (a bot's seat, a dropped human's, one whose
  // clock ran out), or -1. With t.m held.
  static int seat_to_play(const Table& t);
  // How long the bot at `seat` waits before its move: the table's
  // bot_delay_ms, a third of it when it goes on with its own turn (its move
  // was the last one made: Mexican Train's opening turn lays a tile a move,
  // 12 moves took 8 s). `events`: the game's so far.
  static int pause_ms(const std::vector<RecordEvent>& events, int seat, int delay_ms);
  // The level that plays `seat`: its own, or the table's takeover level.
  static std::string level(const Table& t, int seat);
  static bool cheap(const std::string& level) { return level != "strong" && level != "expert"; }
  // The seat's bot, made when first needed. With t.m held.
  AnyBot& seat_bot(Table& t, int seat) const;

  // A cheap bot's turn: run once it passes the gate. A turn that made a
  // move keeps its slot until the move is broadcast (leave_gate).
  void run_cheap(std::function<void()> turn);
  void leave_gate();
  int gate_size() const { return gate_size_; }
  int gate_peak();
  // A strong or expert turn for the tables of `client`.
  void run_strong(const std::string& client, std::function<void()> turn);
  void join();  // waits for the turns under way (the Hub's shutdown)

 private:
  void strong_done(const std::string& client);
  const HubConfig& cfg_;
  const std::atomic<bool>& stopping_;
  const int gate_size_;
  std::unique_ptr<boost::asio::thread_pool> cheap_, strong_;
  std::mutex gate_m_;
  int gate_used_ = 0, gate_peak_ = 0;
  std::deque<std::function<void()>> gate_waiting_;
  // Strong/expert turns: running per address, and those waiting for their
  // address's turn (run in order as its running ones finish).
  std::mutex strong_m_;
  std::map<std::string, int> strong_running_;
  std::map<std::string, std::deque<std::function<void()>>> strong_waiting_;
};

}  // namespace boneyard::server
