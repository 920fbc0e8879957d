// [SECTION] index
//   JS → C++ dispatch (tm_platform_dispatch)
//   JS side: listeners, URL and history, clipboard, downloads, storage, canvas, wheel/touch/
//            on-screen keyboard, DOM mirror and results text, link errors, explorer mirror,
//            GLFW's gamepad listeners
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

enum Channel { kFragmentChange = 1, kWake = 2, kClipboardRead = 3, kTypedText = 4, kTypedKey = 5 };

std::function<void(const std::string&)> g_on_fragment_change;
std::function<void()> g_on_wake;
std::function<void(const std::string&)> g_on_clipboard_read;
std::function<bool(double, double, double, double)> g_on_scroll;
std::function<int()> g_on_tap;
std::function<void(const std::string&)> g_on_typed_text;
std::function<void(const std::string&)> g_on_typed_key;

// Takes ownership of a string the JS side allocated with allocateUTF8 (null = absent).
std::optional<std::string> TakeJsString(char* text) {
  if (text == nullptr) return std::nullopt;
  std::string result(text);
  std::free(text);
  return result;
}

}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE void tm_platform_dispatch(int channel, const char* a,
                                                          const char* /*second*/) {
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
    case kTypedText:
      if (g_on_typed_text) g_on_typed_text(first);
      break;
    case kTypedKey:
      if (g_on_typed_key) g_on_typed_key(first);
      break;
    default:
      break;
  }
  // Whatever arrived changed what the page shows: let the main loop draw again.
  if (channel != kWake && g_on_wake) g_on_wake();
}

// Synchronous: the wheel/touch handler must know at once whether the page scrolled, to decide
// whether the browser scrolls the document instead (preventDefault or not).
extern "C" EMSCRIPTEN_KEEPALIVE int tm_platform_scroll(double x, double y, double dx, double dy) {
  const bool moved = g_on_scroll && g_on_scroll(x, y, dx, dy);
  if (moved && g_on_wake) g_on_wake();
  return moved ? 1 : 0;
}

