// Where dropped or pasted files that are training logs or memory profiles go (the drop/paste
// plumbing routes them here): they become the page's measurement, shown beside the estimate.
#pragma once

#include <vector>

#include "app/app_state.h"
#include "platform/files.h"

namespace app {

void OnMeasurementFiles(AppState& state, const std::vector<platform::File>& files);

}  // namespace app
