// Files given to the page → the import panel: job files are read by the core's importers and the
// result becomes the current config (and so the share link); measurement files go to
// OnMeasurementFiles (measured_hook.h).
#pragma once

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

}  // namespace app
