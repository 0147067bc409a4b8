// violation.cpp — human-readable text for validator findings.
#include <string>

#include "world.h"

namespace ecs {

std::string describe(const Violation& v) {
  std::string s;
  if (!v.pool.empty()) s += "pool " + v.pool + ": ";
  if (v.entry != kNone) s += "entry " + std::to_string(v.entry) + ": ";
  if (!v.entity.is_null())
    s += "entity " + std::to_string(v.entity.index) + "#" + std::to_string(v.entity.generation) + ": ";
  return s + v.what;
}

}  // namespace ecs
