// body_plans.h — what each kind of entity looks like in pieces, volumes and sensors:
// the render pieces an ant is born with (head, thorax, abdomen, legs, antennae, ...),
// its collision volumes and its pheromone sensors. Positions are in cells, in the
// owner's frame (x forward, y to the left).
#pragma once
#include <span>

#include "components.h"

namespace colony {

struct BodyPlan {
  std::span<const RenderPiece> pieces;  // added at birth, in this order
  u32 spare_pieces = 0;                 // reserved at birth, added later (carried food)
  std::span<const CollisionVolume> volumes;
  std::span<const Sensor> sensors;
  u16 health = 0;
  u16 attack = 0;  // damage per contact with an enemy
};

// The plan for an ant caste (Worker, Soldier, Queen), a corpse or a tile.
const BodyPlan& body_plan(Kind kind);

// The piece a worker adds into its spare slot when it picks up food.
RenderPiece carried_food_piece();
// Crumb number i of a food source (crumbs spiral out from the centre).
RenderPiece crumb_piece(u32 i);
// The single piece of a tile.
RenderPiece tile_piece(u8 terrain, bool burning);

// Colour helpers (0xAABBGGRR).
u32 shade(u32 color, float factor);
constexpr u32 rgba(u32 r, u32 g, u32 b, u32 a = 255) { return r | g << 8 | b << 16 | a << 24; }

}  // namespace colony
