#pragma once
// Replays stored events through a Session, generating every chance outcome
// from the game's own seeded generator and checking it against the stored
// one: the server's recovery path and `boneyard verify` both use it, so a
// stored table is provably the game its seed produces.
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "record/session.h"

namespace boneyard::server {

// Throws Error naming the first event that does not replay.
std::unique_ptr<Session> replay_from_seed(const std::string& game, const OptionList& options, uint64_t seed,
                                          const std::vector<RecordEvent>& events);
// The same for a record (docs/records.md), then the record's own checks
// (Session::from_record: hand results).
std::unique_ptr<Session> replay_record_from_seed(const nlohmann::json& record);

// A finished game as steps for the app's replay (docs/server.md, "Replay"):
// step 0 is the start, step k the game after event k, each with the full
// view (every hand shown: only ever served for a game that is over, or for
// a record the client sent), the scores and, where the event ended a hand,
// that hand's summary. Checks the record first (Session::from_record);
// throws Error naming the problem.
//
// One page of steps per answer (kReplayPage from step `from`), so an answer
// stays small however long the game: {"from", "total_steps", "next" (the
// next page's `from`, or null)} besides the steps.
nlohmann::json replay_steps(const nlohmann::json& record, size_t from = 0);
inline constexpr size_t kMaxReplayEvents = 20000;
inline constexpr size_t kReplayPage = 200;
// The `from` query parameter ("" = 0); throws Error naming the problem.
size_t replay_page_from(const std::string& text);

}  // namespace boneyard::server
