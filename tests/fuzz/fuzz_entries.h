// fuzz_entries.h — what each fuzzer does with one input. The libFuzzer targets
// (fuzz_scenario, fuzz_save, fuzz_replay) and the regression test (which replays every
// kept input through the normal test suite) call the same functions.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace colony::fuzz {

// Parses the bytes as a scenario; a small valid world is built and run a few ticks.
void scenario_one(const std::uint8_t* data, size_t size);
// Loads the bytes as a save file; then again as the content of an uncompressed save with
// a correct header and checksum (so mutations reach past the checksum). A world that
// loads is validated and run a few ticks.
void save_one(const std::uint8_t* data, size_t size);
// Decodes the bytes as a replay (also resealed with a correct checksum); a replay that
// decodes is played back a few ticks from its starting save, twice: both playbacks must
// end in the same state and leave the recording at the same place, if at all (a replay
// plays back the same way every time, whatever its bytes). Returns what the first saw.
struct ReplayRun {
  bool played = false;      // the bytes decoded and the starting save loaded
  std::uint64_t ticks = 0;  // ticks played back
  std::string divergence;   // where playback left the recording ("" when it did not)
};
ReplayRun replay_one(const std::uint8_t* data, size_t size);

}  // namespace colony::fuzz
