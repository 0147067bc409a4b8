// components.cpp — the one instantiation of the game's world, and the names of entity
// kinds for reports and the debugger.
#include "components.h"

template class ecs::World<colony::Body, COLONY_POOLS>;

namespace colony {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Tile: return "tile";
    case Kind::Worker: return "worker";
    case Kind::Soldier: return "soldier";
    case Kind::Queen: return "queen";
    case Kind::Food: return "food";
    case Kind::Corpse: return "corpse";
    case Kind::Count: break;
  }
  return "?";
}

const char* activity_name(const Body& b) {
  if (b.kind == Kind::Queen) return "laying";
  switch (b.state) {
    case AntState::Searching: return "searching";
    case AntState::Returning: return "returning";
    case AntState::Fighting: return "fighting";
    case AntState::Fleeing: return "fleeing";
    case AntState::Idle: return "idle";
  }
  return "?";
}

}  // namespace colony
