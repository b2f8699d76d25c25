#pragma once
// One exception type for every bad input: the message names what was wrong
// and what was expected. Front-ends catch it and report; nothing aborts.
#include <stdexcept>
#include <string>

namespace boneyard {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace boneyard
