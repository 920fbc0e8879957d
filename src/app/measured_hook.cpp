// The default OnMeasurementFiles: nothing reads measurements yet (the comparison view replaces
// this file).
#include "app/measured_hook.h"

namespace app {

void OnMeasurementFiles(AppState& state, const std::vector<platform::File>& files) {
  (void)state;
  (void)files;
}

}  // namespace app
