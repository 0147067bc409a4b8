// explosions.cpp — deaths (queued, counted by cause), maiming (one leg or antenna removed,
// order kept) and bombs (victims through the chunk grid's radius query).
#include "sim_internal.h"

namespace colony {

bool kill_ant(Game& g, Record& r, DeathCause cause) {
  if (r.header.flags & ecs::kFlagDying) return false;
  if (g.ecs->queue_destroy(r.header.handle) != ecs::Result::Ok) return false;
  Body& b = r.payload;
  Colony& c = g.colonies[b.colony];
  --c.alive;
  ++c.died.by_cause[size_t(cause)];
  if (b.kind == Kind::Queen) c.queen = {};
  bool leaves_corpse = b.kind != Kind::Queen &&
                       (cause == DeathCause::Combat || cause == DeathCause::Age || cause == DeathCause::Starvation);
  if (leaves_corpse) g.scratch_corpses.push_back({b.x, b.y, b.heading, b.colony, b.kind});
  return true;
}

bool maim_ant(Game& g, Record& r, bool prefer_antenna, u32 side) {
  ColonyEcs& w = *g.ecs;
  Body& b = r.payload;
  Part want = (prefer_antenna && b.antennae > 0) || b.legs == 0 ? Part::Antenna : Part::Leg;
  const auto& l = w.list<RenderPiece>(r);
  int found = -1;
  for (u32 k = 0; k < l.added && found < 0; ++k) {
    const RenderPiece& p = w.pool<RenderPiece>().items[l.slot[k]];
    if (p.part == want && (side > 1 || p.side() == side)) found = int(k);
  }
  if (found < 0 && side <= 1) return maim_ant(g, r, prefer_antenna, 2);  // none left on that side
  if (found < 0) return false;
  u8 lost_side = w.pool<RenderPiece>().items[l.slot[found]].side();
  w.remove_one<RenderPiece>(r.header.handle, u32(found));
  if (want == Part::Leg) {
    --b.legs;
  } else {
    --b.antennae;
    // The antenna was a sensor: the sensor on that side goes with it.
    const auto& sl = w.list<Sensor>(r);
    for (u32 k = 0; k < sl.added; ++k) {
      float a = w.pool<Sensor>().items[sl.slot[k]].angle;
      if ((lost_side == 0 && a > 0) || (lost_side == 1 && a < 0)) {
        w.remove_one<Sensor>(r.header.handle, k);
        break;
      }
    }
  }
  return true;
}

Blast apply_bomb(Game& g, float x, float y, float radius, float outer) {
  Blast blast{x, y, std::max(radius, 0.0f), std::max(outer, radius), g.tick, 0, 0};
  ColonyEcs& w = *g.ecs;
  // The legs and antennae it tears off are releases of their own (remove_one).
  w.journal_context(g.tick, kReleaseMaim);
  const float r2 = blast.radius * blast.radius;
  for_each_mobile_in_radius(g, x, y, blast.outer, [&](Record& r) {
    Body& b = r.payload;
    if (r.header.flags & ecs::kFlagDying) return;
    float dx = b.x - x, dy = b.y - y;
    bool inner = dx * dx + dy * dy <= r2;
    if (b.kind == Kind::Corpse && inner) {
      forget_food(g, b, r.header.handle);
      w.queue_destroy(r.header.handle);
    } else if (is_ant(b.kind) && b.kind != Kind::Queen) {  // the queen lives underground
      if (inner) {
        blast.killed += kill_ant(g, r, DeathCause::Explosion);
        return;
      }
      // The ring: a leg torn off, and sometimes an antenna too (never a second leg in its place).
      u32 id = r.header.handle.index;
      maim_ant(g, r, false, hash_u32(g.seed, g.tick, id, kMaimSide) & 1);
      if (b.antennae > 0 && hash_float(g.seed, g.tick, id, kMaim) < 0.5f) maim_ant(g, r, true, 2);
      ++blast.maimed;
      if (b.legs == 0) blast.killed += kill_ant(g, r, DeathCause::Explosion);
    }
  });
  for_each_cell_in_circle(g, x, y, blast.radius, [&](u32 cell, float d) {
    u8 s = u8(255.0f * std::clamp(1.1f - d / std::max(blast.radius, 0.5f), 0.2f, 1.0f));
    if (s > g.scorch[cell]) g.scorch[cell] = s, mark_dirty(g, cell);
    if (d < blast.radius * 0.6f && hash_float(g.seed, g.tick, cell, kIgnite) < 0.5f) ignite_cell(g, cell);
  });
  for_each_cell_in_circle(g, x, y, bomb_reach(blast.outer), [&](u32 cell, float) { put_danger(g, cell, 1.0f); });
  if (g.blasts.size() >= kMaxBlasts) g.blasts.erase(g.blasts.begin(), g.blasts.begin() + kMaxBlasts / 4);
  g.blasts.push_back(blast);
  w.journal_context(g.tick, 0);
  return blast;
}

void spawn_corpses(Game& g) {
  for (const Game::CorpseOrder& o : g.scratch_corpses) spawn_corpse(g, o);
  g.scratch_corpses.clear();
}

u32 apply_deaths(Game& g) {
  u32 n = g.ecs->apply_destructions();
  spawn_corpses(g);
  return n;
}

}  // namespace colony
