#include "data/builtin_presets.h"

namespace trainmem {

Presets BuiltinPresets() {
  Presets presets;
  AddPresetFiles(presets, EmbeddedPresetFiles());
  return presets;
}

}  // namespace trainmem
