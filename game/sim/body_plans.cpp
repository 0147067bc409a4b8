// body_plans.cpp — the piece, volume and sensor layouts of workers, soldiers, queens,
// corpses, food crumbs and tiles.
#include "body_plans.h"

#include <array>
#include <cmath>

namespace colony {

namespace {

constexpr float kPi = 3.14159265f;

constexpr RenderPiece piece(Part part, float x, float y, float rot, float sx, float sy) {
  RenderPiece p{};
  p.set_offset(x, y);
  p.set_rotation(rot);
  p.set_size(sx, sy);
  p.color = 0xFFFFFFFFu;
  p.sprite = u8(part);
  p.part = part;
  return p;
}
constexpr CollisionVolume volume(float x, float y, float r, u8 role) {
  CollisionVolume v{};
  v.offset_x = x;
  v.offset_y = y;
  v.radius = r;
  v.role = role;
  return v;
}
constexpr Sensor sensor(float angle, float reach) { return Sensor{angle, reach, 0}; }

// Legs: three per side, side 0 = left (+y), 1 = right (-y); front legs point forward.
#define COLONY_LEGS(len)                                                                                          \
  piece(Part::Leg, 0.08f, 0.14f, kPi / 2 - 0.6f, len, 0.04f), piece(Part::Leg, 0.0f, 0.15f, kPi / 2, len, 0.04f), \
      piece(Part::Leg, -0.08f, 0.14f, kPi / 2 + 0.6f, len, 0.04f),                                                \
      piece(Part::Leg, 0.08f, -0.14f, -kPi / 2 + 0.6f, len, 0.04f),                                               \
      piece(Part::Leg, 0.0f, -0.15f, -kPi / 2, len, 0.04f),                                                       \
      piece(Part::Leg, -0.08f, -0.14f, -kPi / 2 - 0.6f, len, 0.04f)

constexpr std::array kWorkerPieces{
    piece(Part::Abdomen, -0.3f, 0, 0, 0.38f, 0.28f),
    piece(Part::Thorax, 0, 0, 0, 0.22f, 0.14f),
    piece(Part::Head, 0.24f, 0, 0, 0.2f, 0.18f),
    COLONY_LEGS(0.3f),
    piece(Part::Antenna, 0.36f, 0.06f, 0.5f, 0.22f, 0.03f),
    piece(Part::Antenna, 0.36f, -0.06f, -0.5f, 0.22f, 0.03f),
};
static_assert(kWorkerPieces.size() == 11);
constexpr std::array kWorkerVolumes{volume(-0.15f, 0, 0.3f, 0), volume(0.24f, 0, 0.12f, 1)};
constexpr std::array kWorkerSensors{sensor(0.6f, 2.5f), sensor(0, 3.0f), sensor(-0.6f, 2.5f)};

constexpr std::array kSoldierPieces{
    piece(Part::Abdomen, -0.36f, 0, 0, 0.42f, 0.32f),
    piece(Part::Thorax, 0, 0, 0, 0.26f, 0.16f),
    piece(Part::Head, 0.3f, 0, 0, 0.32f, 0.3f),
    piece(Part::Mandible, 0.5f, 0.07f, 0.35f, 0.18f, 0.05f),
    piece(Part::Mandible, 0.5f, -0.07f, -0.35f, 0.18f, 0.05f),
    COLONY_LEGS(0.34f),
    piece(Part::Antenna, 0.42f, 0.1f, 0.7f, 0.2f, 0.03f),
    piece(Part::Antenna, 0.42f, -0.1f, -0.7f, 0.2f, 0.03f),
};
static_assert(kSoldierPieces.size() == 13);
constexpr std::array kSoldierVolumes{volume(-0.2f, 0, 0.32f, 0), volume(0.3f, 0, 0.18f, 1), volume(0.52f, 0, 0.1f, 2)};
constexpr std::array kSoldierSensors{sensor(0.5f, 2.0f), sensor(-0.5f, 2.0f)};

// The queen: a long striped abdomen (14 segments), thorax, head, mandibles, legs,
// antennae and four wings: 30 pieces, 8 volumes, no sensors (she never moves).
constexpr RenderPiece queen_segment(int i) {
  float x = -0.5f - 0.16f * float(i);
  float w = 0.62f - 0.02f * float(i > 7 ? i - 7 : 0) * 3;
  return piece(Part::QueenAbdomen, x, 0, 0, 0.2f, w);
}
constexpr std::array kQueenPieces{
    queen_segment(0),
    queen_segment(1),
    queen_segment(2),
    queen_segment(3),
    queen_segment(4),
    queen_segment(5),
    queen_segment(6),
    queen_segment(7),
    queen_segment(8),
    queen_segment(9),
    queen_segment(10),
    queen_segment(11),
    queen_segment(12),
    queen_segment(13),
    piece(Part::Thorax, 0, 0, 0, 0.5f, 0.36f),
    piece(Part::Head, 0.45f, 0, 0, 0.36f, 0.34f),
    piece(Part::Mandible, 0.68f, 0.08f, 0.35f, 0.2f, 0.06f),
    piece(Part::Mandible, 0.68f, -0.08f, -0.35f, 0.2f, 0.06f),
    piece(Part::Leg, 0.15f, 0.3f, kPi / 2 - 0.6f, 0.6f, 0.07f),
    piece(Part::Leg, 0.0f, 0.32f, kPi / 2, 0.6f, 0.07f),
    piece(Part::Leg, -0.15f, 0.3f, kPi / 2 + 0.6f, 0.6f, 0.07f),
    piece(Part::Leg, 0.15f, -0.3f, -kPi / 2 + 0.6f, 0.6f, 0.07f),
    piece(Part::Leg, 0.0f, -0.32f, -kPi / 2, 0.6f, 0.07f),
    piece(Part::Leg, -0.15f, -0.3f, -kPi / 2 - 0.6f, 0.6f, 0.07f),
    piece(Part::Antenna, 0.62f, 0.12f, 0.6f, 0.4f, 0.05f),
    piece(Part::Antenna, 0.62f, -0.12f, -0.6f, 0.4f, 0.05f),
    piece(Part::Wing, -0.4f, 0.35f, 2.7f, 0.9f, 0.3f),
    piece(Part::Wing, -0.3f, 0.3f, 2.9f, 0.8f, 0.25f),
    piece(Part::Wing, -0.4f, -0.35f, -2.7f, 0.9f, 0.3f),
    piece(Part::Wing, -0.3f, -0.3f, -2.9f, 0.8f, 0.25f),
};
static_assert(kQueenPieces.size() == 30);
constexpr std::array kQueenVolumes{
    volume(0.45f, 0, 0.2f, 1), volume(0, 0, 0.28f, 0),     volume(-0.6f, 0, 0.32f, 0), volume(-0.9f, 0, 0.32f, 0),
    volume(-1.2f, 0, 0.3f, 0), volume(-1.5f, 0, 0.28f, 0), volume(-1.8f, 0, 0.24f, 0), volume(0.68f, 0, 0.1f, 2),
};

// A corpse: the body and two curled legs.
constexpr std::array kCorpsePieces{
    piece(Part::Abdomen, -0.3f, 0, 0, 0.38f, 0.28f),
    piece(Part::Thorax, 0, 0, 0, 0.22f, 0.14f),
    piece(Part::Head, 0.24f, 0, 0, 0.2f, 0.18f),
    piece(Part::Leg, 0.0f, 0.1f, kPi / 2 + 1.2f, 0.18f, 0.04f),
    piece(Part::Leg, 0.0f, -0.1f, -kPi / 2 - 1.2f, 0.18f, 0.04f),
};
constexpr std::array kCorpseVolumes{volume(0, 0, 0.3f, 0)};
constexpr std::array kFoodVolumes{volume(0, 0, 1.0f, 0)};

// A paired limb's side is read from the sign of its offset across the body, so every
// limb must lie off the midline.
template <size_t N>
constexpr bool limbs_off_the_midline(const std::array<RenderPiece, N>& pieces) {
  for (const RenderPiece& p : pieces)
    if (is_paired_limb(p.part) && p.y_units == 0) return false;
  return true;
}
static_assert(limbs_off_the_midline(kWorkerPieces) && limbs_off_the_midline(kSoldierPieces) &&
              limbs_off_the_midline(kQueenPieces) && limbs_off_the_midline(kCorpsePieces));

const BodyPlan kWorker{kWorkerPieces, 1, kWorkerVolumes, kWorkerSensors, 30, 6};
const BodyPlan kSoldier{kSoldierPieces, 0, kSoldierVolumes, kSoldierSensors, 90, 22};
const BodyPlan kQueen{kQueenPieces, 0, kQueenVolumes, {}, 600, 10};
const BodyPlan kCorpse{kCorpsePieces, 0, kCorpseVolumes, {}, 0, 0};
const BodyPlan kFood{{}, 0, kFoodVolumes, {}, 0, 0};
const BodyPlan kNothing{};

}  // namespace

const BodyPlan& body_plan(Kind kind) {
  switch (kind) {
    case Kind::Worker: return kWorker;
    case Kind::Soldier: return kSoldier;
    case Kind::Queen: return kQueen;
    case Kind::Corpse: return kCorpse;
    case Kind::Food: return kFood;
    default: return kNothing;
  }
}

RenderPiece carried_food_piece() {
  RenderPiece p = piece(Part::CarriedFood, 0.46f, 0, 0, 0.22f, 0.22f);
  p.color = rgba(120, 200, 60);
  return p;
}

RenderPiece crumb_piece(u32 i) {
  // Golden-angle spiral: crumb i sits at radius ~sqrt(i), so any count looks like a heap.
  float a = float(i) * 2.39996323f, r = 0.16f * std::sqrt(float(i));
  RenderPiece p = piece(Part::Crumb, r * std::cos(a), r * std::sin(a), a, 0.3f, 0.3f);
  p.color = (i % 3 == 0) ? rgba(140, 210, 70) : (i % 3 == 1 ? rgba(110, 190, 50) : rgba(170, 220, 90));
  return p;
}

RenderPiece tile_piece(u8 terrain, bool burning) {
  static constexpr u32 kColors[] = {rgba(70, 140, 55), rgba(125, 95, 60), rgba(45, 90, 170), rgba(110, 110, 115)};
  RenderPiece p = piece(Part::Tile, 0, 0, 0, 1, 1);
  p.sprite = u8(terrain + (burning ? 4 : 0));  // 0..3 terrain, 4 burning grass
  p.color = burning ? rgba(230, 110, 30) : kColors[terrain & 3];
  return p;
}

u32 shade(u32 color, float f) {
  auto ch = [&](int shift) {
    float v = float((color >> shift) & 0xFF) * f;
    return u32(v > 255 ? 255 : v) << shift;
  };
  return ch(0) | ch(8) | ch(16) | (color & 0xFF000000u);
}

}  // namespace colony
