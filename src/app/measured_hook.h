// Measurement files (training logs with memory lines, JSON memory timelines, pickled memory
// snapshots) dropped or pasted on the page arrive here, already told apart from job files by
// trainmem::DetectInputKind. The comparison view implements this; the default does nothing.
#pragma once

#include <vector>

#include "app/app_state.h"
#include "platform/files.h"

namespace app {

void OnMeasurementFiles(AppState& state, const std::vector<platform::File>& files);

}  // namespace app
