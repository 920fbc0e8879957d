// The presets under presets/, compiled into the binary so the CLI and the page work offline.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/model/presets.h"

namespace trainmem {

// (path relative to the source root, text), e.g. ("presets/models/llama3-8b.json", "{…}").
std::vector<std::pair<std::string, std::string>> EmbeddedPresetFiles();

// Parsed once per call; a malformed embedded file is a build-time bug caught by the tests.
Presets BuiltinPresets();

}  // namespace trainmem
