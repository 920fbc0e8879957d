// Helpers shared by the core tests: the built-in presets and config construction.
#pragma once

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/model/model.h"
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

// The rows of a tests/data/*.jsonl file of models (one JSON object a line).
inline std::vector<nlohmann::json> ModelRows(const std::string& file) {
  std::ifstream in(std::string(TRAINMEM_SOURCE_DIR "/tests/data/") + file);
  std::vector<nlohmann::json> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) rows.push_back(nlohmann::json::parse(line));
  }
  return rows;
}

// The config of the row `id` of `file`, failing the test if there is none.
inline nlohmann::json ModelRowConfig(const std::string& file, const std::string& id) {
  for (const nlohmann::json& row : ModelRows(file)) {
    if (row.at("id") == id) return row.at("config");
  }
  ADD_FAILURE() << "no row " << id << " in " << file;
  return nlohmann::json::object();
}

// ParseModelArch, failing the test with the first error if the config does not parse.
inline ModelArch MustParseModel(const nlohmann::json& config) {
  Result<ModelArch> arch = ParseModelArch(config, "model");
  EXPECT_TRUE(arch.ok()) << FormatError(arch.errors().front());
  return arch.ok() ? arch.value() : ModelArch{};
}

// A config.json kept whole in tests/data/hf_configs (see its README for where each came from).
inline nlohmann::json PublishedConfig(const std::string& name) {
  std::ifstream in(std::string(TRAINMEM_SOURCE_DIR) + "/tests/data/hf_configs/" + name);
  EXPECT_TRUE(in.good()) << name;
  return nlohmann::json::parse(in, nullptr, false);
}

inline bool HasWarningWith(const ModelArch& arch, const std::string& text) {
  for (const std::string& w : arch.warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

// The total parameter count of a config.json (MTP modules included).
inline std::int64_t Total(const nlohmann::json& config) {
  return CountParams(MustParseModel(config), true).total;
}

// ModelArchToJson writes what ParseModelArch reads back to the same count, heads, norms and
// blocks, and the tensor shapes (what per-matrix optimizers see) add up to the count.
inline void ExpectRoundTripAndShapes(const nlohmann::json& config) {
  const ModelArch arch = MustParseModel(config);
  const ModelArch back = MustParseModel(ModelArchToJson(arch));
  EXPECT_EQ(CountParams(back, true).total, CountParams(arch, true).total) << config.dump();
  EXPECT_EQ(back.num_kv_heads, arch.num_kv_heads) << config.dump();
  EXPECT_EQ(back.norms_per_layer, arch.norms_per_layer) << config.dump();
  EXPECT_EQ(back.layer_mixer, arch.layer_mixer) << config.dump();
  EXPECT_EQ(back.layer_is_moe, arch.layer_is_moe) << config.dump();
  EXPECT_EQ(back.layer_has_mlp, arch.layer_has_mlp) << config.dump();
  std::int64_t shapes = 0;
  for (const ParamTensor& t : ParamTensors(arch)) shapes += t.elements();
  // The tensors are the language model's as built (a vision tower is a count, not shapes; the
  // stored k/v of Gemma 4's KV-shared layers are not built).
  const ParamCounts stored = CountParams(arch, true);
  EXPECT_EQ(shapes, stored.total - arch.vision_params - stored.stored_unused) << config.dump();
}

constexpr double kGB = 1e9;
constexpr double kGiB = 1073741824.0;

}  // namespace trainmem::testing
