// Files given to the page → the import panel: job files are read by the core's importers and the
// result becomes the current config (and so the share link); measurement files go to
// OnMeasurementFiles (measured_hook.h).
#pragma once

#include <string>
#include <vector>

#include "app/app_state.h"
#include "platform/files.h"

namespace app {

// Called from the platform callback: remembers the files; they are read on the next frames
// (after "Reading…" was drawn once), by ProcessPendingFiles.
void ReceiveFiles(AppState& state, std::vector<platform::File> files);
void ProcessPendingFiles(AppState& state);

// Reads the job files again (another recipe chosen, a file added) and applies the result.
void RunImport(AppState& state);
// Applies the values typed for what was missing to the imported config.
void ApplyMissingValues(AppState& state);
void ClearImport(AppState& state);

// What the import report says beside its read values, as the panel shows it: the files the job
// names that were not given, and the inconsistencies (the config's errors, listed in red above
// them, are not repeated).
std::string ImportWantedLine(const ImportPanelState& panel);
// Why the imported config is not estimated, one line per error, in the page's language.
std::vector<std::string> ImportConfigErrorLines(const ImportPanelState& panel);
std::vector<std::string> ImportProblemsShown(const ImportPanelState& panel);

}  // namespace app
