// [SECTION] index
//   JS → C++ dispatch (tm_platform_dispatch)
//   JS side: listeners, URL, clipboard, downloads, storage, canvas, presets, DOM mirror,
//            link errors, explorer mirror, GLFW's gamepad listeners
//   platform.h on top of the JS side
//
// Browser implementation of platform.h. Every EM_JS body writes DOM properties with bracket
// syntax (window['firstFrameMs']) so a Closure-compiled build keeps the names the page and the
// tests read. Nothing from the URL or the clipboard is ever written as HTML: only textContent,
// setAttribute and history.replaceState.
//
// JS → C++: the browser calls tm_platform_dispatch(channel, a, b); strings are copied into the
// wasm heap for the duration of the call only.
#ifdef __EMSCRIPTEN__

#include <emscripten.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "platform/platform.h"

namespace {

enum Channel {
  kFragmentChange = 1,
  kWake = 2,
  kClipboardRead = 3,
  kPresetFile = 4,
  kPresetFailure = 5,
  kPresetsDone = 6
};

std::function<void(const std::string&)> g_on_fragment_change;
std::function<void()> g_on_wake;
std::function<void(const std::string&)> g_on_clipboard_read;
std::function<void(const platform::PresetFiles&, const std::vector<std::string>&)> g_on_presets;
platform::PresetFiles g_preset_files;
std::vector<std::string> g_preset_failures;

// Takes ownership of a string the JS side allocated with allocateUTF8 (null = absent).
std::optional<std::string> TakeJsString(char* text) {
  if (text == nullptr) return std::nullopt;
  std::string result(text);
  std::free(text);
  return result;
}

}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE void tm_platform_dispatch(int channel, const char* a,
                                                          const char* b) {
  const std::string first = a ? a : "";
  switch (channel) {
    case kFragmentChange:
      if (g_on_fragment_change) g_on_fragment_change(first);
      break;
    case kWake:
      if (g_on_wake) g_on_wake();
      break;
    case kClipboardRead:
      if (g_on_clipboard_read) g_on_clipboard_read(first);
      break;
    case kPresetFile:
      g_preset_files.emplace_back(first, b ? b : "");
      break;
    case kPresetFailure:
      g_preset_failures.push_back(first);
      break;
    case kPresetsDone:
      if (g_on_presets) g_on_presets(g_preset_files, g_preset_failures);
      g_preset_files.clear();
      g_preset_failures.clear();
      break;
    default:
      break;
  }
  // Whatever arrived changed what the page shows: let the main loop draw again.
  if (channel != kWake && g_on_wake) g_on_wake();
}

// A fetched binary file: the bytes were copied into a malloc'd buffer that C++ now owns.
std::function<void(std::vector<unsigned char>)> g_on_binary;

extern "C" EMSCRIPTEN_KEEPALIVE void tm_platform_binary(unsigned char* data, int size) {
  std::vector<unsigned char> bytes;
  if (data != nullptr && size > 0) bytes.assign(data, data + size);
  std::free(data);
  auto callback = std::move(g_on_binary);
  g_on_binary = nullptr;
  if (callback) callback(std::move(bytes));
  if (g_on_wake) g_on_wake();
}

// ---- JS side ---------------------------------------------------------------------------------

