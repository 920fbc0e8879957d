#include "app/page_input.h"

#include <GLFW/glfw3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <deque>
#include <iterator>

namespace app {
namespace {

// The window ImGui would call hovered at `pos`, as its FindHoveredWindow does (imgui.cpp,
// 1.86): the last active window in display order whose clipped rectangle holds the point.
// Between frames the windows keep the Active flag of the frame just drawn.
ImGuiWindow* WindowAt(ImVec2 pos) {
  ImGuiContext& g = *GImGui;
  for (int i = g.Windows.Size - 1; i >= 0; --i) {
    ImGuiWindow* window = g.Windows[i];
    if (!window->Active || window->Hidden || (window->Flags & ImGuiWindowFlags_NoMouseInputs))
      continue;
    if (window->OuterRectClipped.Contains(pos)) return window;
  }
  return nullptr;
}

// Moves `window` along one axis by `delta`; returns true when it moved. A scroll requested
// earlier in the same gap between frames (SetScrollX/Y sets ScrollTarget, applied at the
// window's next Begin) is the base, so several wheel events add up.
bool ScrollAxis(ImGuiWindow* window, int axis, float delta) {
  const float max = window->ScrollMax[axis];
  if (max <= 0.0f || delta == 0.0f) return false;
  const bool pending =
      window->ScrollTarget[axis] < FLT_MAX && window->ScrollTargetCenterRatio[axis] == 0.0f;
  const float from = pending ? window->ScrollTarget[axis] : window->Scroll[axis];
  const float to = std::clamp(from + delta, 0.0f, max);
  if (to == from) return false;
  if (axis == 0)
    ImGui::SetScrollX(window, to);
  else
    ImGui::SetScrollY(window, to);
  return true;
}

bool ScrollChain(ImGuiWindow* window, int axis, float delta) {
  for (; window != nullptr; window = window->ParentWindow) {
    // Cards and other fixed regions opt out (as ImGui's own wheel handling lets them).
    const bool opted_out = (window->Flags & ImGuiWindowFlags_NoScrollWithMouse) != 0;
    if (!opted_out && ScrollAxis(window, axis, delta)) return true;
    if (!(window->Flags & ImGuiWindowFlags_ChildWindow)) break;  // popups do not scroll the page
  }
  return false;
}

std::deque<int>& KeyQueue() {
  static std::deque<int> queue;
  return queue;
}
int g_key_down = -1;  // the queued key pressed in the last frame, released in this one

int g_tab_presses = 0;  // +1 per Tab, -1 per Shift+Tab, since the last frame

// Keys ImGui 1.86 reads as the state at each frame (io.KeysDown): the ones navigation and text
// editing use. A press released before the next frame (a quick keystroke; the main loop sleeps
// between input events) would never be seen, so it is queued as a one-frame press.
constexpr int kLatchedKeys[] = {
    GLFW_KEY_SPACE, GLFW_KEY_ENTER, GLFW_KEY_KP_ENTER,  GLFW_KEY_UP,      GLFW_KEY_DOWN,
    GLFW_KEY_LEFT,  GLFW_KEY_RIGHT, GLFW_KEY_ESCAPE,    GLFW_KEY_PAGE_UP, GLFW_KEY_PAGE_DOWN,
    GLFW_KEY_HOME,  GLFW_KEY_END,   GLFW_KEY_BACKSPACE, GLFW_KEY_DELETE};
bool g_pressed_since_frame[GLFW_KEY_LAST + 1] = {};

bool Latched(int key) {
  return std::find(std::begin(kLatchedKeys), std::end(kLatchedKeys), key) != std::end(kLatchedKeys);
}

void OnTabKey(GLFWwindow* window, int key, int scancode, int action, int mods);
GLFWkeyfun g_previous_key_callback = nullptr;

void OnTabKey(GLFWwindow* window, int key, int scancode, int action, int mods) {
  if (g_previous_key_callback) g_previous_key_callback(window, key, scancode, action, mods);
  if (key == GLFW_KEY_TAB && action != GLFW_RELEASE && !(mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT)))
    g_tab_presses += (mods & GLFW_MOD_SHIFT) ? -1 : 1;
  if (key < 0 || key > GLFW_KEY_LAST || !Latched(key) ||
      (mods & (GLFW_MOD_CONTROL | GLFW_MOD_SUPER)))
    return;
  if (action == GLFW_PRESS) g_pressed_since_frame[key] = true;
  if (action == GLFW_RELEASE && g_pressed_since_frame[key]) {
    g_pressed_since_frame[key] = false;
    QueueKeyPress(key);  // pressed and released unseen: one frame down, the next up
  }
}

}  // namespace

bool ScrollAt(ImVec2 pos, ImVec2 delta) {
  if (GImGui == nullptr) return false;
  ImGuiWindow* window = WindowAt(pos);
  const bool moved_x = ScrollChain(window, 0, delta.x);
  const bool moved_y = ScrollChain(window, 1, delta.y);
  return moved_x || moved_y;
}

