// files.h in the browser: web/files.js collects dropped, pasted and picked files into
// window['tmFilesQueue'] and calls window['tmFilesSink'] when one is installed; the sink copies
// each file's bytes into wasm memory (no text decoding) and hands them to C++.
#ifdef __EMSCRIPTEN__

#include <emscripten.h>

#include <cstdlib>

#include "platform/files.h"

namespace {

std::function<void(std::vector<platform::File>)> g_on_files;
std::vector<platform::File> g_batch;

}  // namespace

extern "C" {

// One file of a batch; `name` is UTF-8, `data` raw bytes (both malloc'd by JS, freed here).
EMSCRIPTEN_KEEPALIVE void tm_files_add(char* name, unsigned char* data, int size) {
  platform::File f;
  f.name = name ? name : "";
  if (data != nullptr && size > 0) f.text.assign(reinterpret_cast<char*>(data), size);
  std::free(name);
  std::free(data);
  g_batch.push_back(std::move(f));
}

EMSCRIPTEN_KEEPALIVE void tm_files_done() {
  std::vector<platform::File> batch;
  batch.swap(g_batch);
  if (g_on_files && !batch.empty()) g_on_files(std::move(batch));
}

}  // extern "C"

// clang-format off
EM_JS(void, tm_js_files_install, (), {
  var deliver = function(files) {
    for (var i = 0; i < files.length; i++) {
      var f = files[i];
      var bytes = f['bytes'];
      var name = allocateUTF8(String(f['name']));
      var data = bytes.length ? _malloc(bytes.length) : 0;
      if (data) HEAPU8.set(bytes, data);
      _tm_files_add(name, data, bytes.length);
    }
    _tm_files_done();
  };
  window['tmFilesSink'] = deliver;
  var queued = window['tmFilesQueue'] || [];
  window['tmFilesQueue'] = [];
  if (queued.length) deliver(queued);
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_open_picker, (), {
  if (window['tmOpenFilePicker']) window['tmOpenFilePicker']();
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_text_input_active, (int active), {
  // While a text field has the keyboard, the document must not scroll under it: the browser
  // scrolls on Space, PageUp/PageDown and the arrows, and blocking the keydown would also drop
  // the character the field reads from keypress. style.css: html.typing { overflow: hidden }.
  if (window['tmTextInputActive'] !== !!active)
    document.documentElement.classList.toggle('typing', !!active);
  window['tmTextInputActive'] = !!active;
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_keyboard_nav_active, (int active), {
  // Installed once: the keys that move and press the canvas's focused item would also scroll
  // the document (the canvas is one tall page) or submit nothing; GLFW still receives them
  // (preventDefault stops only the browser's default action).
  if (!window['tmNavKeysInstalled']) {
    window['tmNavKeysInstalled'] = true;
    var keys = {' ': 1, 'Enter': 1, 'ArrowUp': 1, 'ArrowDown': 1, 'ArrowLeft': 1, 'ArrowRight': 1,
                'PageUp': 1, 'PageDown': 1, 'Home': 1, 'End': 1};
    window.addEventListener('keydown', function(e) {
      if (!window['tmKeyboardNavActive'] || e.ctrlKey || e.metaKey || e.altKey) return;
      if (keys[e.key]) e.preventDefault();
    }, true);
  }
  window['tmKeyboardNavActive'] = !!active;
});
// clang-format on

namespace platform {

void SetOnFiles(std::function<void(std::vector<File>)> callback) {
  g_on_files = std::move(callback);
  tm_js_files_install();
}

void OpenFilePicker() { tm_js_open_picker(); }

void SetKeyboardNavActive(bool active) {
  static int last = -1;
  if (last == static_cast<int>(active)) return;
  last = static_cast<int>(active);
  tm_js_keyboard_nav_active(active ? 1 : 0);
}

void SetTextInputActive(bool active) {
  static int last = -1;
  if (last == static_cast<int>(active)) return;
  last = static_cast<int>(active);
  tm_js_text_input_active(active ? 1 : 0);
}

}  // namespace platform

#endif  // __EMSCRIPTEN__
