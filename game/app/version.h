// version.h — the version of this build and the commit it was built from.
#pragma once
#include <string>

namespace colony {

// "colony 0.1.0 (commit 1a2b3c4)"; the commit is "unknown" for a build outside git.
std::string version_line();

}  // namespace colony
