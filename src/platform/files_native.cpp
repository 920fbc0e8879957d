// Native stand-in for files.h: no browser delivers files; the callback is kept for tests.
#ifndef __EMSCRIPTEN__

#include "platform/files.h"

namespace platform {

void SetOnFiles(std::function<void(std::vector<File>)> callback) { (void)callback; }
void OpenFilePicker() {}
void SetTextInputActive(bool active) { (void)active; }
void SetKeyboardNavActive(bool active) { (void)active; }

}  // namespace platform

#endif  // __EMSCRIPTEN__
