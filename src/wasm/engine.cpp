// The engine in WebAssembly (docs/wasm.md): the JSON-lines protocol that
// `boneyard engine` speaks (src/record/protocol.cpp, docs/protocol.md),
// exposed to JavaScript as one function: a request line in, the answer line
// out. web/src/engine/worker.ts runs it in a Web Worker.
#include <emscripten/emscripten.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/game.h"
#include "record/protocol.h"

namespace {

boneyard::Protocol& protocol() {
  static boneyard::Protocol p;
  return p;
}

std::string& answer() {
  static std::string a;
  return a;
}

}  // namespace

extern "C" {

// One request line (UTF-8, no newline) in; its answer line out, valid until
// the next call. One session per module instance, as one `boneyard engine`
// process: {"cmd":"new",...} starts a game, {"cmd":"quit"} is answered and
// changes nothing else here (the worker stays).
EMSCRIPTEN_KEEPALIVE const char* boneyard_handle(const char* line) {
  answer() = protocol().handle(line);
  return answer().c_str();
}

// Random-playout throughput of one game, as `boneyard bench NAME --json`
// reports it for one thread: {"game","hands","hands_per_second",...} or
// {"error":...}.
EMSCRIPTEN_KEEPALIVE const char* boneyard_bench(const char* game, double seconds) {
  nlohmann::json out;
  try {
    boneyard::register_all_games();  // as the protocol does (a bench may come first)
    const boneyard::GameEntry& g = boneyard::find_game(game);
    const boneyard::BenchResult r = g.bench({}, 42, seconds);
    out = {{"game", g.name},
           {"seconds", r.seconds},
           {"hands", r.hands},
           {"unit", r.unit},
           {"hands_per_second", static_cast<double>(r.hands) / r.seconds},
           {"moves_per_second", static_cast<double>(r.moves) / r.seconds},
           {"state_bytes", r.state_bytes}};
  } catch (const std::exception& e) {
    out = {{"error", e.what()}};
  }
  answer() = out.dump();
  return answer().c_str();
}
}