// Synchronous too: the hidden input must be focused inside the tap's own event handler, or a
// phone does not show its keyboard.
extern "C" EMSCRIPTEN_KEEPALIVE int tm_platform_tap() { return g_on_tap ? g_on_tap() : 0; }

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
  var fragmentChanged = function() { send(1, window.location.hash.replace(/^#/, ""), null); };
  window.addEventListener('hashchange', fragmentChanged);
  window.addEventListener('popstate', fragmentChanged);
  // The page's history entries are numbered (history.state.tm) so Ctrl+Z stops at the first.
  var state = window.history.state;
  Module['tmHistory'] = (state && typeof state['tm'] === 'number') ? state['tm'] : 0;
  window.addEventListener('popstate', function(e) {
    var s = e.state;
    if (s && typeof s['tm'] === 'number') {
      Module['tmHistory'] = s['tm'];
    } else {  // an entry the page did not make (a fragment typed into the address bar)
      Module['tmHistory'] = Module['tmHistory'] + 1;
      window.history.replaceState({'tm': Module['tmHistory']}, "", window.location.href);
    }
  });
  var dark = window.matchMedia('(prefers-color-scheme: dark)');
  Module['tmDark'] = dark.matches;
  dark.addEventListener('change', function() { Module['tmDark'] = dark.matches; wake(); });
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
  window.history.replaceState({'tm': Module['tmHistory'] || 0}, "", text.length ? base + '#' + text : base);
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_push_fragment, (const char* fragment), {
  var text = UTF8ToString(fragment);
  var base = window.location.pathname + window.location.search;
  Module['tmHistory'] = (Module['tmHistory'] || 0) + 1;
  window.history.pushState({'tm': Module['tmHistory']}, "", text.length ? base + '#' + text : base);
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_history_step, (int delta), {
  var step = Math.max(delta, -Module['tmHistory']);  // never back past the page's first entry
  if (step !== 0) window.history.go(step);
});
// clang-format on

// clang-format off
EM_JS(int, tm_js_prefers_dark, (), {
  return Module['tmDark'] ? 1 : 0;
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

// Wheel and touch, installed on window in the capture phase so they run before GLFW's own
// listeners on the canvas, which they stop (see platform.h for why).
// clang-format off
EM_JS(void, tm_js_install_input, (), {
  var canvas = Module['canvas'];
  var send = Module['tmSend'];
  var LINE_PX = 20;  // a wheel "line" (deltaMode 1, e.g. Firefox with a mouse) in CSS pixels
  var local = function(e) { var r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  var scroll = function(p, dx, dy) { return _tm_platform_scroll(p[0], p[1], dx, dy) !== 0; };

  var onWheel = function(e) {
    if (e.target !== canvas) return;
    e.stopPropagation();
    if (e.ctrlKey || e.type !== 'wheel') return;  // Ctrl+wheel and pinch: the browser's zoom
    var unit = e.deltaMode === 1 ? LINE_PX : e.deltaMode === 2 ? canvas.getBoundingClientRect().height * 0.9 : 1;
    if (scroll(local(e), e.deltaX * unit, e.deltaY * unit)) e.preventDefault();
  };
  window.addEventListener('wheel', onWheel, {capture: true, passive: false});
  window.addEventListener('mousewheel', onWheel, {capture: true, passive: false});

  // Touch: a drag scrolls what is under the finger (the document when that cannot move), with
  // momentum after the finger lifts; a tap becomes a click (hover, press, release a frame later).
  var SLOP_PX = 8;
  var touch = null;
  var glide = 0;
  var mouse = function(type, x, y) {
    canvas.dispatchEvent(new MouseEvent(type, {clientX: x, clientY: y, button: 0,
      buttons: type === 'mouseup' ? 0 : 1, bubbles: true, cancelable: true, view: window}));
  };
  var scrollOrDocument = function(p, dx, dy) {
    if (!scroll(p, dx, dy)) window.scrollBy(dx, dy);
  };
  var stopGlide = function() { if (glide) cancelAnimationFrame(glide); glide = 0; };
  var startGlide = function(p, vx, vy) {
    var last = performance.now();
    var step = function(now) {
      var dt = Math.min(now - last, 50);
      last = now;
      var decay = Math.pow(0.95, dt / 16);  // friction: about 0.3 s to a stop from a flick
      vx *= decay; vy *= decay;
      if (Math.abs(vx) < 0.02 && Math.abs(vy) < 0.02) { glide = 0; return; }
      scrollOrDocument(p, vx * dt, vy * dt);
      glide = requestAnimationFrame(step);
    };
    glide = requestAnimationFrame(step);
  };
  var findTouch = function(list) {
    for (var i = 0; touch && i < list.length; i++) if (list[i].identifier === touch.id) return list[i];
    return null;
  };
  window.addEventListener('touchstart', function(e) {
    if (e.target !== canvas) return;
    e.stopPropagation();
    e.preventDefault();  // no emulated mouse events, no browser panning of the canvas
    stopGlide();
    if (e.touches.length !== 1) { touch = null; return; }
    var t = e.changedTouches[0];
    touch = {id: t.identifier, x: t.clientX, y: t.clientY, lastX: t.clientX, lastY: t.clientY,
             time: performance.now(), moved: false, vx: 0, vy: 0};
    mouse('mousemove', t.clientX, t.clientY);  // hover first, as a mouse would
  }, {capture: true, passive: false});
  window.addEventListener('touchmove', function(e) {
    if (e.target !== canvas) return;
    e.stopPropagation();
    e.preventDefault();
    var t = findTouch(e.changedTouches);
    if (!t) return;
    if (!touch.moved && Math.hypot(t.clientX - touch.x, t.clientY - touch.y) < SLOP_PX) return;
    touch.moved = true;
    var now = performance.now();
    var dx = touch.lastX - t.clientX, dy = touch.lastY - t.clientY;
    var dt = Math.max(now - touch.time, 1);
    touch.vx = 0.2 * touch.vx + 0.8 * dx / dt;
    touch.vy = 0.2 * touch.vy + 0.8 * dy / dt;
    touch.lastX = t.clientX; touch.lastY = t.clientY; touch.time = now;
    scrollOrDocument(local(t), dx, dy);
  }, {capture: true, passive: false});
  var touchEnd = function(e) {
    if (e.target !== canvas) return;
    e.stopPropagation();
    e.preventDefault();
    var t = findTouch(e.changedTouches);
    if (!t) return;
    var ended = touch;
    touch = null;
    if (e.type === 'touchcancel') return;
    if (ended.moved) {
      // A finger that rested before lifting has lost its speed (same friction as the glide).
      var rest = performance.now() - ended.time;
      var kept = Math.pow(0.95, rest / 16);
      if (rest < 200) startGlide(local(t), ended.vx * kept, ended.vy * kept);
      return;
    }
    mouse('mousedown', t.clientX, t.clientY);
    var wants = _tm_platform_tap();  // draws a frame with the press; 1 text, 2 number
    var x = t.clientX, y = t.clientY;
    requestAnimationFrame(function() { requestAnimationFrame(function() { mouse('mouseup', x, y); }); });
    if (wants) Module['tmShowKeyboard'](wants === 2, x, y);
  };
  window.addEventListener('touchend', touchEnd, {capture: true, passive: false});
  window.addEventListener('touchcancel', touchEnd, {capture: true, passive: false});

  // The hidden field that brings up a phone's keyboard. What is typed goes to the page as
  // characters and keys, never into the field itself.
  var proxy = document.getElementById('keyboard-proxy');
  // A hardware key reaches the page through GLFW's keydown/keypress; the same key also
  // arrives here as input, which must then be dropped (phones' keyboards send keyCode 229).
  var lastKey = {key: "", time: 0};
  window.addEventListener('keydown', function(e) {
    lastKey = {key: (e.keyCode !== 229 && e.key !== 'Unidentified') ? e.key : "", time: performance.now()};
  }, true);
  var fromHardware = function(key) { return key !== "" && lastKey.key === key && performance.now() - lastKey.time < 100; };
  Module['tmShowKeyboard'] = function(numeric, x, y) {
    if (!proxy) return;
    proxy.setAttribute('inputmode', numeric ? 'decimal' : 'text');
    proxy.style.left = Math.max(0, x - 20) + 'px';
    proxy.style.top = Math.max(0, y - 10) + 'px';
    proxy.value = "";
    proxy.focus({preventScroll: true});
  };
  Module['tmHideKeyboard'] = function() { if (proxy && document.activeElement === proxy) proxy.blur(); };
  if (proxy) {
    proxy.addEventListener('beforeinput', function(e) {
      e.preventDefault();
      var type = e.inputType;
      if (type === 'insertText' || type === 'insertReplacementText' || type === 'insertCompositionText') {
        if (e.data && !fromHardware(e.data)) send(4, e.data, null);
      } else if (type === 'deleteContentBackward') {
        if (!fromHardware('Backspace')) send(5, 'Backspace', null);
      } else if (type === 'insertLineBreak' || type === 'insertParagraph') {
        if (!fromHardware('Enter')) send(5, 'Enter', null);
      }
    });
  }
});
// clang-format on

// clang-format off
EM_JS(void, tm_js_hide_keyboard, (), {
  if (Module['tmHideKeyboard']) Module['tmHideKeyboard']();
});
// clang-format on

// The results as text (platform.h SetResultText): headings, paragraphs, tables, lists built
// with createElement/textContent from the JSON the app wrote.
// clang-format off
EM_JS(void, tm_js_set_result_text, (const char* json_ptr), {
  var root = document.getElementById('results-text');
  if (!root) return;
  var data;
  try { data = JSON.parse(UTF8ToString(json_ptr)); } catch (e) { return; }
  var make = function(tag, text, cls) {
    var el = document.createElement(tag);
    if (text !== undefined) el.textContent = String(text);
    if (cls) el.className = cls;
    return el;
  };
  var frag = document.createDocumentFragment();
  if (data['title']) frag.appendChild(make('h2', data['title']));
  (data['lines'] || []).forEach(function(line, i) { frag.appendChild(make('p', line, i === 0 ? 'verdict' : "")); });
  (data['tables'] || []).forEach(function(t) {
    var table = make('table');
    if (t['caption']) table.appendChild(make('caption', t['caption']));
    var head = make('tr');
    (t['head'] || []).forEach(function(cell) { head.appendChild(make('th', cell)); });
    var thead = make('thead'); thead.appendChild(head); table.appendChild(thead);
    var body = make('tbody');
    (t['rows'] || []).forEach(function(row) {
      var tr = make('tr');
      row.forEach(function(cell, i) { tr.appendChild(make(i === 0 ? 'th' : 'td', cell)); });
      body.appendChild(tr);
    });
    table.appendChild(body);
    frag.appendChild(table);
  });
  (data['lists'] || []).forEach(function(l) {
    if (!l['items'] || !l['items'].length) return;
    if (l['caption']) frag.appendChild(make('h3', l['caption']));
    var list = make('ul');
    l['items'].forEach(function(item) { list.appendChild(make('li', item)); });
    frag.appendChild(list);
  });
  root.textContent = "";
  root.appendChild(frag);
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
    tm_js_install_input();
  }
}
bool g_main_loop_paused = false;
}  // namespace

// The browser drives the loop; `done` and `wait_for_events` are the native loop's (a page is
// never done, and a paused Emscripten loop simply receives no more calls).
void RunMainLoop(void (*frame)(), const std::function<bool()>&, const std::function<void()>&) {
  emscripten_set_main_loop(frame, 0, false);
}
void PauseMainLoop() {
  if (g_main_loop_paused) return;
  g_main_loop_paused = true;
  emscripten_pause_main_loop();
}
void ResumeMainLoop() {
  if (!g_main_loop_paused) return;
  g_main_loop_paused = false;
  emscripten_resume_main_loop();
}

std::string GetUrlFragment() { return TakeJsString(tm_js_get_fragment()).value_or(""); }
void ReplaceUrlFragment(const std::string& fragment) {
  EnsureInstalled();
  tm_js_replace_fragment(fragment.c_str());
}
void PushUrlFragment(const std::string& fragment) {
  EnsureInstalled();
  tm_js_push_fragment(fragment.c_str());
}
void HistoryStep(int delta) {
  EnsureInstalled();
  tm_js_history_step(delta);
}
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

bool PrefersDarkColorScheme() {
  EnsureInstalled();
  return tm_js_prefers_dark() != 0;
}

void SetOnScroll(std::function<bool(double, double, double, double)> scroll) {
  EnsureInstalled();
  g_on_scroll = std::move(scroll);
}
void SetOnTap(std::function<int()> tapped) {
  EnsureInstalled();
  g_on_tap = std::move(tapped);
}
void SetOnTypedText(std::function<void(const std::string&)> on_text,
                    std::function<void(const std::string&)> on_key) {
  EnsureInstalled();
  g_on_typed_text = std::move(on_text);
  g_on_typed_key = std::move(on_key);
}
void HideKeyboard() { tm_js_hide_keyboard(); }

void SetResultMirror(const std::string& estimate_json, const std::string& summary) {
  tm_js_set_result_mirror(estimate_json.c_str(), summary.c_str());
}
void SetResultText(const std::string& json) { tm_js_set_result_text(json.c_str()); }
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