int TextInputWanted() {
  ImGuiContext& g = *GImGui;
  // io.WantTextInput follows one frame late; the text state is the field's from its first frame.
  const bool typing = g.ActiveId != 0 && g.InputTextState.ID == g.ActiveId;
  if (!typing && !g.IO.WantTextInput) return 0;
  // The field's flags (CharsDecimal for InputScalar) live only while the widget runs, so a
  // field holding a number is taken for a number field.
  if (g.InputTextState.ID != g.ActiveId) return 1;
  bool digit = false;
  for (int i = 0; i < g.InputTextState.CurLenA && i < g.InputTextState.TextA.Size; ++i) {
    const char c = g.InputTextState.TextA[i];
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E' && c != ' ') {
      return 1;
    }
  }
  return digit ? 2 : 1;
}

void QueueKeyPress(int glfw_key) { KeyQueue().push_back(glfw_key); }
bool HasQueuedKeys() { return !KeyQueue().empty() || g_key_down >= 0; }

void ApplyQueuedKeys() {
  ImGuiIO& io = ImGui::GetIO();
  // This frame sees every key still down: only presses after it can be missed.
  std::fill(std::begin(g_pressed_since_frame), std::end(g_pressed_since_frame), false);
  if (g_key_down >= 0) {  // ImGui sees a press only if the key is down for a whole frame
    io.KeysDown[g_key_down] = false;
    g_key_down = -1;
    return;
  }
  if (KeyQueue().empty()) return;
  g_key_down = KeyQueue().front();
  KeyQueue().pop_front();
  io.KeysDown[g_key_down] = true;
}

// Chained after ImGui's GLFW key callback (installed by ImGui_ImplGlfw_InitForOpenGL), so the
// Tab press is seen here and its io.KeysDown entry cleared before ImGui's NewFrame.
void InstallTabNavigation() {
  GLFWwindow* window = glfwGetCurrentContext();
  if (window != nullptr) g_previous_key_callback = glfwSetKeyCallback(window, OnTabKey);
}

void TabNavigationBeforeNewFrame() { ImGui::GetIO().KeysDown[GLFW_KEY_TAB] = false; }

// Dear ImGui 1.86 maps Space to "activate" and Enter to "input" (text fields only): on a
// button, combo, checkbox or list item Enter does nothing, where a keyboard user presses it.
// Enter activates the focused item too, unless a text field is being typed into.
void EnterActivatesBeforeNewFrame() {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  if (io.KeysDown[GLFW_KEY_ENTER] || io.KeysDown[GLFW_KEY_KP_ENTER])
    io.NavInputs[ImGuiNavInput_Activate] = 1.0f;
}

bool KeyboardNavVisible() {
  ImGuiContext& g = *GImGui;
  return g.NavId != 0 && !g.NavDisableHighlight && !g.IO.WantTextInput;
}

// Submits the tabbing request ImGui makes for Tab (NavUpdateCreateTabbingRequest, imgui.cpp
// 1.86) with ImGuiNavMoveFlags_FocusApi added: with it every item is a candidate (the flag
// SetKeyboardFocusHere uses), not only ImGuiItemFlags_Inputable ones. Text fields are still
// activated for typing; other items get the navigation focus (Space/Enter press them). Called
// after NewFrame, so the items of the frame about to be drawn are scored and the result is
// applied at the next NewFrame.
void TabNavigationAfterNewFrame() {
  if (g_tab_presses == 0) return;
  const int direction = g_tab_presses > 0 ? +1 : -1;
  g_tab_presses = 0;
  ImGuiContext& g = *GImGui;
  if (g.NavWindow == nullptr) {
    ImGuiWindow* page = ImGui::FindWindowByName("trainmem");
    if (page == nullptr) return;
    ImGui::FocusWindow(page);
  }
  if (g.NavWindow == nullptr || g.NavMoveSubmitted) return;
  g.NavTabbingDir = direction < 0 ? -1 : (g.NavId == 0 ? 0 : +1);
  const ImGuiScrollFlags scroll =
      ImGuiScrollFlags_KeepVisibleEdgeX | ImGuiScrollFlags_KeepVisibleEdgeY;
  ImGui::NavMoveRequestSubmit(ImGuiDir_None, direction < 0 ? ImGuiDir_Up : ImGuiDir_Down,
                              ImGuiNavMoveFlags_Tabbing | ImGuiNavMoveFlags_FocusApi, scroll);
  g.NavTabbingResultFirst.Clear();
  g.NavTabbingCounter = -1;
}

bool NavFocusRect(ImVec2* min, ImVec2* max) {
  ImGuiContext& g = *GImGui;
  ImGuiWindow* window = g.NavWindow;
  if (g.NavId == 0 || window == nullptr || (g.NavDisableHighlight && g.ActiveId != g.NavId))
    return false;
  // WindowRectRelToAbs (imgui.cpp 1.86): nav rectangles are relative to CursorStartPos.
  const ImRect& rel = window->NavRectRel[g.NavLayer];
  const ImVec2 origin = window->DC.CursorStartPos;
  *min = ImVec2(rel.Min.x + origin.x, rel.Min.y + origin.y);
  *max = ImVec2(rel.Max.x + origin.x, rel.Max.y + origin.y);
  return true;
}

}  // namespace app
