// Fuzz target: game records (docs/records.md).
#include <cstdint>
#include <string>

#include "core/error.h"
#include "record/session.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool registered = (boneyard::register_all_games(), true);
  (void)registered;
  const std::string s(reinterpret_cast<const char*>(data), size);
  try {
    const auto j = boneyard::parse_record_text(s);
    boneyard::Session::from_record(j);
  } catch (const boneyard::Error&) {
  }
  return 0;
}
