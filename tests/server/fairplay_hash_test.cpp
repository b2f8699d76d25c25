// Rated play people can trust (issue 32 item 6): password hashing runs on a
// bounded pool of its own, off the network threads.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "client.h"
#include "server_fixture.h"

namespace boneyard::test {
namespace {

using nlohmann::json;

class FairPlayHash : public ServerFixture {
 protected:
  FairPlayHash() : ServerFixture("fairplay-hash") {}
};

// Issue 32 item 6: argon2id runs on a bounded pool of its own. With one
// network thread and one hashing thread, health is answered while the pool is
// busy (it reports the checks running), and a login beyond the pool and its
// queue is refused at once with 503 and Retry-After.
TEST_F(FairPlayHash, PasswordHashingRunsOnItsOwnBoundedPoolAndHealthIsAnsweredMeanwhile) {
  auto c = config();
  c.io_threads = 1;
  c.hash_threads = 1;
  c.hash_queue = 1;
  c.limits.login_name.burst = 100000;  // the guesses here are about the pool, not the per-name limit
  serve(c);
  const Reply made = post(port_, "/api/players", {{"name", "Victim"}, {"password", "correct horse"}});
  ASSERT_EQ(made.status, 201) << made.body;
  std::atomic<bool> stop{false};
  std::atomic<int> refused{0}, answered{0};
  std::string retry_after;
  std::mutex m;
  std::vector<std::thread> guessers;
  for (int i = 0; i < 6; ++i)
    guessers.emplace_back([&, i] {
      while (!stop) {
        const Reply r =
            post(port_, "/api/players/login", {{"name", "Victim"}, {"password", "guess " + std::to_string(i)}});
        if (r.status == 503) {
          ++refused;
          std::lock_guard lk(m);
          retry_after = r.retry_after;
        } else {
          EXPECT_EQ(r.status, 401) << r.body;
          ++answered;
        }
      }
    });
  // Health is answered while the password pool is at work: it says so.
  bool seen_busy = false;
  for (int i = 0; i < 2000 && !seen_busy; ++i) {
    const Reply h = get(port_, "/api/health");
    ASSERT_EQ(h.status, 200) << h.body;
    ASSERT_TRUE(h.j.contains("password_checks")) << h.body;
    EXPECT_EQ(h.j["password_checks"]["limit"], 2);
    seen_busy = h.j["password_checks"]["running"].get<int>() >= 1;
  }
  for (int i = 0; i < 2000 && refused == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  stop = true;
  for (auto& t : guessers) t.join();
  EXPECT_TRUE(seen_busy) << "health was never answered while a password was being checked";
  EXPECT_GT(refused.load(), 0) << "six guessers at once never filled a pool of one thread and one place in its queue";
  EXPECT_GT(answered.load(), 0);
  EXPECT_EQ(retry_after, "1");
  // Once the guessing stops, the owner logs in.
  const Reply in = post(port_, "/api/players/login", {{"name", "Victim"}, {"password", "correct horse"}});
  EXPECT_EQ(in.status, 200) << in.body;
}

}  // namespace
}  // namespace boneyard::test
