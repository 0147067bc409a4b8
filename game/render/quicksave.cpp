// quicksave.cpp — the F5 / F9 hooks. The save/replay module fills these in: F5 writes the
// running game to quicksave.colony, F9 replaces it with the one read back.
#include "app.h"

namespace colony::render {

bool quicksave(App&, std::string* err) {
  *err = "quick save is not available in this build";
  return false;
}

bool quickload(App&, std::string* err) {
  *err = "quick load is not available in this build";
  return false;
}

}  // namespace colony::render
