// headless_imgui.h — an ImGui context that needs no window: a 1280 x 800 display, the
// font atlas built, no renderer. colony_debug_probe draws the debugger into it to time it,
// and the debugger tests to drive it.
#pragma once
#include <imgui.h>

namespace colony {

struct HeadlessImGui {
  ImGuiContext* ctx = nullptr;

  HeadlessImGui() {
    IMGUI_CHECKVERSION();
    ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 800);
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~HeadlessImGui() { ImGui::DestroyContext(ctx); }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;

  // One 1/60 s frame: NewFrame, draw(), Render. Returns the frame's draw data.
  template <class Fn>
  ImDrawData* frame(Fn&& draw) {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw();
    ImGui::Render();
    return ImGui::GetDrawData();
  }
};

}  // namespace colony
