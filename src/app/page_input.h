// Input the browser delivers outside GLFW (src/platform): wheel and touch scrolling in pixels,
// taps that may want the on-screen keyboard, keys typed on it, and Tab moving through every
// control. Positions and deltas are in ImGui's pixels (device pixels, see main.cpp).
#pragma once

#include <imgui.h>

namespace app {

// Scrolls the window under `pos` by `delta` (positive = towards the end). When that window
// cannot move that way (no scrollbar, or already at its end) its parent scrolls instead, up to
// the page window. Returns true when something moved. Several calls between two frames add up.
bool ScrollAt(ImVec2 pos, ImVec2 delta);

// What the focused widget wants typed: 0 nothing, 1 text, 2 a number (InputScalar fields).
int TextInputWanted();

// Keys typed on a phone's keyboard (GLFW key codes): each is pressed for one frame and released
// the next, in order, by ApplyQueuedKeys (before ImGui::NewFrame).
void QueueKeyPress(int glfw_key);
void ApplyQueuedKeys();
bool HasQueuedKeys();

// Tab and Shift+Tab move through every control (buttons, checkboxes, combos, tabs and fields),
// in the order they were drawn; Dear ImGui 1.86's own Tab reaches only text fields and
// sliders. InstallTabNavigation after ImGui_ImplGlfw_InitForOpenGL; then each frame
// TabNavigationBeforeNewFrame (takes the Tab press away from ImGui's own handling) and
// TabNavigationAfterNewFrame (submits the move over every item).
void InstallTabNavigation();
void TabNavigationBeforeNewFrame();
void TabNavigationAfterNewFrame();
// Enter presses the focused button, combo or item as Space does (after ImGui_ImplGlfw_NewFrame,
// which clears io.NavInputs, and before ImGui::NewFrame).
void EnterActivatesBeforeNewFrame();
// A keyboard focus is shown on an item that is not a text being typed into: the keys that move
// and press it must not also scroll the browser's page (platform::SetKeyboardNavActive).
bool KeyboardNavVisible();

// The keyboard focus (the item Tab or the arrows reached, or the field being typed into), for
// the #explorer mirror; false when nothing shows a focus.
bool NavFocusRect(ImVec2* min, ImVec2* max);

}  // namespace app
