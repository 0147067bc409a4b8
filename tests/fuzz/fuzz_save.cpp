// fuzz_save.cpp — libFuzzer target: see fuzz_entries.h (save_one).
#include <cstddef>
#include <cstdint>

#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  colony::fuzz::save_one(data, size);
  return 0;
}
