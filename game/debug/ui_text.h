// ui_text.h — what the HUD and the debugger draw alike: the colour of a recording or a
// replay, wrapped text in a colour (Dear ImGui 1.86's TextColored does not wrap) and a
// float slider that keeps a typed value in its range.
#pragma once
#include <imgui.h>

#include <cstdarg>

namespace colony {

// Recording or replaying: the HUD's session line and the debugger's note during a replay.
inline const ImVec4 kSessionColor(0.55f, 0.8f, 1, 1);

// Text wrapped at the window's edge, in `color`.
inline void text_wrapped_colored(const ImVec4& color, const char* fmt, ...) IM_FMTARGS(2);
inline void text_wrapped_colored(const ImVec4& color, const char* fmt, ...) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  va_list args;
  va_start(args, fmt);
  ImGui::TextWrappedV(fmt, args);
  va_end(args);
  ImGui::PopStyleColor();
}

// A float slider whose value stays in [lo, hi] also when typed (ctrl+click): Dear ImGui
// clamps a typed number with AlwaysClamp, but not a typed "nan". True when changed.
inline bool slider_in_range(const char* label, float* v, float lo, float hi, const char* format) {
  bool changed = ImGui::SliderFloat(label, v, lo, hi, format, ImGuiSliderFlags_AlwaysClamp);
  if (!(*v >= lo && *v <= hi)) *v = lo;
  return changed;
}

}  // namespace colony
