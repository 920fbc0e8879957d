// trainmem in the browser: GLFW + WebGL2 + Dear ImGui over the estimator core.
//
// Read top to bottom: the runtime state, waking and pausing the loop, the canvas/DPI sync,
// one frame, then main(). The page draws only while something changes: every input, resize,
// visibility, hashchange or preset-load event asks for a few frames, and when none are left the
// main loop is paused (platform::PauseMainLoop; TOOLCHAIN §9), so an idle page costs no CPU.
//
// ImGui works in device pixels: the canvas backing store is CSS size × devicePixelRatio (GLFW's
// window size = framebuffer size = that), fonts are rasterised at size × DPR and the style is
// scaled by DPR. Text stays sharp on HiDPI screens and browser zoom behaves like a DPI change.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <imgui_internal.h>  // ErrorCheckEndFrameRecover, after an exception mid-frame

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include "app/app_actions.h"
#include "app/app_explorer.h"
#include "app/app_import.h"
#include "app/app_state.h"
#include "app/draw/fonts_cjk.h"
#include "app/draw/theme.h"
#include "app/draw/widgets.h"
#include "app/page_input.h"
#include "app/panels/panels.h"
#include "platform/platform.h"

namespace {

// Frames drawn after an event: ImGui needs one to react, one for hover/active states to settle,
// and one for windows that size themselves from the previous frame.
constexpr int kFramesPerEvent = 3;

struct Runtime {
  GLFWwindow* window = nullptr;
  app::AppState state;
  int frames_left = 0;
  float device_pixel_ratio = 0;  // 0 until the first sync builds the fonts
  int color_scheme = -1;         // 0 light, 1 dark (prefers-color-scheme); -1 before the first sync
  bool keyboard_shown = false;   // the hidden input for a phone's keyboard has the focus
  bool gpu_ready = false;        // the OpenGL backend's objects (font texture included) exist
  bool first_frame_marked = false;
  ImGuiMouseCursor cursor = ImGuiMouseCursor_COUNT;
  int history_steps = 0;  // Ctrl+Z (−1) / Ctrl+Shift+Z, Ctrl+Y (+1) pressed since the last frame
};

Runtime& GetRuntime() {
  static Runtime runtime;  // lives as long as the page: the main loop outlives main()
  return runtime;
}

// ---- Waking and pausing ----------------------------------------------------------------------

void Wake(int frames) {
  Runtime& rt = GetRuntime();
  rt.frames_left = std::max(rt.frames_left, frames);
  platform::ResumeMainLoop();
}

void Pause() { platform::PauseMainLoop(); }

// Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y, and Cmd on a Mac) walk the browser history of configs. Dear
// ImGui 1.86 reads keys as the state at each frame (io.KeysDown), so a chord pressed and
// released between two frames (a quick keystroke on a busy machine) is never seen as pressed:
// it is latched here, in the GLFW key callback, and applied by the next frame
// (HandleHistoryKeys). Other keys keep ImGui's own handling.
void LatchHistoryKey(int key, int action, int mods) {
  if (action != GLFW_PRESS || (mods & GLFW_MOD_ALT) != 0) return;
  if ((mods & (GLFW_MOD_CONTROL | GLFW_MOD_SUPER)) == 0) return;
  Runtime& rt = GetRuntime();
  if (key == GLFW_KEY_Z) rt.history_steps += (mods & GLFW_MOD_SHIFT) != 0 ? +1 : -1;
  if (key == GLFW_KEY_Y) rt.history_steps += 1;
}

// Installed before ImGui's, which chains them: input wakes the loop, then ImGui sees it.
void OnCursorPos(GLFWwindow*, double, double) { Wake(kFramesPerEvent); }
void OnMouseButton(GLFWwindow*, int, int, int) { Wake(kFramesPerEvent); }
void OnScroll(GLFWwindow*, double, double) { Wake(kFramesPerEvent); }
void OnKey(GLFWwindow*, int key, int, int action, int mods) {
  Wake(kFramesPerEvent);
  LatchHistoryKey(key, action, mods);
}
void OnChar(GLFWwindow*, unsigned int) { Wake(kFramesPerEvent); }
void OnCursorEnter(GLFWwindow*, int) { Wake(kFramesPerEvent); }
void OnFocus(GLFWwindow*, int) { Wake(kFramesPerEvent); }

void InstallWakeCallbacks(GLFWwindow* window) {
  glfwSetCursorPosCallback(window, OnCursorPos);
  glfwSetMouseButtonCallback(window, OnMouseButton);
  glfwSetScrollCallback(window, OnScroll);
  glfwSetKeyCallback(window, OnKey);
  glfwSetCharCallback(window, OnChar);
  glfwSetCursorEnterCallback(window, OnCursorEnter);
  glfwSetWindowFocusCallback(window, OnFocus);
}

// ---- Canvas, DPI, fonts ------------------------------------------------------------------------

void SyncCanvas(Runtime& rt) {
  const platform::CanvasSize css = platform::GetCanvasSize();
  const float ratio = static_cast<float>(std::clamp(css.device_pixel_ratio, 0.5, 4.0));
  const int width = std::max(1, static_cast<int>(std::lround(css.css_width * ratio)));
  const int height = std::max(1, static_cast<int>(std::lround(css.css_height * ratio)));
  int current_width = 0, current_height = 0;
  glfwGetWindowSize(rt.window, &current_width, &current_height);
  if (width != current_width || height != current_height) platform::ResizeCanvas(width, height);
  const int scheme = platform::PrefersDarkColorScheme() ? 1 : 0;
  // A new ratio, or the Chinese glyphs arrived (fonts_cjk.h): rebuild the atlas.
  if (ratio != rt.device_pixel_ratio || app::TakeFontsChanged()) {
    rt.device_pixel_ratio = ratio;
    rt.state.device_pixel_ratio = ratio;
    app::BuildFonts(ratio);
    rt.color_scheme = -1;  // the style scales with the ratio too
    if (rt.gpu_ready) {    // before that, CreateDeviceObjects uploads the atlas
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
    }
  }
  if (scheme != rt.color_scheme) {
    rt.color_scheme = scheme;
    app::ApplyStyle(ratio, scheme == 1);
  }
}

// The history chords latched since the last frame walk the history, unless a text field is
// being edited: there they undo the typing, as in any text box.
void HandleHistoryKeys(Runtime& rt) {
  const int steps = rt.history_steps;
  rt.history_steps = 0;
  if (steps != 0 && !ImGui::GetIO().WantTextInput) platform::HistoryStep(steps);
}

const char* CssCursor(ImGuiMouseCursor cursor) {
  switch (cursor) {
    case ImGuiMouseCursor_None:
      return "none";
    case ImGuiMouseCursor_TextInput:
      return "text";
    case ImGuiMouseCursor_Hand:
      return "pointer";
    case ImGuiMouseCursor_ResizeAll:
      return "move";
    case ImGuiMouseCursor_ResizeNS:
      return "ns-resize";
    case ImGuiMouseCursor_ResizeEW:
      return "ew-resize";
    case ImGuiMouseCursor_ResizeNESW:
      return "nesw-resize";
    case ImGuiMouseCursor_ResizeNWSE:
      return "nwse-resize";
    case ImGuiMouseCursor_NotAllowed:
      return "not-allowed";
    default:
      return "default";
  }
}

// ---- One frame
// -----------------------------------------------------------------------------------

// The core does not throw across its API; should anything still escape, the page logs it and
// keeps running with what it last showed instead of leaving a dead canvas.
template <class Action>
bool Guarded(const char* what, Action&& action) {
  try {
    action();
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trainmem: %s failed: %s\n", what, e.what());
  } catch (...) {
    std::fprintf(stderr, "trainmem: %s failed\n", what);
  }
  return false;
}

void Present(const Runtime& rt) {
  int width = 0, height = 0;
  glfwGetFramebufferSize(rt.window, &width, &height);
  glViewport(0, 0, width, height);
  const ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  glClearColor(background.x, background.y, background.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glfwSwapBuffers(rt.window);
}

// What the frame asked for: more frames, a delayed wake-up, a new cursor, the first-frame mark.
void AfterFrame(Runtime& rt) {
  const ImGuiIO& io = ImGui::GetIO();
  app::FlushShareState(rt.state, ImGui::IsAnyMouseDown(),
                       io.WantTextInput ? ImGui::GetActiveID() : 0);
  app::PublishLinkErrors(rt.state);
  app::PublishExplorerMirror(rt.state);
  if (!rt.first_frame_marked) {
    rt.first_frame_marked = true;
    platform::MarkFirstFrame();
  }
  if (rt.state.frames_requested > 0) Wake(rt.state.frames_requested);
  rt.state.frames_requested = 0;
  if (rt.state.wake_after_seconds > 0) platform::RequestWakeAfter(rt.state.wake_after_seconds);
  rt.state.wake_after_seconds = 0;
  if (app::TakeCardLayoutChanged()) Wake(2);
  if (app::HasQueuedKeys()) Wake(2);
  if (rt.keyboard_shown && !ImGui::GetIO().WantTextInput) {
    rt.keyboard_shown = false;
    platform::HideKeyboard();
  }
  const ImGuiMouseCursor cursor = ImGui::GetMouseCursor();
  if (cursor != rt.cursor) {
    rt.cursor = cursor;
    platform::SetCursor(CssCursor(cursor));
  }
}

void Frame() {
  Runtime& rt = GetRuntime();
  if (rt.frames_left <= 0) {
    Pause();
    return;
  }
  --rt.frames_left;
  SyncCanvas(rt);
  glfwPollEvents();
  app::ApplyQueuedKeys();
  app::TabNavigationBeforeNewFrame();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  app::EnterActivatesBeforeNewFrame();
  ImGui::NewFrame();
  app::TabNavigationAfterNewFrame();
  HandleHistoryKeys(rt);
  if (!Guarded("drawing", [&rt] { app::DrawApp(rt.state); }))
    ImGui::ErrorCheckEndFrameRecover(nullptr);
  ImGui::Render();
  Present(rt);
  AfterFrame(rt);
}

// ---- Start-up
// ------------------------------------------------------------------------------------

bool CreateWindow(Runtime& rt) {
  if (!glfwInit()) return false;
  platform::DetachGamepadListeners();
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  const platform::CanvasSize css = platform::GetCanvasSize();
  const int width = std::max(1, static_cast<int>(css.css_width * css.device_pixel_ratio));
  const int height = std::max(1, static_cast<int>(css.css_height * css.device_pixel_ratio));
  rt.window = glfwCreateWindow(width, height, "trainmem", nullptr, nullptr);
  if (rt.window == nullptr) return false;
  glfwMakeContextCurrent(rt.window);
  InstallWakeCallbacks(rt.window);
  return true;
}

void InitImGui(Runtime& rt) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard | ImGuiConfigFlags_NoMouseCursorChange;
  io.ConfigInputTextCursorBlink = false;  // a blinking caret would need frames while idle
  ImGui_ImplGlfw_InitForOpenGL(rt.window, true);
  app::InstallTabNavigation();
  ImGui_ImplOpenGL3_Init("#version 300 es");
  SyncCanvas(rt);  // fonts and style for the current DPR, before the first frame
  rt.gpu_ready = ImGui_ImplOpenGL3_CreateDeviceObjects();
  // The browser clipboard, not GLFW's (a no-op under Emscripten).
  io.SetClipboardTextFn = [](void*, const char* text) { platform::CopyText(text); };
  io.GetClipboardTextFn = [](void*) -> const char* {
    static std::string pasted;
    pasted = platform::LastPastedText();
    return pasted.c_str();
  };
}

void ConnectPlatform(Runtime& rt) {
  platform::SetOnWake([] { Wake(kFramesPerEvent); });
  platform::SetOnFragmentChange(
      [&rt](const std::string& fragment) { app::LoadFragment(rt.state, fragment); });
  platform::SetOnFiles([&rt](std::vector<platform::File> files) {
    app::ReceiveFiles(rt.state, std::move(files));
    Wake(kFramesPerEvent);
  });
  // Wheel and touch deltas arrive in CSS pixels; ImGui works in device pixels.
  platform::SetOnScroll([&rt](double x, double y, double dx, double dy) {
    const float ratio = rt.device_pixel_ratio > 0 ? rt.device_pixel_ratio : 1.0f;
    const bool moved =
        app::ScrollAt(ImVec2(static_cast<float>(x) * ratio, static_cast<float>(y) * ratio),
                      ImVec2(static_cast<float>(dx) * ratio, static_cast<float>(dy) * ratio));
    if (moved) Wake(kFramesPerEvent);
    return moved;
  });
  // A tap's press was just delivered: draw the frame that reacts to it now, inside the touch
  // handler, so the browser lets the page focus its hidden input (a phone's keyboard).
  platform::SetOnTap([&rt] {
    Wake(kFramesPerEvent);
    Frame();
    const int wanted = app::TextInputWanted();
    rt.keyboard_shown = wanted != 0;
    return wanted;
  });
  platform::SetOnTypedText(
      [](const std::string& chars) {
        ImGui::GetIO().AddInputCharactersUTF8(chars.c_str());
        Wake(kFramesPerEvent);
      },
      [](const std::string& key) {
        if (key == "Backspace") app::QueueKeyPress(GLFW_KEY_BACKSPACE);
        if (key == "Enter") app::QueueKeyPress(GLFW_KEY_ENTER);
        Wake(kFramesPerEvent);
      });
}

}  // namespace

int main() {
  Runtime& rt = GetRuntime();
  Guarded("start-up", [&rt] { app::InitAppState(rt.state); });
  if (!CreateWindow(rt)) return 1;
  InitImGui(rt);
  ConnectPlatform(rt);
  Wake(kFramesPerEvent);
  platform::RunMainLoop(
      Frame, [&rt] { return glfwWindowShouldClose(rt.window) != 0; }, [] { glfwWaitEvents(); });
  return 0;
}
