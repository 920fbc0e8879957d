// Config schema v1: defaults, presets, inline HF models, layout resolution, the lenient reading
// of measured-run configs, round trips and --set. Bad inputs are in config_errors_test.cpp.
#include "core/config/config.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/model/model.h"
#include "core/model/presets.h"
#include "test_support.h"

namespace trainmem {
namespace {

using nlohmann::json;
using testing::MustParse;
using testing::TestPresets;
using testing::With;

TEST(ConfigTest, DefaultsAreTorchtitansWithTheGivenModel) {
  Config c = MustParse(R"({"model": "llama3-8b"})");
  EXPECT_EQ(c.mode, Mode::kDetailed);
  EXPECT_EQ(c.framework, Framework::kTorchtitan);
  EXPECT_EQ(c.device.id, kDefaultDeviceId);
  EXPECT_EQ(c.world_size, 1);
  EXPECT_EQ(c.training.local_batch_size, 8);
  EXPECT_EQ(c.training.seq_len, 2048);
  EXPECT_EQ(c.training.mixed_precision_param, DType::kBFloat16);
  EXPECT_FALSE(c.training.dropout.has_value());
  EXPECT_FALSE(c.training.mtp);
  EXPECT_EQ(c.parallelism.dp_shard, -1);
  EXPECT_EQ(c.parallelism.pp_schedule, PpSchedule::k1F1B);
  EXPECT_FALSE(c.parallelism.zero_stage.has_value());
  EXPECT_EQ(c.activation_checkpoint.mode, AcMode::kSelective);
  EXPECT_EQ(c.activation_checkpoint.selective_ac_option, "op");  // torchtitan's SelectiveAC
  EXPECT_EQ(c.optimizer.name, OptimizerKind::kAdamW);
  EXPECT_EQ(c.optimizer.state_dtype, DType::kFloat32);
  EXPECT_DOUBLE_EQ(c.overhead.temporary_fraction, 0.10);
  EXPECT_DOUBLE_EQ(c.overhead.budget_fraction, 0.95);
  // What share links diff against is exactly this config.
  EXPECT_EQ(ConfigToJson(c), DefaultConfigJson());
}

TEST(ConfigTest, PresetModelCopiesArchitectureNameAndNominalSize) {
  Config c = MustParse(R"({"model": "llama3-8b"})");
  EXPECT_EQ(c.model_id, "llama3-8b");
  EXPECT_EQ(c.model_name, TestPresets().FindModel("llama3-8b")->name);
  EXPECT_EQ(c.model.hidden_size, 4096);
  EXPECT_EQ(c.model.num_layers, 32);
  EXPECT_EQ(c.model.num_heads, 32);
  EXPECT_EQ(c.model.num_kv_heads, 8);
  EXPECT_EQ(c.nominal_params, 8'000'000'000);
  EXPECT_EQ(c.nominal_expert_params, 0);
  EXPECT_EQ(ConfigToJson(c)["model"], "llama3-8b");
}

TEST(ConfigTest, InlineHfModelIsReadWithItsFieldNames) {
  Config c = MustParse(R"({"model": {"model_type": "llama", "hidden_size": 2048,
      "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8,
      "intermediate_size": 8192, "vocab_size": 128256, "tie_word_embeddings": true}})");
  EXPECT_TRUE(c.model_id.empty());
  EXPECT_EQ(c.model.hidden_size, 2048);
  EXPECT_EQ(c.model.num_layers, 16);
  EXPECT_EQ(c.model.num_kv_heads, 8);
  EXPECT_TRUE(c.model.tie_embeddings);
  // No size in a name: the template mode's nominal size is the exact count.
  EXPECT_EQ(c.nominal_params, CountParams(c.model, false).total);
  EXPECT_TRUE(ConfigToJson(c)["model"].is_object());
}

TEST(ConfigTest, CustomDeviceMemoryIsRoundedDownToBytes) {
  Config c = MustParse(R"({"model": "llama3-8b", "device": {"name": "H100", "memory_gib": 79.1}})");
  EXPECT_TRUE(c.device.id.empty());
  EXPECT_EQ(c.device.name, "H100");
  EXPECT_EQ(c.device.memory_bytes, 84'932'978'278);  // floor(79.1 × 2^30)
  EXPECT_EQ(c.device.devices_per_node, 8);
}

TEST(ConfigTest, LeftoverShardDegreeIsResolved) {
  Config c = MustParse(R"({"model": "llama3-8b", "world_size": 64,
      "parallelism": {"tensor_parallel_degree": 8, "pipeline_parallel_degree": 2}})");
  Result<Layout> layout = ResolveLayout(c);
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout.value().dp_shard, 4);  // 64 / (8 · 2)
  EXPECT_EQ(layout.value().tp, 8);
  EXPECT_EQ(layout.value().pp, 2);
  EXPECT_EQ(c.parallelism.dp_shard, -1);  // the config keeps what was given
  EXPECT_EQ(ConfigToJson(c)["parallelism"]["data_parallel_shard_degree"], -1);
}

