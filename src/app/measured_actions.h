// The page's measurement (panel_measured.cpp draws it): reading inputs, the link's `m=…`, the
// comparison with the current estimate and the #measured DOM mirror.
#pragma once

#include <string>
#include <vector>

#include "app/app_state.h"
#include "platform/files.h"

namespace app {

// Reads each file (log, nvidia-smi/npu-smi output, memory timeline JSON, allocator snapshot)
// as one run; what could be read becomes the measurement and the link's m=…, what could not is
// listed in state.measured.errors.
void ReadMeasurementFiles(AppState& state, const std::vector<platform::File>& files);
void ClearMeasurement(AppState& state);
// A link opened with a new m=… shows its measurement (once per value).
void ReadLinkMeasurement(AppState& state);
// Compares again when the config changed since the last comparison, and names how the config
// differs from the measured one (MeasuredView::config_changes).
void RefreshMeasuredComparison(AppState& state);
void PublishMeasuredMirror(AppState& state);
// Makes the measured config current again.
void RestoreMeasuredConfig(AppState& state);

}  // namespace app
