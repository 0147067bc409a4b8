// fuzz_replay.cpp — libFuzzer target: see fuzz_entries.h (replay_one).
#include <cstddef>
#include <cstdint>

#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  colony::fuzz::replay_one(data, size);
  return 0;
}
