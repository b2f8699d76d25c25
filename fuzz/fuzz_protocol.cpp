// Fuzz target: the engine protocol. Each input is a few lines fed to one
// session; every line must get a JSON answer, never a crash.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "record/protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  boneyard::Protocol p;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  for (int n = 0; n < 16 && std::getline(in, line); ++n) {
    const std::string out = p.handle(line);
    if (nlohmann::json::parse(out, nullptr, false).is_discarded()) __builtin_trap();
  }
  return 0;
}
