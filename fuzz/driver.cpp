// A stand-in for libFuzzer where clang is not used: replays the seed corpus,
// then feeds N random mutations of it. Any crash or sanitizer report fails.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "core/rng.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  const long runs = argc > 1 ? std::atol(argv[1]) : 10000;
  std::vector<std::string> corpus;
  if (argc > 2 && std::filesystem::is_directory(argv[2]))
    for (const auto& e : std::filesystem::directory_iterator(argv[2])) {
      std::ifstream f(e.path(), std::ios::binary);
      corpus.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
  if (corpus.empty()) corpus.push_back("");
  for (const auto& c : corpus) LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(c.data()), c.size());
  boneyard::Rng rng(1);
  const char dict[] = "{}[]\":,-|0123456789 \\nabcdefghijklmnopqrstuvwxyz";
  for (long i = 0; i < runs; ++i) {
    std::string s = corpus[rng.below(static_cast<uint32_t>(corpus.size()))];
    const int edits = 1 + static_cast<int>(rng.below(8));
    for (int k = 0; k < edits; ++k) {
      const uint32_t pos = s.empty() ? 0 : rng.below(static_cast<uint32_t>(s.size()));
      switch (rng.below(5)) {
        case 0:
          if (!s.empty()) s[pos] = static_cast<char>(rng.below(256));
          break;
        case 1:
          s.insert(s.begin() + pos, dict[rng.below(sizeof dict - 1)]);
          break;
        case 2:
          if (!s.empty()) s.erase(pos, 1 + rng.below(4));
          break;
        case 3: {
          const auto& o = corpus[rng.below(static_cast<uint32_t>(corpus.size()))];
          if (!o.empty()) s.insert(pos, o.substr(rng.below(static_cast<uint32_t>(o.size()))));
          break;
        }
        default:
          if (!s.empty()) s[pos] = dict[rng.below(sizeof dict - 1)];
          break;
      }
    }
    if (s.size() > 4096) s.resize(4096);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  }
  std::cout << "fuzz: " << corpus.size() << " seeds and " << runs << " mutations ran clean\n";
  return 0;
}
