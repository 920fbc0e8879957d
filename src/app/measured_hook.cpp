// Dropped or pasted log/profile files, routed here by the drop/paste plumbing.
#include "app/measured_hook.h"

#include "app/measured_actions.h"

namespace app {

void OnMeasurementFiles(AppState& state, const std::vector<platform::File>& files) {
  ReadMeasurementFiles(state, files);
}

}  // namespace app
