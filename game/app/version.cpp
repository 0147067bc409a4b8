// version.cpp — the version line, from the header version.cmake writes at every build.
#include "version.h"

#include "version_info.h"

namespace colony {

std::string version_line() { return std::string("colony ") + COLONY_VERSION + " (commit " + COLONY_COMMIT + ")"; }

}  // namespace colony
