// Native stand-in for platform.h: an in-memory URL fragment, clipboard and storage, a fixed
// canvas and no history. It lets the app code
// compile and run under a desktop GLFW or in tests without a browser.
#ifndef __EMSCRIPTEN__

#include <cstdio>
#include <map>

#include "platform/platform.h"

namespace platform {
namespace {
std::string g_fragment;
std::string g_clipboard;
std::map<std::string, std::string> g_storage;
bool g_main_loop_paused = false;
}  // namespace

void RunMainLoop(void (*frame)(), const std::function<bool()>& done,
                 const std::function<void()>& wait_for_events) {
  while (!done()) {
    if (g_main_loop_paused) wait_for_events();
    frame();
  }
}
void PauseMainLoop() { g_main_loop_paused = true; }
void ResumeMainLoop() { g_main_loop_paused = false; }

std::string GetUrlFragment() { return g_fragment; }
void ReplaceUrlFragment(const std::string& fragment) { g_fragment = fragment; }
void PushUrlFragment(const std::string& fragment) { g_fragment = fragment; }
void HistoryStep(int) {}
std::string PageBaseUrl() { return "index.html"; }
void SetOnFragmentChange(std::function<void(const std::string&)>) {}

void CopyText(const std::string& text) { g_clipboard = text; }
std::string LastPastedText() { return g_clipboard; }
void ReadClipboard(std::function<void(const std::string&)> callback) {
  if (callback) callback(g_clipboard);
}
void DownloadText(const std::string& file_name, const std::string&, const std::string& text) {
  if (std::FILE* file = std::fopen(file_name.c_str(), "wb")) {
    std::fwrite(text.data(), 1, text.size(), file);
    std::fclose(file);
  }
}
void OpenInNewTab(const std::string&) {}

std::optional<std::string> StorageGet(const std::string& key) {
  auto it = g_storage.find(key);
  if (it == g_storage.end()) return std::nullopt;
  return it->second;
}
void StorageSet(const std::string& key, const std::string& value) { g_storage[key] = value; }

CanvasSize GetCanvasSize() { return {1280, 800, 1}; }
void SetOnWake(std::function<void()>) {}
void ResizeCanvas(int, int) {}  // the desktop window is the OS's to size
void SetCursor(const char*) {}
void RequestWakeAfter(double) {}
void DetachGamepadListeners() {}

bool PrefersDarkColorScheme() { return false; }

// A desktop GLFW delivers wheel and touch natively (ImGui's own handling), with a hardware
// keyboard: nothing to install.
void SetOnScroll(std::function<bool(double, double, double, double)>) {}
void SetOnTap(std::function<int()>) {}
void SetOnTypedText(std::function<void(const std::string&)>,
                    std::function<void(const std::string&)>) {}
void HideKeyboard() {}

void SetResultMirror(const std::string&, const std::string&) {}
void SetResultText(const std::string&) {}
void SetDocumentTitle(const std::string&) {}
void MarkFirstFrame() {}
void SetLinkErrors(const std::vector<std::string>&) {}
void SetExplorerMirror(const std::string&) {}
void SetMeasuredMirror(const std::string&) {}
std::string BrowserLanguage() { return ""; }
void SetDocumentLanguage(const std::string&) {}
void FetchBinary(const std::string&, std::function<void(std::vector<unsigned char>)> callback) {
  if (callback) callback({});  // no site to fetch from
}

}  // namespace platform

#endif  // !__EMSCRIPTEN__
