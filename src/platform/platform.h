// The one seam between the app and the browser (STYLE.md rule 11). Everything the page needs
// from its host — URL fragment, clipboard, storage, canvas size, preset fetches, the DOM mirror —
// goes through these functions. platform_web.cpp implements them with EM_JS; platform_native.cpp
// is an in-memory stand-in so the app code compiles and can be exercised without a browser.
//
// Callbacks registered here are invoked from browser events, outside the frame: they should only
// record what happened and call RequestFrames (src/app) so the main loop wakes up.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace platform {

// ---- Main loop ----------------------------------------------------------------------------
// Calls `frame` once per display refresh. In the browser it returns at once and the browser
// keeps calling `frame` (emscripten_set_main_loop); natively it loops until `done()` is true.
// While paused no frame is drawn: the browser stops calling `frame`, and the native loop blocks
// in `wait_for_events` (glfwWaitEvents) before the next one, so an idle page costs no CPU.
void RunMainLoop(void (*frame)(), const std::function<bool()>& done,
                 const std::function<void()>& wait_for_events);
void PauseMainLoop();   // no effect when paused already
void ResumeMainLoop();  // no effect when running

// ---- URL fragment -------------------------------------------------------------------------
std::string GetUrlFragment();                          // without the leading '#'
void ReplaceUrlFragment(const std::string& fragment);  // history.replaceState: no new history entry
// history.pushState: a new entry, so Back returns to the config before the edit. The page's
// entries are numbered (history.state) so HistoryStep never leaves the page.
void PushUrlFragment(const std::string& fragment);
// Ctrl+Z / Ctrl+Shift+Z: history.go(delta), but never back past the page's first entry.
void HistoryStep(int delta);
std::string PageBaseUrl();  // location without the fragment
// hashchange and popstate (Back/Forward), with the fragment now in the address bar.
void SetOnFragmentChange(std::function<void(const std::string&)> callback);

// ---- Clipboard and files ------------------------------------------------------------------
void CopyText(const std::string& text);  // navigator.clipboard.writeText
// The last text the browser delivered in a 'paste' event, so ImGui's Ctrl+V (synchronous)
// can read what the asynchronous browser clipboard handed over.
std::string LastPastedText();
void ReadClipboard(
    std::function<void(const std::string&)> callback);  // navigator.clipboard.readText
void DownloadText(const std::string& file_name, const std::string& mime, const std::string& text);
void OpenInNewTab(const std::string& url);

// ---- Storage ------------------------------------------------------------------------------
std::optional<std::string> StorageGet(const std::string& key);  // localStorage
void StorageSet(const std::string& key, const std::string& value);

// ---- Canvas and display -------------------------------------------------------------------
struct CanvasSize {
  double css_width = 0;  // CSS pixels
  double css_height = 0;
  double device_pixel_ratio = 1;
};
CanvasSize GetCanvasSize();
// Sets the canvas backing store to width × height device pixels and tells GLFW, whose window
// size follows the canvas. (glfwSetWindowSize is not used: under Emscripten it asks for full
// screen when the size equals the screen's, which a maximised window at DPR 1 does.)
void ResizeCanvas(int width, int height);
// Fired on window resize, devicePixelRatio change, visibility change and focus — anything after
// which the page must be redrawn though no GLFW input event arrived — and after every other
// callback of this file has run (fragment change, clipboard read, presets fetched).
void SetOnWake(std::function<void()> callback);
void SetCursor(const char* css_cursor);  // "default", "text", "pointer", …
void RequestWakeAfter(double seconds);   // one wake-up later (a message that times out)
// Removes the gamepad listeners glfwInit adds (call right after it): the page reads no gamepad,
// and while they are registered Chromium keeps a gamepad polling thread busy on an idle page.
void DetachGamepadListeners();

// prefers-color-scheme: dark (a change wakes the page).
bool PrefersDarkColorScheme();

// ---- Wheel, touch and the on-screen keyboard ----------------------------------------------
// Emscripten 3.1.6's GLFW passes the wheel's raw deltaY (pixels, opposite sign) as the scroll
// offset and turns touches into clicks at the last mouse position. The page handles both
// itself: wheel deltas are normalised to CSS pixels (deltaMode lines/pages converted), a touch
// drag scrolls with momentum and a tap becomes a click.
// `scroll(x, y, dx, dy)`: scroll what is under the CSS point (x, y) of the canvas by (dx, dy)
// CSS pixels, positive = towards the end (content moves up/left); return true when something
// moved. When nothing can move, the browser scrolls the document instead (the text results
// below the canvas).
void SetOnScroll(std::function<bool(double x, double y, double dx, double dy)> scroll);
// Called right after a tap was delivered as a click; returns what the page now wants typed:
// 0 nothing, 1 text, 2 a number. On 1/2 a hidden <input> (inputmode decimal for numbers) is
// focused so a phone shows its keyboard; what is typed there comes back through `on_text`
// (characters) and `on_key` ("Backspace", "Enter").
void SetOnTap(std::function<int()> tapped);
void SetOnTypedText(std::function<void(const std::string& chars)> on_text,
                    std::function<void(const std::string& key)> on_key);
void HideKeyboard();  // blurs the hidden input (the page no longer wants text)

// ---- Language and fonts ------------------------------------------------------------------
// navigator.language ("zh-CN", "en-US"); empty natively.
std::string BrowserLanguage();
// Sets <html lang> ("en", "zh-CN") for screen readers and the browser's own text handling.
void SetDocumentLanguage(const std::string& lang);
// Fetches a same-origin file as bytes (the CJK font subset); calls back once with its bytes,
// empty when the fetch failed.
void FetchBinary(const std::string& path, std::function<void(std::vector<unsigned char>)> callback);

// ---- DOM mirror (tests, screen readers) ---------------------------------------------------
// <output id="result" data-json="…"> and the aria-live summary, via setAttribute/textContent.
void SetResultMirror(const std::string& estimate_json, const std::string& summary);
// The results as real text below the canvas (selectable, copyable, found by Ctrl+F): a JSON
// object {"title", "lines": [...], "tables": [{"caption", "head": [...], "rows": [[...]]}],
// "lists": [{"caption", "items": [...]}]} rendered with textContent only.
void SetResultText(const std::string& json);
void SetDocumentTitle(const std::string& title);
void MarkFirstFrame();  // #status = 'ready', window['firstFrameMs'] = performance.now()
// What a share link contained but could not be read ("Could not read: #tp: …"), one line each:
// the text of <div id="link-errors" role="alert"> (hidden when empty) and #status's
// data-link-errors attribute (the count; absent when none).
void SetLinkErrors(const std::vector<std::string>& lines);
// The explorer's state as JSON on <output id="explorer" data-json> (view, counts, timings and the
// CSS-pixel rectangles of its tabs, rows and plot), for tests and timing runs.
void SetExplorerMirror(const std::string& json);
// The measurement beside the estimate as JSON on <output id="measured" data-json> (created on
// first use): whether one was read, from what, errors, the link's m=… and the comparison.
void SetMeasuredMirror(const std::string& json);

}  // namespace platform
