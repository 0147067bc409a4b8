// make_seeds.cpp — writes the save and replay seeds the fuzzers start from, so that they
// load with this build: a seed the loader refuses at its version check only ever tests
// that check. From seeds/scenario/tiny.json it writes the tiny world after 12 ticks,
// saved raw (seeds/save/tiny_raw.colony) and with zstd (tiny_zstd.colony), and a replay
// of 8 ticks from there (seeds/replay/tiny.replay) holding every command kind and a move
// of the simulation region, the save regression (regressions/save/: a slot list's
// count past the maximum) and the replay regression (regressions/replay/: a recording
// started with commands pending). Run it after any change of the save or replay format
// (FuzzInputs.SeedsLoadWithThisBuild fails until then):
//   cmake --build build --target fuzz_make_seeds && build/tests/fuzz/fuzz_make_seeds
#include <cstdio>
#include <string>

#include "game.h"
#include "replay.h"
#include "save.h"
#include "scenario.h"

namespace {

constexpr colony::u64 kStartTick = 12, kReplayTicks = 8;

int fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_make_seeds: %s\n", what.c_str());
  return 1;
}

// The command the replay queues before tick start + i: each kind in turn, at a spot
// that moves across the map, alternating the colonies.
colony::Command seed_command(colony::u64 i) {
  colony::Command c;
  c.kind = colony::CommandKind(i % colony::u64(colony::CommandKind::Count));
  c.x = float(3 + i);
  c.y = float(5 + i % 3);
  c.radius = 2;
  c.count = 4;
  c.colony = colony::u8(i % 2);
  c.caste = colony::Kind::Soldier;
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : COLONY_FUZZ_DIR;
  std::string err;
  colony::Scenario s;
  if (!colony::load_scenario(dir + "/seeds/scenario/tiny.json", s, &err)) return fail(err);
  s.path = "tiny.json";  // the path is saved with the world; keep this machine's out of it
  auto g = colony::make_game(s, s.seed, &err);
  if (!g) return fail(err);
  while (g->tick < kStartTick) colony::simulate_tick(*g);

  colony::SaveOptions raw;
  raw.compress = false;
  if (!colony::save_game(*g, dir + "/seeds/save/tiny_raw.colony", &err, raw)) return fail(err);
  if (!colony::save_game(*g, dir + "/seeds/save/tiny_zstd.colony", &err)) return fail(err);

  // The regression the save fuzzer found first: a slot list whose count is past the
  // per-entity maximum (the validator read past the list). Kept as a save of this format,
  // so that the loader reaches the lists: an old format is refused at its version check.
  {
    auto bad = colony::make_game(s, s.seed, &err);
    if (!bad) return fail(err);
    while (bad->tick < kStartTick) colony::simulate_tick(*bad);
    bool done = false;
    bad->ecs->for_each_entity([&](colony::ColonyEcs::Record& r) {
      if (done || r.payload.kind != colony::Kind::Worker) return;
      bad->ecs->list<colony::RenderPiece>(r).reserved = 200;
      done = true;
    });
    if (!done) return fail("no worker to spoil");
    if (!colony::save_game(*bad, dir + "/regressions/save/validator_slot_past_list.colony", &err, raw))
      return fail(err);
  }

  colony::Recorder rec;
  if (!rec.start(*g, &err, 1)) return fail(err);
  for (colony::u64 i = 0; i < kReplayTicks; ++i) {
    colony::queue_command(*g, seed_command(i));
    if (i == 4) colony::set_sim_region(*g, 8, 0, 8, 16);
    rec.before_tick(*g);
    colony::simulate_tick(*g);
    rec.after_tick(*g);
  }
  if (!rec.write(dir + "/seeds/replay/tiny.replay", &err)) return fail(err);

  // The replay regression: a recording started while commands were queued for the next
  // tick, so its starting save holds pending commands (and the cells they touch, which
  // the tick's budget counts) that playback must apply as the recording did.
  {
    auto start = colony::make_game(s, s.seed, &err);
    if (!start) return fail(err);
    while (start->tick < kStartTick) colony::simulate_tick(*start);
    for (colony::u64 i = 0; i < colony::u64(colony::CommandKind::Count); ++i)
      colony::queue_command(*start, seed_command(i));
    colony::Recorder pending;
    if (!pending.start(*start, &err, 1)) return fail(err);
    for (colony::u64 i = 0; i < 4; ++i) {
      colony::queue_command(*start, seed_command(i + 3));
      pending.before_tick(*start);
      colony::simulate_tick(*start);
      pending.after_tick(*start);
    }
    if (!pending.write(dir + "/regressions/replay/pending_commands_at_start.replay", &err)) return fail(err);
  }
  std::printf("fuzz_make_seeds: wrote the save and replay seeds and regressions under %s\n", dir.c_str());
  return 0;
}
