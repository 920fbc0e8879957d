// ApplySettings: several key=value settings at once, validated together.
#include <nlohmann/json.hpp>

#include "core/config/config.h"
#include "core/config/config_detail.h"

namespace trainmem {

Result<Config> ApplySettings(const Config& config,
                             const std::vector<std::pair<std::string, std::string>>& settings,
                             const Presets& presets) {
  nlohmann::json j = ConfigToJson(config);
  std::vector<Error> errors;
  for (const auto& [key, value] : settings) {
    const std::string path = ResolveSettingKey(key);
    if (path.empty()) {
      errors.push_back({std::string(key), "empty key (expected key=value)"});
      continue;
    }
    const nlohmann::json* current = detail::FindJsonPath(j, path);
    nlohmann::json parsed =
        detail::ValueFromText(value, current != nullptr ? *current : nlohmann::json());
    const std::string problem = detail::SetJsonPath(j, path, std::move(parsed), presets);
    if (!problem.empty()) errors.push_back({path, problem});
  }
  if (!errors.empty()) return Result<Config>::Failure(std::move(errors));
  return ConfigFromJson(j, presets);
}

}  // namespace trainmem
