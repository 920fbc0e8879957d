// `trainmem search`: placeholder until the layout search lands in the core.
#include "cli/commands.h"

namespace trainmem::cli {

int RunSearch(const std::vector<std::string>& args, const Presets& presets, Output io) {
  (void)args;
  (void)presets;
  io.err << "trainmem: search is not available in this build\n";
  return 2;
}

}  // namespace trainmem::cli
