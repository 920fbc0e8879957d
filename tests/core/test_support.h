// Helpers shared by the core tests: the built-in presets and config construction.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "data/builtin_presets.h"

namespace trainmem::testing {

inline const Presets& TestPresets() {
  static const Presets presets = BuiltinPresets();
  return presets;
}

// Parses `json_text`, failing the test with every error if it does not parse.
inline Config MustParse(const std::string& json_text) {
  Result<Config> r = ParseConfig(json_text, TestPresets());
  if (!r.ok()) {
    std::string all;
    for (const Error& e : r.errors()) all += FormatError(e) + "\n";
    ADD_FAILURE() << "config did not parse:\n" << all << json_text;
    return Config{};
  }
  return r.value();
}

// Applies settings together, as the CLI's --set does.
inline Config With(const Config& c,
                   const std::vector<std::pair<std::string, std::string>>& settings) {
  Result<Config> r = ApplySettings(c, settings, TestPresets());
  if (!r.ok()) {
    ADD_FAILURE() << FormatError(r.errors().front());
    return c;
  }
  return r.value();
}

constexpr double kGB = 1e9;
constexpr double kGiB = 1073741824.0;

}  // namespace trainmem::testing
