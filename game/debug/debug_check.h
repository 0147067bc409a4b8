// debug_check.h — assertions that stay on in Release builds. The debugger's own checks use
// DEBUG_CHECK, and this file is the IMGUI_USER_CONFIG of the debugger's translation units,
// so ImGui's header-side IM_ASSERTs (ImVector bounds, ...) fire there too instead of being
// compiled out by NDEBUG.
#pragma once

namespace colony {
// Prints "file:line: check failed: expr" to stderr and aborts.
[[noreturn]] void debug_check_failed(const char* expr, const char* file, int line);
}  // namespace colony

#define DEBUG_CHECK(expr) ((expr) ? (void)0 : ::colony::debug_check_failed(#expr, __FILE__, __LINE__))
#ifndef IM_ASSERT
#define IM_ASSERT(expr) DEBUG_CHECK(expr)
#endif
