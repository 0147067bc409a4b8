// save.h — saving a whole Colony world to a file and loading it back exactly.
//
// File layout (little-endian, this machine's struct layouts):
//   magic "COLONYSV" | u32 version | u32 flags (1 = zstd) | u64 payload bytes |
//   u64 stored bytes | u64 XXH3-64 of the payload | stored bytes (payload, maybe zstd)
// The payload holds the scenario (as JSON, re-checked on load), every Game field that
// affects the future (terrain, fire, pheromones, food grid, colonies, RNG states, tick,
// scenario event timers, simulation region, pending commands) and the ECS snapshot
// (ecs/snapshot.h: every pool in slot order, storage blocks, directory, free lists).
// A save is written to a temporary file beside <path> and renamed over it (files.h), so
// a failed or interrupted save leaves the previous save intact.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "files.h"
#include "game.h"

namespace colony {

// 8: each colony's refounding state (down_since, refounds) after its counters.
inline constexpr std::uint32_t kSaveVersion = 8;
inline constexpr char kSaveMagic[8] = {'C', 'O', 'L', 'O', 'N', 'Y', 'S', 'V'};
inline constexpr size_t kSaveHeaderBytes = 40;
// What is wrong with a save file whose first n bytes (its header, when n reaches
// kSaveHeaderBytes) are head and whose size is file_size, as far as the header tells:
// not a save, another version, sizes that disagree, content past the memory budget.
// "" when nothing is. The loaders ask it before reading the rest of the file.
std::string save_header_problem(const std::uint8_t* head, size_t n, std::uint64_t file_size);

struct SaveOptions {
  bool compress = true;  // zstd the payload
  int level = 1;         // zstd level (1 is fast; higher gains little on this data)
};

// What a save or load did (for the report and the measurements).
struct SaveStats {
  std::uint64_t payload_bytes = 0, file_bytes = 0;
  double seconds = 0;
};

// Writes g to path (through a temporary file beside it and a rename). False with one
// line in *err: "<path>: <problem>".
bool save_game(const Game& g, const std::string& path, std::string* err, const SaveOptions& options = {},
               SaveStats* stats = nullptr);
// Writes g into a file opened by the caller and closes it without committing it: a
// caller writing several files commits them together once all have been written.
bool write_save(const Game& g, PendingFile& file, std::string* err, const SaveOptions& options = {},
                SaveStats* stats = nullptr);
// The same save as bytes in memory (replays embed the world they start from).
bool save_game_to_bytes(const Game& g, std::vector<std::uint8_t>& out, std::string* err,
                        const SaveOptions& options = {});

// Limits a loader applies before building a world (the fuzzers keep worlds small).
struct LoadLimits {
  std::uint64_t max_cells = ~std::uint64_t(0);
  std::uint64_t max_entities = ~std::uint64_t(0);
};

// Reads a save. nullptr with one line in *err naming the file and the problem:
// not a save, truncated, wrong version, corrupted (checksum), inconsistent content.
std::unique_ptr<Game> load_game(const std::string& path, std::string* err, const LoadLimits& limits = {},
                                SaveStats* stats = nullptr);
// The same from bytes in memory; `name` stands for the file in error messages.
std::unique_ptr<Game> load_game_from_bytes(const std::uint8_t* data, size_t size, const std::string& name,
                                           std::string* err, const LoadLimits& limits = {});

// A scenario as JSON text that parse_scenario reads back to the same scenario.
std::string scenario_to_json(const Scenario& s);

}  // namespace colony