TEST(ConfigTest, EnumAbbreviationsAndTorchtitanScheduleNames) {
  Config c = MustParse(R"({"model": "llama3-8b", "world_size": 2,
      "training": {"mixed_precision_param": "fp16"},
      "optimizer": {"state_dtype": "bf16"},
      "parallelism": {"pipeline_parallel_degree": 2, "pipeline_parallel_schedule": "ZBVZeroBubble"}})");
  EXPECT_EQ(c.training.mixed_precision_param, DType::kFloat16);
  EXPECT_EQ(c.optimizer.state_dtype, DType::kBFloat16);
  EXPECT_EQ(c.parallelism.pp_schedule, PpSchedule::kZeroBubble);
  EXPECT_EQ(ConfigToJson(c)["training"]["mixed_precision_param"], "float16");
}

TEST(ConfigTest, FreeTextOptimizerAndScheduleAreReadByTheirName) {
  // As in tests/data/calibration.jsonl (Megatron runs).
  Config c = MustParse(R"j({"model": "llama3-8b", "world_size": 4, "framework": "megatron",
      "optimizer": {"name": "Adam (Megatron default, decoupled wd; NPU fused adamw)"},
      "parallelism": {"pipeline_parallel_degree": 4, "pipeline_parallel_schedule":
                      "interleaved-1F1B (1 layer per virtual stage => 8 chunks/rank)"}})j");
  EXPECT_EQ(c.optimizer.name, OptimizerKind::kAdam);
  EXPECT_EQ(c.parallelism.pp_schedule, PpSchedule::kInterleaved1F1B);
  EXPECT_EQ(c.parallelism.pp_layers_per_stage, 1);
  c = MustParse(R"j({"model": "llama3-8b", "optimizer": {"name": "AdamW (torch, bf16 states)"}})j");
  EXPECT_EQ(c.optimizer.name, OptimizerKind::kAdamW);
}

TEST(ConfigTest, SelectiveAcOptionAcceptsOpOrABlockInterval) {
  EXPECT_EQ(
      MustParse(R"({"model": "llama3-8b", "activation_checkpoint": {"selective_ac_option": "op"}})")
          .activation_checkpoint.selective_ac_option,
      "op");
  EXPECT_EQ(
      MustParse(R"({"model": "llama3-8b", "activation_checkpoint": {"selective_ac_option": 3}})")
          .activation_checkpoint.selective_ac_option,
      "3");
}

// Every measured run is a real input: all of them must read and validate.
TEST(ConfigTest, EveryCalibrationConfigParses) {
  std::ifstream in(TRAINMEM_SOURCE_DIR "/tests/data/calibration.jsonl");
  ASSERT_TRUE(in) << "missing tests/data/calibration.jsonl";
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    json row = json::parse(line, nullptr, false);
    ASSERT_FALSE(row.is_discarded());
    Result<Config> c = ConfigFromJson(row["config"], TestPresets());
    std::string all;
    for (const Error& e : c.errors()) all += FormatError(e) + "; ";
    EXPECT_TRUE(c.ok()) << row["id"] << ": " << all;
    ++rows;
  }
  EXPECT_GT(rows, 10);
}

// ConfigFromJson(ConfigToJson(c)) gives back the same JSON, every default written out.
TEST(ConfigTest, JsonRoundTrip) {
  const char* configs[] = {
      R"({"model": "llama3-8b"})",
      R"({"model": "deepseek-v3", "mode": "template", "framework": "torchtitan-npu",
          "world_size": 256, "training": {"local_batch_size": 4, "mtp": true, "dropout": 0.1},
          "parallelism": {"expert_parallel_degree": 32, "pipeline_parallel_degree": 8,
                          "pipeline_parallel_schedule": "Interleaved1F1B"},
          "optimizer": {"swap_optimizer": true, "swap_optimizer_times": 8},
          "compile": {"enable": true, "components": ["loss"]}})",
      R"({"model": "mixtral-8x7b", "framework": "megatron", "world_size": 8,
          "parallelism": {"tensor_parallel_degree": 4, "expert_parallel_degree": 2,
                          "expert_tensor_parallel_degree": 4, "zero_stage": 1},
          "optimizer": {"name": "SGD", "momentum": 0.0}, "overhead": {"temporary_fraction": 0.0}})",
      R"({"model": {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
          "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
          "vocab_size": 128256}, "device": {"name": "NPU 64", "memory_gib": 64, "devices_per_node": 16}})",
  };
  for (const char* text : configs) {
    const json first = ConfigToJson(MustParse(text));
    Result<Config> again = ConfigFromJson(first, TestPresets());
    ASSERT_TRUE(again.ok()) << text << "\n" << FormatError(again.errors().front());
    EXPECT_EQ(ConfigToJson(again.value()), first) << text;
  }
}

