// Presets: the embedded files parse, ids are well-formed and unique, broken files are reported
// by name without stopping the others.
#include "core/model/presets.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "core/model/model.h"
#include "data/builtin_presets.h"
#include "test_support.h"

namespace trainmem {
namespace {

// "presets/models/llama3-8b.json" → "llama3-8b"
std::string Stem(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string file = path.substr(slash + 1);
  return file.substr(0, file.size() - std::string(".json").size());
}

bool IsLowercaseHyphenated(const std::string& id) {
  for (char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) return false;
  }
  return !id.empty() && id.front() != '-' && id.back() != '-';
}

TEST(Presets, EveryEmbeddedPresetParses) {
  Presets presets;
  const std::vector<Error> errors = AddPresetFiles(presets, EmbeddedPresetFiles());
  for (const Error& e : errors) ADD_FAILURE() << FormatError(e);
  EXPECT_EQ(presets.models.size() + presets.devices.size(), EmbeddedPresetFiles().size());
  EXPECT_GE(presets.models.size(), 27u);
  EXPECT_GE(presets.devices.size(), 12u);
}

TEST(Presets, IdsAreLowercaseHyphenatedAndEqualTheFileName) {
  const Presets presets = BuiltinPresets();
  for (const auto& [path, text] : EmbeddedPresetFiles()) {
    const std::string id = Stem(path);
    EXPECT_TRUE(IsLowercaseHyphenated(id)) << path;
    const bool is_model = path.find("/models/") != std::string::npos;
    if (is_model) {
      ASSERT_NE(presets.FindModel(id), nullptr) << path;
      EXPECT_EQ(presets.FindModel(id)->id, id);
    } else {
      ASSERT_NE(presets.FindDevice(id), nullptr) << path;
      EXPECT_EQ(presets.FindDevice(id)->id, id);
    }
  }
}

TEST(Presets, TheBriefsIdsExist) {
  const Presets presets = BuiltinPresets();
  for (const char* id :
       {"llama3-8b",       "llama3-70b",   "llama3-405b",   "llama3.1-8b",      "llama3.1-70b",
        "llama3.1-405b",   "llama3.2-1b",  "llama3.2-3b",   "llama2-7b",        "llama2-70b",
        "mistral-7b-v0.1", "mixtral-8x7b", "qwen2.5-7b",    "qwen2.5-14b",      "qwen2.5-32b",
        "qwen3-8b",        "qwen3-32b",    "qwen3-30b-a3b", "deepseek-v2-lite", "deepseek-v3",
        "deepseek-v3.2",   "gpt-oss-120b", "gemma2-9b",     "gemma3-12b",       "glm-4.5",
        "glm-4.5-air",     "gpt2"}) {
    EXPECT_NE(presets.FindModel(id), nullptr) << id;
  }
  for (const char* id :
       {"ascend-910b", "ascend-910c", "a100-40gb", "a100-80gb", "h100-80gb", "h200-141gb", "b200",
        "gb200", "mi300x", "mi325x", "mi355x", "l40s", "rtx-4090"}) {
    EXPECT_NE(presets.FindDevice(id), nullptr) << id;
  }
  EXPECT_EQ(presets.FindModel("no-such-model"), nullptr);
  EXPECT_EQ(presets.FindDevice("llama3-8b"), nullptr);
}

TEST(Presets, NominalSizesAgreeWithTheCounts) {
  const Presets presets = BuiltinPresets();
  const ModelPreset* llama = presets.FindModel("llama3-8b");
  ASSERT_NE(llama, nullptr);
  EXPECT_EQ(llama->nominal_params, 8000000000);
  EXPECT_EQ(CountParams(llama->arch, false).total, 8030261248);
  const ModelPreset* v32 = presets.FindModel("deepseek-v3.2");
  ASSERT_NE(v32, nullptr);
  // Seed: "~14B dense, ~657B experts (256 experts)".
  EXPECT_EQ(v32->nominal_params, 671000000000);
  EXPECT_EQ(v32->nominal_expert_params, 657000000000);
  EXPECT_EQ(v32->arch.num_experts, 256);
  for (const auto& [id, preset] : presets.models) {
    // Names round (Llama 3.2 "1B" is 1.24B), so only a loose check on the total …
    const ParamCounts c = CountParams(preset.arch, false);
    EXPECT_NEAR(static_cast<double>(c.total) / preset.nominal_params, 1.0, 0.25) << id;
    // … and the expert split within 1% (DeepSeek's 657B vs the exact 653.9B is 0.5%).
    if (preset.nominal_expert_params > 0) {
      EXPECT_NEAR(static_cast<double>(c.expert) / preset.nominal_expert_params, 1.0, 0.01) << id;
    } else {
      EXPECT_EQ(c.expert, 0) << id;
    }
  }
}

// Muse Glimmer 30B is defined in torchtitan's code only (models/muse_glimmer/__init__.py,
// model.py): no published total, so its count is derived here from those shapes. Per block:
// wq, wo and the o_gate 3 x 6656 x 4096 = 81,788,928; wk, wv 2 x 6656 x 256 = 3,407,872; SwiGLU
// 3 x 6656 x 19968 = 398,721,024; four gain-centred RMSNorm weights 4 x 6656 = 26,624 (the QK
// and embedding norms are scaleless); 483,944,448 a block, x 52 = 25,165,111,296. Embedding and
// untied head 2 x 202048 x 6656 = 2,689,662,976; final norm 6,656.
TEST(Presets, MuseGlimmerCountsItsCodeDefinedShape) {
  const Presets presets = BuiltinPresets();
  const ModelPreset* glimmer = presets.FindModel("muse-glimmer-30b");
  ASSERT_NE(glimmer, nullptr);
  EXPECT_EQ(CountParams(glimmer->arch, false).total, 27854780928);
  // Every 4th block is global, the others slide over 2048 tokens.
  ASSERT_EQ(glimmer->arch.layer_uses_sliding.size(), 52u);
  EXPECT_TRUE(glimmer->arch.layer_uses_sliding[0]);
  EXPECT_FALSE(glimmer->arch.layer_uses_sliding[3]);
  EXPECT_FALSE(glimmer->arch.layer_uses_sliding[51]);
}

// Every model preset that is also a reference row with an exact published total counts that
// total (vision towers included; plus the row's stored-but-uncounted tensors), so a preset's
// config.json fields cannot drift from the row that vouches for them.
TEST(Presets, PresetsWithAReferenceRowCountItsPublishedTotal) {
  const Presets presets = BuiltinPresets();
  int checked = 0;
  // (reference_models.jsonl's rows carry their conversions in model_reference_test.cpp.)
  for (const char* file : {"reference_models_2025.jsonl", "reference_models_heldout.jsonl"}) {
    for (const nlohmann::json& row : testing::ModelRows(file)) {
      const ModelPreset* preset = presets.FindModel(row.at("id").get<std::string>());
      if (preset == nullptr || !row.value("official_is_exact", false) ||
          !row.value("exact_count", true))
        continue;
      const std::int64_t published = row.at("official_total_params");
      const std::int64_t uncounted = row.value("uncounted_params", std::int64_t{0});
      EXPECT_EQ(CountParams(preset->arch, true).total + uncounted, published) << preset->id;
      ++checked;
    }
  }
  // olmo2-7b, phi4, qwen3-next-80b-a3b and llama4-scout before the December 2026 additions; 30
  // of those added have exact rows.
  EXPECT_GE(checked, 30);
}

TEST(Presets, DeviceMemoryIsWhatTheFrameworkSees) {
  const Presets presets = BuiltinPresets();
  const DevicePreset* h100 = presets.FindDevice("h100-80gb");
  ASSERT_NE(h100, nullptr);
  EXPECT_NEAR(h100->memory_gib, 79.2, 0.1);  // total_memory 81089 MiB
  EXPECT_EQ(h100->nominal_memory_gb, 80);
  for (const auto& [id, device] : presets.devices) {
    // The GiB figure a framework reports sits a little below the number on the label.
    EXPECT_LE(device.memory_gib, device.nominal_memory_gb) << id;
    EXPECT_GE(device.memory_gib, 0.85 * device.nominal_memory_gb) << id;
    EXPECT_FALSE(device.note.empty()) << id;
    EXPECT_GE(device.devices_per_node, 1) << id;
  }
}

TEST(Presets, MalformedFilesAreNamedAndTheOthersStillLoad) {
  const std::string good_model =
      R"({"id": "tiny", "name": "Tiny", "config": {"hidden_size": 64, "num_hidden_layers": 2,
          "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 1000}})";
  const std::string good_device = R"({"id": "card", "name": "Card", "memory_gib": 10})";
  Presets presets;
  const std::vector<Error> errors = AddPresetFiles(
      presets, {{"presets/models/tiny.json", good_model},
                {"presets/models/broken.json", "{\"id\": \"broken\", "},
                {"presets/models/nohidden.json",
                 R"({"id": "nohidden", "name": "x", "config": {"num_hidden_layers": 2,
                     "num_attention_heads": 4, "intermediate_size": 8, "vocab_size": 10}})"},
                {"presets/devices/card.json", good_device},
                {"presets/devices/other.json", good_device},
                {"presets/devices/typo.json",
                 R"({"id": "typo", "name": "T", "memory_gb": 10, "memory_gib": 10})"},
                {"presets/elsewhere/x.json", good_device}});
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_EQ(errors[0].path, "presets/models/broken.json");
  EXPECT_EQ(errors[0].message, "not valid JSON");
  EXPECT_EQ(errors[1].path, "presets/models/nohidden.json:config.hidden_size");
  EXPECT_EQ(errors[1].message, "missing required field");
  EXPECT_EQ(errors[2].path, "presets/devices/other.json:id");  // id "card" ≠ file name
  EXPECT_EQ(errors[3].path, "presets/devices/typo.json:memory_gb");
  EXPECT_EQ(errors[4].path, "presets/elsewhere/x.json");
  EXPECT_NE(presets.FindModel("tiny"), nullptr);
  EXPECT_NE(presets.FindDevice("card"), nullptr);
  EXPECT_EQ(presets.models.size(), 1u);
  EXPECT_EQ(presets.devices.size(), 1u);
}

TEST(Presets, DevicePresetFieldErrors) {
  Result<DevicePreset> d = ParseDevicePreset(R"({"id": "X100", "name": "x", "memory_gib": "80"})");
  ASSERT_FALSE(d.ok());
  ASSERT_EQ(d.errors().size(), 2u);
  EXPECT_EQ(d.errors()[0].path, "id");  // uppercase
  EXPECT_EQ(d.errors()[1].path, "memory_gib");
  EXPECT_EQ(d.errors()[1].message, "expected a number, got a string");
  Result<ModelPreset> m = ParseModelPreset("[1, 2]");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.errors()[0].message, "expected a JSON object, got a list");
}

}  // namespace
}  // namespace trainmem
