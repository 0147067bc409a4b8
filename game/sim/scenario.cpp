// scenario.cpp — reads a scenario JSON file with nlohmann-json and checks every value.
// Any problem becomes one line "<file>: <key path>: <problem>"; nothing is half-loaded.
//
// Table of contents
//   [SECTION] Names
//   [SECTION] Checked reading (key paths, types, ranges, unknown keys)
//   [SECTION] Sections of the file
//   [SECTION] Cross-checks (nests on land, capacities)
//   [SECTION] Entry points
#include "scenario.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "body_plans.h"
#include "files.h"
#include "replay.h"
#include "save.h"

namespace colony {

// [SECTION] Names

const char* terrain_name(Terrain t) {
  switch (t) {
    case Terrain::Grass: return "grass";
    case Terrain::Dirt: return "dirt";
    case Terrain::Water: return "water";
    case Terrain::Rock: return "rock";
    case Terrain::Count: break;
  }
  return "?";
}

const char* event_kind_name(EventKind k) {
  switch (k) {
    case EventKind::Bomb: return "bomb";
    case EventKind::Fire: return "fire";
    case EventKind::Spawn: return "spawn";
    case EventKind::Food: return "food";
  }
  return "?";
}

std::string number_text(double v) {
  // Whole numbers as they are and large ones to the unit: "7372800 cells", not 7.3728e+06.
  if (std::isfinite(v) && std::fabs(v) < 1e15 && (v == std::floor(v) || std::fabs(v) >= 1e6)) {
    char t[32];
    std::snprintf(t, sizeof t, "%.0f", v);
    return t;
  }
  std::ostringstream s;
  s << v;
  return s.str();
}

double disc_cells(const Scenario& s, double r) {
  return std::min(std::numbers::pi * r * r + 1, double(s.width) * s.height);
}

namespace {

using nlohmann::json;

// [SECTION] Checked reading

struct BadInput {
  std::string path, problem;
};

// A key path; an empty key shows as "".
std::string join(const std::string& path, const std::string& key) {
  const std::string k = key.empty() ? "\"\"" : key;
  return path.empty() ? k : path + "." + k;
}
std::string at_index(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

const char* type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::number_float: return "a decimal number";
    default: return "an integer";
  }
}

// A number read from the file as the file wrote it: the shortest text that reads back as
// the same double (47.999999999, where number_text's six digits show 48).
std::string written_text(double v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

// An object whose keys must all be in `allowed`.
template <class Keys>
const json& object(const json& v, const std::string& path, const Keys& allowed) {
  if (!v.is_object())
    throw BadInput{path.empty() ? "(top level)" : path, std::string("expected an object, got ") + type_name(v)};
  for (auto it = v.begin(); it != v.end(); ++it) {
    bool ok = std::any_of(allowed.begin(), allowed.end(), [&](const char* k) { return it.key() == k; });
    if (ok) continue;
    std::string known;
    for (const char* k : allowed) known += (known.empty() ? "" : ", ") + std::string(k);
    throw BadInput{join(path, it.key()), "unknown key (known here: " + known + ")"};
  }
  return v;
}

const json& object(const json& v, const std::string& path, std::initializer_list<const char*> allowed) {
  return object<std::initializer_list<const char*>>(v, path, allowed);
}

const json& array(const json& v, const std::string& path, size_t min_n, size_t max_n) {
  if (!v.is_array()) throw BadInput{path, std::string("expected an array, got ") + type_name(v)};
  if (v.size() < min_n || v.size() > max_n)
    throw BadInput{
        path, "expected " +
                  (min_n == max_n ? std::to_string(min_n) : std::to_string(min_n) + " to " + std::to_string(max_n)) +
                  " entries, got " + std::to_string(v.size())};
  return v;
}

double number(const json& v, const std::string& path, double lo, double hi) {
  if (!v.is_number()) throw BadInput{path, std::string("expected a number, got ") + type_name(v)};
  double d = v.get<double>();
  if (!std::isfinite(d) || d < lo || d > hi)
    throw BadInput{path, written_text(d) + " is out of range [" + number_text(lo) + ", " + number_text(hi) + "]"};
  return d;
}

// A decimal number as text that reads as one (100.0, not 100).
std::string decimal_text(double v) {
  std::string t = number_text(v);
  return t.find_first_of(".eEn") == std::string::npos ? t + ".0" : t;
}

u64 integer(const json& v, const std::string& path, u64 lo, u64 hi) {
  if (v.is_number_float())
    throw BadInput{path, "expected an integer, got the decimal number " + decimal_text(v.get<double>())};
  if (!v.is_number_integer()) throw BadInput{path, std::string("expected an integer, got ") + type_name(v)};
  // A signed integer that is not negative ("-0" reads as one) is its value.
  if (!v.is_number_unsigned() && v.get<std::int64_t>() < 0)
    throw BadInput{path, std::to_string(v.get<std::int64_t>()) + " is negative"};
  u64 n = v.is_number_unsigned() ? v.get<u64>() : u64(v.get<std::int64_t>());
  if (n < lo || n > hi)
    throw BadInput{path,
                   std::to_string(n) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
  return n;
}

std::string string(const json& v, const std::string& path) {
  if (!v.is_string()) throw BadInput{path, std::string("expected a string, got ") + type_name(v)};
  return v.get<std::string>();
}

// Reads key into out when present (the default stays otherwise).
template <class T, class Read>
void optional(const json& obj, const char* key, const std::string& path, T& out, Read&& read) {
  auto it = obj.find(key);
  if (it != obj.end()) out = T(read(*it, join(path, key)));
}
// A key that must be present.
const json& member(const json& obj, const char* key, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end()) throw BadInput{join(path, key), "missing"};
  return *it;
}
template <class Read>
auto required(const json& obj, const char* key, const std::string& path, Read&& read) {
  auto it = obj.find(key);
  if (it == obj.end()) throw BadInput{join(path, key), "missing"};
  return read(*it, join(path, key));
}

Terrain terrain_kind(const json& v, const std::string& path) {
  std::string s = string(v, path);
  for (u8 t = 0; t < u8(Terrain::Count); ++t)
    if (s == terrain_name(Terrain(t))) return Terrain(t);
  throw BadInput{path, "unknown terrain '" + s + "' (grass, dirt, water, rock)"};
}

Kind caste(const json& v, const std::string& path) {
  std::string s = string(v, path);
  if (s == "worker") return Kind::Worker;
  if (s == "soldier") return Kind::Soldier;
  throw BadInput{path, "unknown caste '" + s + "' (worker, soldier)"};
}

u32 color(const json& v, const std::string& path) {
  std::string s = string(v, path);
  bool ok = s.size() == 7 && s[0] == '#' &&
            std::all_of(s.begin() + 1, s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
  if (!ok) throw BadInput{path, "expected a colour like \"#ff8800\", got \"" + s + "\""};
  u32 rgb = u32(std::stoul(s.substr(1), nullptr, 16));
  return rgba(rgb >> 16 & 0xFF, rgb >> 8 & 0xFF, rgb & 0xFF);
}

// Builds the document as nlohmann-json's parser does, through its SAX interface, following
// the key path as it reads, with four checks the parser leaves out: a key given twice in one
// object (the parser would keep the last) is refused, a number too large for any type is
// reported at its key path, and so is a whole number written past 64 bits, as written (the
// parser hands it over as a decimal number: 100000000000000000000000 becomes 1e+23, and no
// field of a scenario takes a number that large); and nothing may nest deeper than
// kMaxDepth (a scenario needs five levels; a file of a million nested arrays would take
// minutes and write a key path of megabytes).
class DocumentReader : public nlohmann::detail::json_sax_dom_parser<json> {
  using Dom = nlohmann::detail::json_sax_dom_parser<json>;

 public:
  static constexpr size_t kMaxDepth = 32;
  explicit DocumentReader(json& root) : Dom(root) {}
  bool null() { return Dom::null() && value_read(); }
  bool boolean(bool b) { return Dom::boolean(b) && value_read(); }
  bool number_integer(json::number_integer_t n) { return Dom::number_integer(n) && value_read(); }
  bool number_unsigned(json::number_unsigned_t n) { return Dom::number_unsigned(n) && value_read(); }
  bool number_float(json::number_float_t d, const std::string& text) {
    if (text.find_first_of(".eE") == std::string::npos)
      throw BadInput{where(), text + (text[0] == '-' ? " is too far below zero" : " is too large")};
    return Dom::number_float(d, text) && value_read();
  }
  bool string(std::string& s) { return Dom::string(s) && value_read(); }
  bool binary(json::binary_t& b) { return Dom::binary(b) && value_read(); }
  bool start_object(std::size_t n) {
    refuse_past_max_depth();
    open_.push_back({});
    return Dom::start_object(n);
  }
  bool start_array(std::size_t n) {
    refuse_past_max_depth();
    open_.push_back({true, 0, {}});
    return Dom::start_array(n);
  }
  bool end_object() {
    open_.pop_back();
    return Dom::end_object() && value_read();
  }
  bool end_array() {
    open_.pop_back();
    return Dom::end_array() && value_read();
  }
  bool key(std::string& k) {
    auto [at, first] = open_.back().keys.insert(k);
    open_.back().key = &*at;
    if (!first) throw BadInput{where(), "key given twice"};
    return Dom::key(k);
  }
  template <class Error>
  bool parse_error(std::size_t, const std::string&, const Error& e) {
    if constexpr (std::is_same_v<Error, json::out_of_range>) throw BadInput{where(), "number too large"};
    throw e;
  }

 private:
  struct Open {
    bool array = false;
    size_t index = 0;                      // array: the element being read
    std::unordered_set<std::string> keys;  // object: the keys so far
    const std::string* key = nullptr;      // object: the key being read (in keys)
  };
  void refuse_past_max_depth() const {
    if (open_.size() >= kMaxDepth)
      throw BadInput{where(), "nested deeper than " + std::to_string(kMaxDepth) + " levels"};
  }
  std::string where() const {
    std::string p;
    for (const Open& o : open_) {
      if (o.array) p = at_index(p, o.index);
      else if (o.key) p = join(p, *o.key);
    }
    return p.empty() ? std::string("(document)") : p;
  }
  bool value_read() {
    if (!open_.empty() && open_.back().array) ++open_.back().index;
    return true;
  }
  std::vector<Open> open_;
};

json parse_document(const std::string& text) {
  json root;
  DocumentReader reader(root);
  json::sax_parse(text, &reader);
  return root;
}

// [SECTION] Sections of the file

struct Point {
  float x, y;
};
// A position [x, y] inside the map. The map ends below its width and height: a value
// written just inside can round to the edge as a float (47.999999999 is 48.0f), and the
// message shows what was written and what it became.
Point point(const json& v, const std::string& path, const Scenario& s) {
  array(v, path, 2, 2);
  const double dx = number(v[0], at_index(path, 0), -1e9, 1e9), dy = number(v[1], at_index(path, 1), -1e9, 1e9);
  const float x = float(dx), y = float(dy);
  if (x >= 0 && y >= 0 && x < float(s.width) && y < float(s.height)) return {x, y};
  std::string problem = std::string("(").append(written_text(dx)).append(", ").append(written_text(dy));
  problem += ") is outside the " + std::to_string(s.width) + "x" + std::to_string(s.height) + " map";
  for (auto [d, f, edge] : {std::tuple{dx, x, s.width}, std::tuple{dy, y, s.height}})
    if (d < double(edge) && f >= float(edge))
      problem += std::string(" (")
                     .append(written_text(d))
                     .append(" rounds to its edge, ")
                     .append(std::to_string(edge))
                     .append(")");
  throw BadInput{path, problem};
}

void read_world(const json& root, Scenario& s) {
  const json& w = object(member(root, "world", ""), "world", {"width", "height", "chunk_size"});
  s.width =
      u32(required(w, "width", "world", [](const json& v, const std::string& p) { return integer(v, p, 16, 8192); }));
  s.height =
      u32(required(w, "height", "world", [](const json& v, const std::string& p) { return integer(v, p, 16, 8192); }));
  optional(w, "chunk_size", "world", s.chunk_size,
           [](const json& v, const std::string& p) { return integer(v, p, 4, 256); });
}

void read_terrain(const json& root, Scenario& s) {
  auto it = root.find("terrain");
  if (it == root.end()) return;
  const json& t = object(*it, "terrain", {"base", "noise", "shapes"});
  optional(t, "base", "terrain", s.base, terrain_kind);
  if (auto n = t.find("noise"); n != t.end()) {
    const json& nz = object(*n, "terrain.noise", {"scale", "water", "rock", "dirt"});
    s.noise.enabled = true;
    auto frac = [](const json& v, const std::string& p) { return number(v, p, 0, 1); };
    optional(nz, "scale", "terrain.noise", s.noise.scale,
             [](const json& v, const std::string& p) { return number(v, p, 1, 4096); });
    optional(nz, "water", "terrain.noise", s.noise.water, frac);
    optional(nz, "rock", "terrain.noise", s.noise.rock, frac);
    optional(nz, "dirt", "terrain.noise", s.noise.dirt, frac);
  }
  if (auto sh = t.find("shapes"); sh != t.end()) {
    array(*sh, "terrain.shapes", 0, 100000);
    double painted = 0;  // cells painted, counted as the builder will (kShapeCellsBudget)
    for (size_t i = 0; i < sh->size(); ++i) {
      std::string p = at_index("terrain.shapes", i);
      const json& o = object((*sh)[i], p, {"terrain", "rect", "circle"});
      TerrainShape shape;
      shape.terrain = required(o, "terrain", p, terrain_kind);
      bool rect = o.contains("rect"), circle = o.contains("circle");
      if (rect == circle) throw BadInput{p, "needs exactly one of \"rect\" [x, y, w, h] or \"circle\" [x, y, r]"};
      if (rect) {
        const json& r = array(o["rect"], join(p, "rect"), 4, 4);
        shape.x = float(number(r[0], join(p, "rect[0]"), -1e6, 1e6));
        shape.y = float(number(r[1], join(p, "rect[1]"), -1e6, 1e6));
        shape.w = float(number(r[2], join(p, "rect[2]"), 0, 1e6));
        shape.h = float(number(r[3], join(p, "rect[3]"), 0, 1e6));
      } else {
        const json& c = array(o["circle"], join(p, "circle"), 3, 3);
        shape.circle = true;
        shape.x = float(number(c[0], join(p, "circle[0]"), -1e6, 1e6));
        shape.y = float(number(c[1], join(p, "circle[1]"), -1e6, 1e6));
        shape.r = float(number(c[2], join(p, "circle[2]"), 0, 1e6));
      }
      s.shapes.push_back(shape);
      const double map = double(s.width) * s.height;
      painted += shape.circle ? disc_cells(s, shape.r) : std::min(double(shape.w) * shape.h, map);
      if (painted > kShapeCellsBudget * map)
        throw BadInput{p, "the shapes up to here paint " + number_text(painted) + " cells, more than " +
                              number_text(kShapeCellsBudget) + " times the map's " + number_text(map) +
                              " (fewer or smaller shapes)"};
    }
  }
}

void read_colonies(const json& root, Scenario& s) {
  const json& cs = array(member(root, "colonies", ""), "colonies", 1, 4);
  for (size_t i = 0; i < cs.size(); ++i) {
    std::string p = at_index("colonies", i);
    const json& o = object(cs[i], p, {"nest", "color", "workers", "soldiers", "spread", "food"});
    ColonySpec c;
    Point nest = required(o, "nest", p, [&](const json& v, const std::string& q) { return point(v, q, s); });
    c.nest_x = nest.x;
    c.nest_y = nest.y;
    c.color = kDefaultColonyColors[i];
    optional(o, "color", p, c.color, color);
    auto count = [](const json& v, const std::string& q) { return integer(v, q, 0, 50'000'000); };
    optional(o, "workers", p, c.workers, count);
    optional(o, "soldiers", p, c.soldiers, count);
    optional(o, "spread", p, c.spread, [](const json& v, const std::string& q) { return number(v, q, 0, 10000); });
    optional(o, "food", p, c.food, [](const json& v, const std::string& q) { return number(v, q, 0, 1e12); });
    s.colonies.push_back(c);
  }
}

void read_food(const json& root, Scenario& s) {
  if (auto f = root.find("food"); f != root.end()) {
    array(*f, "food", 0, 1'000'000);
    for (size_t i = 0; i < f->size(); ++i) {
      std::string p = at_index("food", i);
      const json& o = object((*f)[i], p, {"at", "crumbs"});
      FoodSpec fs;
      Point at = required(o, "at", p, [&](const json& v, const std::string& q) { return point(v, q, s); });
      fs.x = at.x;
      fs.y = at.y;
      optional(o, "crumbs", p, fs.crumbs, [](const json& v, const std::string& q) { return integer(v, q, 1, 31); });
      s.food.push_back(fs);
    }
  }
  if (auto rf = root.find("random_food"); rf != root.end()) {
    const json& o = object(*rf, "random_food", {"count", "crumbs"});
    optional(o, "count", "random_food", s.random_food.count,
             [](const json& v, const std::string& q) { return integer(v, q, 0, 1'000'000); });
    if (auto c = o.find("crumbs"); c != o.end()) {
      array(*c, "random_food.crumbs", 2, 2);
      s.random_food.crumbs_min = u32(integer((*c)[0], "random_food.crumbs[0]", 1, 31));
      s.random_food.crumbs_max = u32(integer((*c)[1], "random_food.crumbs[1]", 1, 31));
      if (s.random_food.crumbs_max < s.random_food.crumbs_min)
        throw BadInput{"random_food.crumbs", "maximum is below minimum"};
    }
  }
}

void read_region(const json& root, Scenario& s) {
  auto it = root.find("region");
  if (it == root.end()) return;
  const json& o = object(*it, "region", {"x", "y", "w", "h"});
  auto coord = [](const json& v, const std::string& q) { return number(v, q, 0, 1e6); };
  optional(o, "x", "region", s.region_x, coord);
  optional(o, "y", "region", s.region_y, coord);
  optional(o, "w", "region", s.region_w, coord);
  optional(o, "h", "region", s.region_h, coord);
  if (s.region_x >= float(s.width) || s.region_y >= float(s.height))
    throw BadInput{"region", "starts outside the " + std::to_string(s.width) + "x" + std::to_string(s.height) + " map"};
}

void read_capacity(const json& root, Scenario& s) {
  auto it = root.find("capacity");
  if (it == root.end()) return;
  // Every pool's key is its kPoolName.
  std::vector<const char*> keys = {"entities"};
  for (const char* name : ColonyPools::names()) keys.push_back(name);
  keys.push_back("max_ants");
  const json& o = object(*it, "capacity", keys);
  auto cap = [](const json& v, const std::string& q) { return integer(v, q, 1, 200'000'000); };
  optional(o, "entities", "capacity", s.capacity.entities, cap);
  ColonyPools::for_each(
      [&]<class C>(std::type_identity<C>) { optional(o, C::kPoolName, "capacity", s.capacity.pools.of<C>(), cap); });
  optional(o, "max_ants", "capacity", s.capacity.max_ants, cap);
}

void read_rules(const json& root, Scenario& s) {
  auto it = root.find("rules");
  if (it == root.end()) return;
  const json& o = object(
      *it, "rules",
      {"worker_speed", "soldier_speed", "worker_lifespan", "soldier_lifespan", "upkeep", "ant_cost", "lay_interval",
       "soldier_fraction", "max_population", "fire_spread", "burn_ticks", "evaporation", "deposit", "dormant_period",
       "corpse_ticks", "regrowth", "refound_food", "refound_delay", "strike_chance"});
  Rules& r = s.rules;
  const std::string p = "rules";
  auto num = [](double lo, double hi) {
    return [=](const json& v, const std::string& q) { return number(v, q, lo, hi); };
  };
  auto whole = [](u64 lo, u64 hi) {
    return [=](const json& v, const std::string& q) { return integer(v, q, lo, hi); };
  };
  // A speed is compared as the float it is kept as: 0.9 as a double is above 0.9f, and
  // "at most 0.9" compared as a double would refuse 0.9.
  auto speed = [](const json& v, const std::string& q) {
    const double d = number(v, q, 0, 1e6);
    if (float(d) > kMaxAntSpeed)
      throw BadInput{q, written_text(d) + " is out of range [0, " + number_text(kMaxAntSpeed) + "]"};
    return d;
  };
  optional(o, "worker_speed", p, r.worker_speed, speed);
  optional(o, "soldier_speed", p, r.soldier_speed, speed);
  optional(o, "worker_lifespan", p, r.worker_lifespan, whole(1, 100'000'000));
  optional(o, "soldier_lifespan", p, r.soldier_lifespan, whole(1, 100'000'000));
  optional(o, "upkeep", p, r.upkeep, num(0, 1));
  optional(o, "ant_cost", p, r.ant_cost, num(0, 1e6));
  optional(o, "lay_interval", p, r.lay_interval, whole(0, 1'000'000));
  optional(o, "soldier_fraction", p, r.soldier_fraction, num(0, 1));
  optional(o, "max_population", p, r.max_population, whole(0, 100'000'000));
  optional(o, "fire_spread", p, r.fire_spread, num(0, 1));
  optional(o, "burn_ticks", p, r.burn_ticks, whole(1, 60'000));
  optional(o, "evaporation", p, r.evaporation, num(0, 1));
  optional(o, "deposit", p, r.deposit, num(0, 100));
  optional(o, "dormant_period", p, r.dormant_period, whole(1, 1024));
  optional(o, "corpse_ticks", p, r.corpse_ticks, whole(1, 100'000'000));
  optional(o, "regrowth", p, r.regrowth, num(0, 1));
  optional(o, "refound_food", p, r.refound_food, num(0, 1e6));
  optional(o, "refound_delay", p, r.refound_delay, whole(0, 100'000'000));
  optional(o, "strike_chance", p, r.strike_chance, num(0, 1));
}

// The terrain the scenario paints at the positions its checks ask about: its shapes over
// the base (noise is drawn when the world is built). Each answer walks the shapes while
// that stays cheap; past kShapeTests shape tests the shapes are painted onto a grid of the
// map once and looked up (a hundred thousand spawn events over a hundred thousand shapes
// would be 10^10 tests: minutes to parse, again at every load of its saves). The painting
// costs what the world's build pays for them anyway (kShapeCellsBudget).
class PaintedTerrain {
 public:
  explicit PaintedTerrain(const Scenario& s) : s_(s) {}
  Terrain at(float x, float y) {
    const int cx = int(std::floor(x)), cy = int(std::floor(y));
    if (grid_.empty() && tests_ + s_.shapes.size() > kShapeTests) {
      grid_.assign(size_t(s_.width) * s_.height, base());
      paint_shapes(s_, grid_);
    }
    if (!grid_.empty()) {
      const bool inside = cx >= 0 && cy >= 0 && u32(cx) < s_.width && u32(cy) < s_.height;
      return inside ? grid_[size_t(cy) * s_.width + size_t(cx)] : base();
    }
    tests_ += s_.shapes.size();
    Terrain t = base();
    for (const TerrainShape& sh : s_.shapes)
      if (shape_covers_cell(sh, cx, cy)) t = sh.terrain;
    return t;
  }

 private:
  static constexpr u64 kShapeTests = 1'000'000;
  // The base as the checks see it: noise clears a yard around nests.
  Terrain base() const { return s_.noise.enabled && !passable(s_.base) ? Terrain::Dirt : s_.base; }
  const Scenario& s_;
  std::vector<Terrain> grid_;
  u64 tests_ = 0;
};

// Refuses a position the scenario paints as water or rock: "<what> water".
void require_land(PaintedTerrain& land, float x, float y, const std::string& path, const char* what) {
  Terrain t = land.at(x, y);
  if (!passable(t)) throw BadInput{path, std::string(what) + " " + terrain_name(t)};
}

void check_event_load(const Scenario& s);

void read_events(const json& root, Scenario& s, PaintedTerrain& land) {
  auto it = root.find("events");
  if (it == root.end()) return;
  array(*it, "events", 0, 100000);
  for (size_t i = 0; i < it->size(); ++i) {
    std::string p = at_index("events", i);
    const json& o = (*it)[i];
    if (!o.is_object()) throw BadInput{p, std::string("expected an object, got ") + type_name(o)};
    EventSpec e;
    std::string kind = required(o, "kind", p, string);
    if (kind == "bomb")
      e.kind = EventKind::Bomb, object(o, p, {"kind", "tick", "every", "until", "at", "spread", "radius", "outer"});
    else if (kind == "fire")
      e.kind = EventKind::Fire, object(o, p, {"kind", "tick", "every", "until", "at", "spread", "radius"});
    else if (kind == "spawn")
      e.kind = EventKind::Spawn,
      object(o, p, {"kind", "tick", "every", "until", "at", "spread", "radius", "count", "colony", "caste"});
    else if (kind == "food")
      e.kind = EventKind::Food, object(o, p, {"kind", "tick", "every", "until", "at", "spread", "count"});
    else throw BadInput{join(p, "kind"), "unknown event kind '" + kind + "' (bomb, fire, spawn, food)"};
    e.tick =
        required(o, "tick", p, [](const json& v, const std::string& q) { return integer(v, q, 0, 1'000'000'000); });
    optional(o, "every", p, e.every,
             [](const json& v, const std::string& q) { return integer(v, q, 0, 1'000'000'000); });
    optional(o, "until", p, e.until,
             [](const json& v, const std::string& q) { return integer(v, q, 0, 1'000'000'000); });
    if (e.until < e.tick)
      throw BadInput{join(p, "until"),
                     "tick " + std::to_string(e.until) + " is before the event's first tick " + std::to_string(e.tick)};
    Point at = required(o, "at", p, [&](const json& v, const std::string& q) { return point(v, q, s); });
    e.x = at.x;
    e.y = at.y;
    optional(o, "spread", p, e.spread, [](const json& v, const std::string& q) { return number(v, q, 0, 1e6); });
    // A radius is 0 or at least a hundredth of a cell: below that it would round to 0 as a
    // float, or to a disc that holds no cell centre, and "outer": 1e-300 would read as unset.
    auto radius = [](const json& v, const std::string& q) {
      if (v.is_number() && v.get<double>() < 0)
        throw BadInput{q, "radius must not be negative, got " + number_text(v.get<double>())};
      const double r = number(v, q, 0, 4096);
      // Compared as the float it is kept as: 0.01 is 0.0099999998 there, and a save writes
      // that back (compared as a double, its scenario would read as below 0.01).
      if (r != 0 && float(r) < 0.01f) throw BadInput{q, written_text(r) + " is below the smallest radius, 0.01 (or 0)"};
      return r;
    };
    e.radius = e.kind == EventKind::Bomb ? 6.0f : (e.kind == EventKind::Fire ? 1.5f : 3.0f);
    optional(o, "radius", p, e.radius, radius);
    optional(o, "outer", p, e.outer, radius);
    if (e.kind == EventKind::Bomb && e.radius <= 0) throw BadInput{join(p, "radius"), "a bomb needs a radius above 0"};
    if (e.kind == EventKind::Bomb && e.outer > 0 && e.outer < e.radius)
      throw BadInput{join(p, "outer"), "the maim ring must not be inside the kill radius"};
    e.count = e.kind == EventKind::Food ? 24 : 0;
    optional(o, "count", p, e.count, [&](const json& v, const std::string& q) {
      return integer(v, q, 1, e.kind == EventKind::Food ? 31 : 10'000'000);
    });
    if (e.kind == EventKind::Spawn) {
      e.count = u32(
          required(o, "count", p, [](const json& v, const std::string& q) { return integer(v, q, 1, 10'000'000); }));
      e.colony = u8(required(o, "colony", p, [&](const json& v, const std::string& q) {
        return integer(v, q, 0, s.colonies.size() - 1);
      }));
      optional(o, "caste", p, e.caste, caste);
      require_land(land, e.x, e.y, join(p, "at"), "the ants would appear in");
    }
    s.events.push_back(e);
  }
  check_event_load(s);
}

// The cells the events touch (a bomb out to the danger past its maim ring, a fire its
// disc, a spawn or food one cell per ant or crumb): every event's first firing against
// kOnceEventCellsBudget (events that share a first tick fire together, however long a
// repeating one's period), and the repeating ones per tick, each its cells over its
// period, against kRepeatEventCellsBudget.
void check_event_load(const Scenario& s) {
  const double map = double(s.width) * s.height;
  double once = 0, per_tick = 0;
  for (const EventSpec& e : s.events) {
    const double reach = e.kind == EventKind::Bomb ? bomb_reach(event_bomb_outer(e)) : e.radius;
    const double cells =
        e.kind == EventKind::Spawn || e.kind == EventKind::Food ? double(e.count) : disc_cells(s, reach);
    once += cells;
    if (e.every != 0) per_tick += cells / double(e.every);
  }
  if (once > kOnceEventCellsBudget * map)
    throw BadInput{"events", "the events' first firings touch " + number_text(once) + " cells, more than " +
                                 number_text(kOnceEventCellsBudget) + " times the map's " + number_text(map)};
  if (per_tick > kRepeatEventCellsBudget * map)
    throw BadInput{"events", "the repeating events touch " + number_text(per_tick) + " cells a tick, more than " +
                                 number_text(kRepeatEventCellsBudget) + " times the map's " + number_text(map)};
}

// [SECTION] Cross-checks

// Nests at least kMinNestDistance apart; food entries whose 3x3 squares share no cell (a
// source covers the 3x3 cells around its own, and a later one would quietly cover fewer).
void check_spacing(const Scenario& s) {
  for (size_t i = 0; i < s.colonies.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      const float dx = s.colonies[i].nest_x - s.colonies[j].nest_x, dy = s.colonies[i].nest_y - s.colonies[j].nest_y;
      if (dx * dx + dy * dy < kMinNestDistance * kMinNestDistance)
        throw BadInput{at_index("colonies", i) + ".nest", "the nest is " + number_text(std::sqrt(dx * dx + dy * dy)) +
                                                              " cells from colonies[" + std::to_string(j) +
                                                              "]'s, closer than " + number_text(kMinNestDistance)};
    }
  std::unordered_map<u64, size_t> claimed;  // cell -> the food entry covering it
  for (size_t i = 0; i < s.food.size(); ++i) {
    const int cx = int(s.food[i].x), cy = int(s.food[i].y);
    for (int y = cy - 1; y <= cy + 1; ++y)
      for (int x = cx - 1; x <= cx + 1; ++x) {
        auto [it, fresh] = claimed.try_emplace(u64(u32(y)) << 32 | u32(x), i);
        if (!fresh && it->second != i)
          throw BadInput{at_index("food", i) + ".at",
                         "its 3x3 cells overlap food[" + std::to_string(it->second) + "]'s"};
      }
  }
}

void check_world(Scenario& s, PaintedTerrain& land) {
  for (size_t i = 0; i < s.colonies.size(); ++i)
    require_land(land, s.colonies[i].nest_x, s.colonies[i].nest_y, at_index("colonies", i) + ".nest", "the nest is in");
  check_spacing(s);
  StartingNeeds n = starting_needs(s);
  Capacity c = resolved_capacity(s);
  auto check = [&](u64 need, u32 have, const char* key, const char* what) {
    if (need > have)
      throw BadInput{std::string("capacity.") + key, "the scenario starts with " + std::to_string(need) + " " + what +
                                                         " but the capacity is " + std::to_string(have)};
  };
  check(n.ants, c.max_ants, "max_ants", "ants");
  check(n.entities, c.entities, "entities", "entities");
  ColonyPools::for_each([&]<class C>(std::type_identity<C>) {
    std::string what = C::kPoolName;  // render_pieces: "render pieces"
    std::replace(what.begin(), what.end(), '_', ' ');
    check(n.pools.of<C>(), c.pools.of<C>(), C::kPoolName, what.c_str());
  });
}

}  // namespace

StartingNeeds starting_needs(const Scenario& s) {
  StartingNeeds n;
  u64 tiles = u64(s.width) * s.height;
  n.entities = tiles;
  u64& pieces = n.pools.of<RenderPiece>();
  u64& volumes = n.pools.of<CollisionVolume>();
  u64& sensors = n.pools.of<Sensor>();
  pieces = tiles;
  for (const ColonySpec& c : s.colonies) {
    const BodyPlan& w = body_plan(Kind::Worker);
    const BodyPlan& so = body_plan(Kind::Soldier);
    const BodyPlan& q = body_plan(Kind::Queen);
    n.ants += 1 + u64(c.workers) + c.soldiers;
    n.entities += 1 + u64(c.workers) + c.soldiers;
    pieces +=
        q.pieces.size() + u64(c.workers) * (w.pieces.size() + w.spare_pieces) + u64(c.soldiers) * so.pieces.size();
    volumes += q.volumes.size() + u64(c.workers) * w.volumes.size() + u64(c.soldiers) * so.volumes.size();
    sensors += u64(c.workers) * w.sensors.size() + u64(c.soldiers) * so.sensors.size();
  }
  for (const FoodSpec& f : s.food) n.entities += 1, pieces += f.crumbs, volumes += 1;
  return n;
}

Capacity resolved_capacity(const Scenario& s) {
  Capacity c = s.capacity;
  StartingNeeds n = starting_needs(s);
  u64 queens = s.colonies.size();
  u64 grow = s.rules.max_population ? u64(s.rules.max_population) * queens : n.ants;
  u64 max_ants = c.max_ants ? c.max_ants : std::max<u64>(4096, n.ants + grow);
  u64 food = s.food.size() + s.random_food.count + 256;
  u64 corpses = max_ants / 4 + 1024;
  u64 tiles = u64(s.width) * s.height;
  auto fit = [](u64 v) { return u32(std::min<u64>(v, 200'000'000)); };
  if (!c.max_ants) c.max_ants = fit(max_ants);
  if (!c.entities) c.entities = fit(tiles + max_ants + food + corpses);
  // What each pool holds at most, by what its entities carry; a pool with no line here
  // gets what the scenario starts with plus one component an ant.
  PerPool<u64> most;
  most.of<RenderPiece>() = tiles + max_ants * 14 + queens * 30 + food * 31 + corpses * 5;
  most.of<CollisionVolume>() = max_ants * 3 + queens * 8 + food + corpses;
  most.of<Sensor>() = max_ants * 3;
  for (size_t i = 0; i < ColonyPools::kCount; ++i)
    if (!c.pools[i]) c.pools[i] = fit(most[i] ? most[i] : n.pools[i] + max_ants);
  return c;
}

// [SECTION] Entry points

void paint_shapes(const Scenario& s, std::vector<Terrain>& grid) {
  const int w = int(s.width), h = int(s.height);
  for (const TerrainShape& sh : s.shapes) {
    // A rectangle is its cells' range itself; a circle's bounding box is tested cell by cell.
    const float x0 = sh.circle ? sh.x - sh.r : sh.x, y0 = sh.circle ? sh.y - sh.r : sh.y;
    const float x1 = sh.circle ? sh.x + sh.r : sh.x + sh.w, y1 = sh.circle ? sh.y + sh.r : sh.y + sh.h;
    const int end = sh.circle ? 1 : 0;  // a circle's box includes its last column and row
    const int cx0 = std::max(0, int(std::floor(x0))), cy0 = std::max(0, int(std::floor(y0)));
    const int cx1 = std::min(w, int(std::floor(x1)) + end), cy1 = std::min(h, int(std::floor(y1)) + end);
    for (int cy = cy0; cy < cy1; ++cy)
      for (int cx = cx0; cx < cx1; ++cx)
        if (!sh.circle || shape_covers_cell(sh, cx, cy)) grid[size_t(cy) * s.width + size_t(cx)] = sh.terrain;
  }
}

bool shape_covers_cell(const TerrainShape& sh, int cx, int cy) {
  if (sh.circle) {
    const float dx = float(cx) + 0.5f - sh.x, dy = float(cy) + 0.5f - sh.y;
    return dx * dx + dy * dy <= sh.r * sh.r;
  }
  return cx >= int(std::floor(sh.x)) && cx < int(std::floor(sh.x + sh.w)) && cy >= int(std::floor(sh.y)) &&
         cy < int(std::floor(sh.y + sh.h));
}

bool parse_scenario(const std::string& text, const std::string& path, Scenario& out, std::string* err) {
  Scenario s;
  s.path = path;
  // A save or a replay given as a scenario: said so, with the flag that reads it.
  for (auto [magic, what] : {std::pair{kSaveMagic, "a Colony save, not a scenario (read it with --load)"},
                             std::pair{kReplayMagic, "a Colony replay, not a scenario (read it with --replay)"}})
    if (text.size() >= 8 && std::memcmp(text.data(), magic, 8) == 0) {
      if (err) *err = printable(path) + ": (document): " + what;
      return false;
    }
  // JSON text holds no NUL byte, and the parser would take one for the end of the text.
  if (size_t nul = text.find('\0'); nul != std::string::npos) {
    if (err)
      *err =
          printable(path) + ": (document): a NUL byte at offset " + std::to_string(nul) + " (a scenario is JSON text)";
    return false;
  }
  try {
    json root = parse_document(text);
    object(root, "",
           {"name", "description", "seed", "world", "terrain", "colonies", "food", "random_food", "region", "capacity",
            "rules", "events"});
    optional(root, "name", "", s.name, string);
    optional(root, "description", "", s.description, string);
    optional(root, "seed", "", s.seed, [](const json& v, const std::string& q) { return integer(v, q, 0, ~u64(0)); });
    read_world(root, s);
    read_rules(root, s);
    read_terrain(root, s);
    read_colonies(root, s);
    read_food(root, s);
    read_region(root, s);
    read_capacity(root, s);
    PaintedTerrain land(s);
    read_events(root, s, land);
    check_world(s, land);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    if (auto p = what.find("parse error"); p != std::string::npos) what = what.substr(p);
    for (char& c : what)
      if (c == '\n') c = ' ';
    if (err) *err = printable(path) + ": (document): invalid JSON: " + printable(what);
    return false;
  } catch (const BadInput& b) {
    if (err) *err = printable(path) + ": " + printable(b.path) + ": " + printable(b.problem);
    return false;
  } catch (const std::exception& e) {
    if (err) *err = printable(path) + ": (document): " + printable(e.what());
    return false;
  }
  out = std::move(s);
  return true;
}

bool load_scenario(const std::string& path, Scenario& out, std::string* err) {
  std::vector<std::uint8_t> bytes;
  std::string problem = read_regular_file(path, bytes, kMaxScenarioBytes);
  if (!problem.empty()) {
    if (err) *err = printable(path) + ": (file): " + problem;
    return false;
  }
  return parse_scenario(std::string(bytes.begin(), bytes.end()), path, out, err);
}

}  // namespace colony