TEST(ConfigTest, ApplySettingTakesAliasesAndDottedKeys) {
  Config c = MustParse(R"({"model": "llama3-8b"})");
  c = With(c, {{"ws", "16"},
               {"tp", "8"},
               {"parallelism.pipeline_parallel_degree", "2"},
               {"mode", "template"},
               {"fp8", "1"},
               {"sp", "false"},
               {"dropout", "0.1"},
               {"acopt", "op"},
               {"opt", "Lion"},
               {"b", "4"},
               {"s", "8192"}});
  EXPECT_EQ(c.world_size, 16);
  EXPECT_EQ(c.parallelism.tp, 8);
  EXPECT_EQ(c.parallelism.pp, 2);
  EXPECT_EQ(c.mode, Mode::kTemplate);  // not JSON, so read as the string "template"
  EXPECT_TRUE(c.training.fp8);
  EXPECT_FALSE(c.parallelism.sequence_parallel);
  EXPECT_DOUBLE_EQ(c.training.dropout.value_or(-1), 0.1);
  EXPECT_EQ(c.activation_checkpoint.selective_ac_option, "op");
  EXPECT_EQ(c.optimizer.name, OptimizerKind::kLion);
  EXPECT_EQ(c.training.local_batch_size, 4);
  EXPECT_EQ(c.training.seq_len, 8192);
}

TEST(ConfigTest, ApplySettingKeepsStringKeysAsTypedAndSplitsLists) {
  Config c = With(MustParse(R"({"model": "llama3-8b"})"),
                  {{"acopt", "3"}, {"compile.components", "model"}, {"dropout", "null"}});
  EXPECT_EQ(c.activation_checkpoint.selective_ac_option, "3");
  EXPECT_TRUE(c.compile.model);
  EXPECT_FALSE(c.compile.loss);
  EXPECT_FALSE(c.training.dropout.has_value());
}

TEST(ConfigTest, ApplySettingEditsAPresetIntoAnInlineCopy) {
  Config c = With(MustParse(R"({"model": "llama3-8b"})"),
                  {{"model.num_hidden_layers", "16"}, {"device.memory_gib", "64"}});
  EXPECT_TRUE(c.model_id.empty());
  EXPECT_EQ(c.model.num_layers, 16);
  EXPECT_EQ(c.model.hidden_size, 4096);
  EXPECT_TRUE(c.device.id.empty());
  EXPECT_EQ(c.device.memory_bytes, std::int64_t{64} << 30);
  c = With(c, {{"model", "llama3-70b"}});
  EXPECT_EQ(c.model_id, "llama3-70b");
}

TEST(ConfigTest, ApplySettingReportsTheKeyAndLeavesTheInputAlone) {
  const Config c = MustParse(R"({"model": "llama3-8b"})");
  Result<Config> bad = ApplySetting(c, "tp", "abc", TestPresets());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors().front().path, "parallelism.tensor_parallel_degree");
  EXPECT_EQ(bad.errors().front().message, "expected an integer, got a string");
  Result<Config> typo = ApplySetting(c, "parallelism.tensor_paralel_degree", "2", TestPresets());
  ASSERT_FALSE(typo.ok());
  EXPECT_EQ(typo.errors().front().message, "unknown key; did you mean tensor_parallel_degree?");
  EXPECT_EQ(c.parallelism.tp, 1);
}

TEST(ConfigTest, AliasTableResolvesBothWays) {
  EXPECT_EQ(ResolveSettingKey("dp"), "parallelism.data_parallel_shard_degree");
  EXPECT_EQ(ResolveSettingKey("tmp"), "overhead.temporary_fraction");
  EXPECT_EQ(ResolveSettingKey("optimizer.momentum"), "optimizer.momentum");
  EXPECT_EQ(ShortSettingKey("activation_checkpoint.mode"), "ac");
  for (const SettingAlias& a : SettingAliases()) {
    EXPECT_EQ(ResolveSettingKey(a.alias), a.path);
    EXPECT_EQ(ShortSettingKey(a.path), a.alias);  // one alias per path
  }
}

}  // namespace
}  // namespace trainmem

namespace trainmem {
namespace {

// A hub id or a model's name that names a preset as a whole word is that preset, as people
// copy it from a model card; one that names none is still an error, and a longer name is not
// taken for a shorter one ("Qwen2.5-VL-7B" is not qwen2.5-7b, "Llama-3.1-8B" not llama3-8b).
TEST(ConfigTest, ModelByHubIdOrName) {
  auto id_of = [](const std::string& text) {
    Result<Config> r = ParseConfig(nlohmann::json{{"model", text}}.dump(), testing::TestPresets());
    return r.ok() ? r.value().model_id : std::string("error");
  };
  EXPECT_EQ(id_of("Qwen/Qwen2.5-7B-Instruct"), "qwen2.5-7b");
  EXPECT_EQ(id_of("meta-llama/Llama-3.1-8B"), "llama3.1-8b");
  EXPECT_EQ(id_of("Llama 3 70B"), "llama3-70b");
  EXPECT_EQ(id_of("Qwen/Qwen2.5-VL-7B-Instruct"), "qwen2.5-vl-7b");
  EXPECT_EQ(id_of("xyz"), "error");
  EXPECT_EQ(id_of("llama3-7b"), "error");
}

}  // namespace
}  // namespace trainmem
