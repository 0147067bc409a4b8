// save_large_test.cpp — the save/load/continue identity on a world of 100,000 ants on a
// 512x512 map (262,144 tiles): 300 ticks, save, load, 300 more == 600 straight.
// (The million-ant world is measured by hand; see the save/replay report.)
#include "save_test_util.h"

namespace colony {
namespace {

TEST(SaveLoadLarge, HundredThousandAntsContinueExactly) {
  auto straight = test::make_from("full_100k.json");
  auto first = test::make_from("full_100k.json");
  ASSERT_GE(ants_alive(*first), 100'000u);
  test::run(*straight, 300), test::run(*first, 300);
  const std::string path = test::temp_path("large.colony");
  std::string err;
  SaveStats saved;
  ASSERT_TRUE(save_game(*first, path, &err, {}, &saved)) << err;
  first.reset();
  auto loaded = load_game(path, &err);
  ASSERT_NE(loaded, nullptr) << err;
  test::run(*straight, 300), test::run(*loaded, 300);
  EXPECT_EQ(state_hash(*loaded), state_hash(*straight));
  RecordProperty("save_mb", std::to_string(double(saved.file_bytes) / 1e6));
}

}  // namespace
}  // namespace colony
