// Model and device presets: data files under presets/, loaded at run time by the page and
// compiled in as defaults (see src/presets_data) so everything works offline.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.h"
#include "core/model/model.h"
#include "core/result.h"

namespace trainmem {

// presets/models/<id>.json:
//   {"id": "llama3-8b", "name": "Llama 3 8B", "family": "Llama 3", "nominal_params": 8e9,
//    "nominal_expert_params": 0, "source": "...", "config": { HF config.json fields }}
struct ModelPreset {
  std::string id;
  std::string name;
  std::string family;
  std::string source;
  std::int64_t nominal_params = 0;
  std::int64_t nominal_expert_params = 0;
  ModelArch arch;
};

// presets/devices/<id>.json:
//   {"id": "h100-80gb", "name": "NVIDIA H100 80GB", "vendor": "NVIDIA", "memory_gib": 79.1,
//    "nominal_memory_gb": 80, "devices_per_node": 8, "note": "..."}
struct DevicePreset {
  std::string id;
  std::string name;
  std::string vendor;
  std::string note;
  double memory_gib = 0;         // what the framework sees
  double nominal_memory_gb = 0;  // as sold
  std::int64_t devices_per_node = 8;
};

struct Presets {
  std::map<std::string, ModelPreset> models;
  std::map<std::string, DevicePreset> devices;

  const ModelPreset* FindModel(std::string_view id) const;
  const DevicePreset* FindDevice(std::string_view id) const;
  // The model a checkpoint path, hub id or job name names ("Qwen/Qwen3-4B-Instruct-2507",
  // "./weights/llama3_8b"): the preset whose id or name is in it as a whole word, the longest
  // such; nullptr when none is.
  const ModelPreset* FindModelNamedIn(std::string_view text) const;
};

Result<ModelPreset> ParseModelPreset(std::string_view json_text);
Result<DevicePreset> ParseDevicePreset(std::string_view json_text);

// Adds presets from (file name, text) pairs; a file that does not parse is reported with its
// name in the path and skipped, the others still load.
std::vector<Error> AddPresetFiles(Presets& presets,
                                  const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace trainmem
