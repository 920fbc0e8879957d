// Files the user gives the page: dropped anywhere on it, pasted (files, or text pasted while no
// text field has focus), or picked with the "Open files…" button (a hidden
// <input type=file multiple> that web/files.js adds). Delivered as (name, bytes) pairs, byte for
// byte (a pickled memory snapshot stays binary). files_web.cpp bridges web/files.js;
// files_native.cpp is the no-op stand-in.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace platform {

struct File {
  std::string name;  // the file's name; "pasted text" for a paste of text
  std::string text;  // its bytes (at most 16 MiB + 1 byte are read; the core refuses more)
};

// Called (outside the frame, like every platform callback) with each batch of files.
void SetOnFiles(std::function<void(std::vector<File>)> callback);
// Opens the browser's file picker (from a click: browsers allow it for a few seconds after).
void OpenFilePicker();
// Tells the page whether a text field has the keyboard: a text paste then goes to the field,
// otherwise it is delivered as a file.
void SetTextInputActive(bool active);
// Tells the page whether the keyboard focus is on an item of the canvas (not a text field):
// Space, Enter, the arrows, PageUp/PageDown and Home/End then go to it and do not scroll the
// document.
void SetKeyboardNavActive(bool active);

}  // namespace platform