// Calls into C++ with up to two strings; used by every listener below.
// clang-format off
EM_JS(void, tm_js_install, (), {
  var send = function(channel, a, b) {
    var pa = (a === null || a === undefined) ? 0 : allocateUTF8(String(a));
    var pb = (b === null || b === undefined) ? 0 : allocateUTF8(String(b));
    _tm_platform_dispatch(channel, pa, pb);
    if (pa) _free(pa);
    if (pb) _free(pb);
  };
  Module['tmSend'] = send;
  Module['tmPasted'] = "";
  var wake = function() { send(2, null, null); };
  window.addEventListener('hashchange', function() { send(1, window.location.hash.replace(/^#/, ""), null); });
  window.addEventListener('resize', wake);
  window.addEventListener('focus', wake);
  window.addEventListener('pageshow', wake);
  document.addEventListener('visibilitychange', wake);
  window.addEventListener('paste', function(e) {
    var data = e['clipboardData'];
    Module['tmPasted'] = data ? data['getData']('text/plain') : "";
    wake();
  });
  // devicePixelRatio changes (browser zoom, moving to another screen) fire no resize on some
  // browsers: watch the resolution media query and re-arm it for the new ratio each time.
  var watchDpr = function() {
    var query = window.matchMedia('(resolution: ' + window.devicePixelRatio + 'dppx)');
    var onChange = function() { query.removeEventListener('change', onChange); watchDpr(); wake(); };
    query.addEventListener('change', onChange);
  };
  watchDpr();
});
// clang-format on

// clang-format off
EM_JS(char*, tm_js_get_fragment, (), {
  return allocateUTF8(window.location.hash.replace(/^#/, ""));
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_replace_fragment, (const char* fragment), {
  var text = UTF8ToString(fragment);
  var base = window.location.pathname + window.location.search;
  window.history.replaceState(window.history.state, "", text.length ? base + '#' + text : base);
});
// clang-format on

// clang-format off
EM_JS(char*, tm_js_page_base_url, (), {
  return allocateUTF8(window.location.origin + window.location.pathname + window.location.search);
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_copy_text, (const char* text_ptr), {
  var text = UTF8ToString(text_ptr);
  var fallback = function() {
    // Non-secure origins have no navigator.clipboard: a temporary textarea and execCommand.
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', "");
    area.className = 'offscreen';
    document.body.appendChild(area);
    area.select();
    try { document.execCommand('copy'); } catch (e) {}
    document.body.removeChild(area);
  };
  var clipboard = navigator['clipboard'];
  if (clipboard && clipboard['writeText']) {
    clipboard['writeText'](text).catch(fallback);
  } else {
    fallback();
  }
});
// clang-format on

// clang-format off
EM_JS(char*, tm_js_last_pasted, (), {
  return allocateUTF8(Module['tmPasted'] || "");
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_read_clipboard, (), {
  var clipboard = navigator['clipboard'];
  if (!clipboard || !clipboard['readText']) { Module['tmSend'](3, "", null); return; }
  clipboard['readText']().then(function(text) { Module['tmSend'](3, text, null); },
                               function() { Module['tmSend'](3, "", null); });
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_download, (const char* name_ptr, const char* mime_ptr, const char* text_ptr), {
  var blob = new Blob([UTF8ToString(text_ptr)], {type: UTF8ToString(mime_ptr)});
  var url = URL.createObjectURL(blob);
  var link = document.createElement('a');
  link.href = url;
  link.download = UTF8ToString(name_ptr);
  document.body.appendChild(link);
  link.click();
  document.body.removeChild(link);
  setTimeout(function() { URL.revokeObjectURL(url); }, 1000);
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_open_tab, (const char* url_ptr), {
  window.open(UTF8ToString(url_ptr), '_blank', 'noopener');
});
// clang-format on

// clang-format off
EM_JS(char*, tm_js_storage_get, (const char* key_ptr), {
  try {
    var value = window.localStorage.getItem(UTF8ToString(key_ptr));
    return value === null ? 0 : allocateUTF8(value);
  } catch (e) {
    return 0;  // storage disabled (private mode, sandboxed iframe)
  }
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_storage_set, (const char* key_ptr, const char* value_ptr), {
  try { window.localStorage.setItem(UTF8ToString(key_ptr), UTF8ToString(value_ptr)); } catch (e) {}
});
// clang-format on

// clang-format off
EM_JS(double, tm_js_canvas_css_width, (), {
  return Module['canvas'].getBoundingClientRect().width;
});
// clang-format on
// clang-format off
EM_JS(double, tm_js_canvas_css_height, (), {
  return Module['canvas'].getBoundingClientRect().height;
});
// clang-format on
// clang-format off
EM_JS(double, tm_js_device_pixel_ratio, (), {
  return window.devicePixelRatio || 1;
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_resize_canvas, (int width, int height), {
  Browser.setCanvasSize(width, height);
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_set_cursor, (const char* cursor_ptr), {
  Module['canvas'].style.cursor = UTF8ToString(cursor_ptr);
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_wake_after, (double milliseconds), {
  setTimeout(function() { Module['tmSend'](2, null, null); }, milliseconds);
});
// clang-format on

// presets/index.json lists file paths relative to presets/; only same-origin relative paths
// made of safe characters are fetched.
// clang-format off
EM_JS(void, tm_js_fetch_presets, (), {
  var send = Module['tmSend'];
  var safe = /^(models|devices)[/][A-Za-z0-9_-][A-Za-z0-9._-]*[.]json$/;
  fetch('presets/index.json', {credentials: 'same-origin'})
    .then(function(r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(function(index) {
      var paths = [].concat(index['models'] || [], index['devices'] || []).filter(function(p) {
        var ok = typeof p === 'string' && safe.test(p);
        if (!ok) send(5, 'presets/index.json: ignored entry ' + String(p), null);
        return ok;
      });
      return Promise.all(paths.map(function(path) {
        return fetch('presets/' + path, {credentials: 'same-origin'})
          .then(function(r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.text(); })
          .then(function(text) { send(4, 'presets/' + path, text); },
                function(e) { send(5, 'presets/' + path + ': ' + e.message, null); });
      }));
    })
    .catch(function(e) { send(5, 'presets/index.json: ' + e.message, null); })
    .then(function() { send(6, null, null); });
});
// clang-format on

// clang-format off
EM_JS(char*, tm_js_browser_language, (), {
  var lang = (navigator.languages && navigator.languages[0]) || navigator.language || "";
  return allocateUTF8(String(lang));
});
EM_JS(void, tm_js_set_document_language, (const char* lang_ptr), {
  document.documentElement.setAttribute('lang', UTF8ToString(lang_ptr));
});
EM_JS(void, tm_js_fetch_binary, (const char* path_ptr), {
  var path = UTF8ToString(path_ptr);
  var deliver = function(bytes) {
    var ptr = bytes.length ? _malloc(bytes.length) : 0;
    if (ptr) HEAPU8.set(bytes, ptr);
    _tm_platform_binary(ptr, ptr ? bytes.length : 0);
  };
  fetch(path, {credentials: 'same-origin'})
    .then(function(r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.arrayBuffer(); })
    .then(function(buffer) { deliver(new Uint8Array(buffer)); },
          function(e) { console.warn('trainmem: ' + path + ': ' + e.message); deliver(new Uint8Array(0)); });
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_set_result_mirror, (const char* json_ptr, const char* summary_ptr), {
  var output = document.getElementById('result');
  if (output) output.setAttribute('data-json', UTF8ToString(json_ptr));
  var summary = document.getElementById('summary');
  if (summary) summary.textContent = UTF8ToString(summary_ptr);
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_set_title, (const char* title_ptr), {
  document.title = UTF8ToString(title_ptr);
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_mark_first_frame, (), {
  var status = document.getElementById('status');
  if (status) {
    status.textContent = 'ready';
    status.setAttribute('data-state', 'ready');
  }
  window['firstFrameMs'] = performance.now();
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_set_link_errors, (const char* text_ptr, int count), {
  var text = UTF8ToString(text_ptr);
  var box = document.getElementById('link-errors');
  if (box) {
    box.textContent = text;
    if (count > 0) box.removeAttribute('hidden'); else box.setAttribute('hidden', "");
  }
  var status = document.getElementById('status');
  if (status) {
    if (count > 0) status.setAttribute('data-link-errors', String(count));
    else status.removeAttribute('data-link-errors');
  }
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_set_explorer_mirror, (const char* json_ptr), {
  var output = document.getElementById('explorer');
  if (output) output.setAttribute('data-json', UTF8ToString(json_ptr));
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_set_measured_mirror, (const char* json_ptr), {
  var output = document.getElementById('measured');
  if (!output) {
    output = document.createElement('output');
    output.id = 'measured';
    output.className = 'offscreen';
    output.setAttribute('for', 'canvas');
    document.body.appendChild(output);
  }
  output.setAttribute('data-json', UTF8ToString(json_ptr));
});
// clang-format on

// library_glfw.js's glfwInit registers window 'gamepadconnected'/'gamepaddisconnected'
// listeners; with them Chromium runs its gamepad polling thread (2–3 % of a core on an idle
// page). The page never reads a gamepad (ImGui's gamepad navigation is off), so they go.
// GLFW's handlers are reachable as GLFW.onGamepad*: EM_JS code shares library_glfw.js's scope.
// clang-format off
EM_JS(void, tm_js_detach_gamepad_listeners, (), {
  if (typeof GLFW === 'undefined') return;
  window.removeEventListener('gamepadconnected', GLFW.onGamepadConnected, true);
  window.removeEventListener('gamepaddisconnected', GLFW.onGamepadDisconnected, true);
});
// clang-format on

// ---- platform.h ------------------------------------------------------------------------------

namespace platform {
namespace {
void EnsureInstalled() {
  static bool installed = false;
  if (!installed) {
    installed = true;
    tm_js_install();
  }
}
}  // namespace

std::string GetUrlFragment() { return TakeJsString(tm_js_get_fragment()).value_or(""); }
void ReplaceUrlFragment(const std::string& fragment) { tm_js_replace_fragment(fragment.c_str()); }
std::string PageBaseUrl() { return TakeJsString(tm_js_page_base_url()).value_or(""); }
void SetOnFragmentChange(std::function<void(const std::string&)> callback) {
  EnsureInstalled();
  g_on_fragment_change = std::move(callback);
}

void CopyText(const std::string& text) { tm_js_copy_text(text.c_str()); }
std::string LastPastedText() { return TakeJsString(tm_js_last_pasted()).value_or(""); }
void ReadClipboard(std::function<void(const std::string&)> callback) {
  EnsureInstalled();
  g_on_clipboard_read = std::move(callback);
  tm_js_read_clipboard();
}
void DownloadText(const std::string& file_name, const std::string& mime, const std::string& text) {
  tm_js_download(file_name.c_str(), mime.c_str(), text.c_str());
}
void OpenInNewTab(const std::string& url) { tm_js_open_tab(url.c_str()); }

std::optional<std::string> StorageGet(const std::string& key) {
  return TakeJsString(tm_js_storage_get(key.c_str()));
}
void StorageSet(const std::string& key, const std::string& value) {
  tm_js_storage_set(key.c_str(), value.c_str());
}

CanvasSize GetCanvasSize() {
  return {tm_js_canvas_css_width(), tm_js_canvas_css_height(), tm_js_device_pixel_ratio()};
}
void SetOnWake(std::function<void()> callback) {
  EnsureInstalled();
  g_on_wake = std::move(callback);
}
void ResizeCanvas(int width, int height) { tm_js_resize_canvas(width, height); }
void SetCursor(const char* css_cursor) { tm_js_set_cursor(css_cursor); }
void RequestWakeAfter(double seconds) {
  EnsureInstalled();
  tm_js_wake_after(seconds * 1000.0);
}

void FetchPresetFiles(
    std::function<void(const PresetFiles&, const std::vector<std::string>&)> callback) {
  EnsureInstalled();
  g_on_presets = std::move(callback);
  tm_js_fetch_presets();
}

void SetResultMirror(const std::string& estimate_json, const std::string& summary) {
  tm_js_set_result_mirror(estimate_json.c_str(), summary.c_str());
}
void SetDocumentTitle(const std::string& title) { tm_js_set_title(title.c_str()); }
void MarkFirstFrame() { tm_js_mark_first_frame(); }
void SetLinkErrors(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += (text.empty() ? "" : "\n") + line;
  tm_js_set_link_errors(text.c_str(), static_cast<int>(lines.size()));
}
void SetExplorerMirror(const std::string& json) { tm_js_set_explorer_mirror(json.c_str()); }
void SetMeasuredMirror(const std::string& json) { tm_js_set_measured_mirror(json.c_str()); }
void DetachGamepadListeners() { tm_js_detach_gamepad_listeners(); }
std::string BrowserLanguage() { return TakeJsString(tm_js_browser_language()).value_or(""); }
void SetDocumentLanguage(const std::string& lang) { tm_js_set_document_language(lang.c_str()); }
void FetchBinary(const std::string& path,
                 std::function<void(std::vector<unsigned char>)> callback) {
  g_on_binary = std::move(callback);
  tm_js_fetch_binary(path.c_str());
}

}  // namespace platform

#endif  // __EMSCRIPTEN__
