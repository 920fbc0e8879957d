// What the import panel remembers (panel_import.cpp, app_import.cpp): the job files the user gave,
// the last import and its report, and the values typed for what was missing.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/import/import.h"
#include "platform/files.h"

namespace app {

struct ImportPanelState {
  std::vector<trainmem::InputFile> files;  // job files given so far (same name: replaced)
  std::vector<platform::File> pending;     // arrived, read on the next frame ("Reading…")
  bool pending_shown = false;              // "Reading…" was on screen for a frame
  std::string function;                    // the chosen recipe of a Python registry
  bool has_result = false;
  trainmem::ImportResult result;
  std::vector<trainmem::KeptValue> kept;     // what the files do not state, kept from the page
  std::vector<trainmem::Error> errors;       // why the files did not import
  std::map<std::string, std::string> typed;  // missing key → what the user typed
  std::string applied_fragment;              // the share link of the imported config
  std::string measurement_note;              // "2 measurement files sent to the comparison"
  bool open = false;                         // open the section on the next frame
};

}  // namespace app
