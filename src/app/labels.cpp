#include "app/labels.h"

namespace app {

std::string ModelDisplayName(const trainmem::Config& config) {
  if (!config.model_name.empty()) return config.model_name;
  if (!config.model_id.empty()) return config.model_id;
  return Tr(Str::kCustomModelName);
}

}  // namespace app
