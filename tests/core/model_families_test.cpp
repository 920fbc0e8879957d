// Config.json read by its fields: the 2025 families (tests/data/reference_models_2025.jsonl, each
// row's published total and where it comes from), hand-derived layer counts, warnings, and
// fields honoured whatever the model_type.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/model/model.h"
#include "core/model/presets.h"
#include "data/builtin_presets.h"
#include "test_support.h"

namespace trainmem {
namespace {

using nlohmann::json;

std::vector<json> Rows() { return testing::ModelRows("reference_models_2025.jsonl"); }

json ConfigOf(const std::string& id) {
  return testing::ModelRowConfig("reference_models_2025.jsonl", id);
}

ModelArch Parse(const json& config) { return testing::MustParseModel(config); }

using testing::HasWarningWith;

TEST(ModelFamilies, PublishedTotalsWithinHalfAPercent) {
  const std::vector<json> rows = Rows();
  ASSERT_EQ(rows.size(), 55u);
  for (const json& row : rows) {
    const std::string id = row.at("id");
    const ModelArch arch = Parse(row.at("config"));
    // What the config describes as the checkpoint stores it: MTP layers and a vision tower (the
    // row derives the tower's size by hand in its notes: the counted one must equal it).
    const std::int64_t counted = CountParams(arch, true).total;
    const std::int64_t published = row.at("official_total_params");
    if (row.contains("vision_params")) EXPECT_EQ(arch.vision_params, row.at("vision_params")) << id;
    if (row.at("official_is_exact")) {
      EXPECT_EQ(counted, published) << id;
    }
    const double error = std::fabs(static_cast<double>(counted - published)) / published;
    EXPECT_LE(error, 0.005) << id << ": counted " << counted << " published " << published;
  }
}

// Qwen3-Next-80B-A3B (h 2048, Gated DeltaNet nk 16 × dk 128, nv 32 × dv 128, conv 4):
//   in_proj_qkvz 2048·(2·2048 + 2·4096) = 25,165,824; in_proj_ba 2048·64 = 131,072;
//   conv1d 8192·4 = 32,768; dt_bias + A_log 64; norm 128; out_proj 4096·2048 = 8,388,608
//   → 33,718,464.
// Gated attention (16 × 256, kv 2): q_proj 2048·8192 = 16,777,216 (query + gate), k/v
//   2·2048·512 = 2,097,152, o 4096·2048 = 8,388,608, q/k norms 512 → 27,263,488.
// MoE: 512 experts · 3·2048·512 = 1,610,612,736 + router 1,048,576 + shared expert 3,145,728
//   + shared gate 2048 → 1,614,809,088.
TEST(ModelFamilies, Qwen3NextLayersByHand) {
  const ModelArch arch = Parse(ConfigOf("qwen3-next-80b-a3b"));
  ASSERT_EQ(arch.layer_mixer.size(), 48u);
  // full_attention_interval 4: layers 3, 7, 11, … are softmax attention.
  EXPECT_EQ(arch.MixerOf(0), MixerKind::kGatedDeltaNet);
  EXPECT_EQ(arch.MixerOf(3), MixerKind::kAttention);
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  EXPECT_EQ(layers[0].attention, 33718464);
  EXPECT_EQ(layers[3].attention, 27263488);
  EXPECT_EQ(layers[0].dense_mlp + layers[0].router + layers[0].routed_experts, 1614809088);
  // MTP: one full-attention MoE block + fc 2·2048·2048 + three norms, no embedding copies.
  EXPECT_EQ(arch.num_mtp_layers, 1);
  EXPECT_EQ(CountParams(arch, true).mtp, 27263488 + 1614809088 + 4096 + 8388608 + 3 * 2048);
}

// MiniMax-Text-01 (h 6144, 64 heads × 128, kv 8): lightning layer qkv 6144·24576 + gate
// 6144·8192 + norm 8192 + out 8192·6144 = 251,666,432; softmax layer 6144·(8192 + 2·1024)
// + 8192·6144 = 113,246,208. attn_type_list puts the softmax layer 8th of every 8.
TEST(ModelFamilies, MiniMaxLightningLayersByHand) {
  const ModelArch arch = Parse(ConfigOf("minimax-text-01"));
  EXPECT_EQ(arch.MixerOf(0), MixerKind::kLightning);
  EXPECT_EQ(arch.MixerOf(7), MixerKind::kAttention);
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  EXPECT_EQ(layers[0].attention, 251666432);
  EXPECT_EQ(layers[7].attention, 113246208);
  EXPECT_TRUE(HasWarningWith(arch, "70 of 80 layers use lightning linear attention"));
  EXPECT_FALSE(HasWarningWith(arch, "without linear_* sizes"));  // the family says which kind
}

// Llama 4: dense blocks intermediate_size_mlp wide, MoE blocks with one shared expert as wide
// as the routed ones; use_qk_norm is a weightless L2 norm.
TEST(ModelFamilies, Llama4InterleavedMoeWithSharedExpert) {
  const ModelArch maverick = Parse(ConfigOf("llama4-maverick"));
  EXPECT_FALSE(maverick.layer_is_moe[0]);  // interleave_moe_layer_step 2: layers 1, 3, 5, …
  EXPECT_TRUE(maverick.layer_is_moe[1]);
  EXPECT_FALSE(maverick.qk_norm);
  const std::vector<LayerParams> layers = CountLayerParams(maverick);
  EXPECT_EQ(layers[0].dense_mlp, 3LL * 5120 * 16384);
  EXPECT_EQ(layers[1].dense_mlp, 3LL * 5120 * 8192);  // the shared expert
  EXPECT_EQ(layers[1].routed_experts, 128LL * 3 * 5120 * 8192);
  EXPECT_EQ(layers[1].router, 128 * 5120);
  const ModelArch scout = Parse(ConfigOf("llama4-scout"));
  EXPECT_TRUE(scout.layer_is_moe[0]);
  EXPECT_TRUE(HasWarningWith(scout, "vision tower"));
}

TEST(ModelFamilies, NormsAndBiasesByFamily) {
  // Command R: one bias-free LayerNorm per parallel block, tied embeddings.
  const ModelArch r = Parse(ConfigOf("command-r-v01"));
  EXPECT_EQ(r.norm, NormKind::kLayerNormNoBias);
  EXPECT_EQ(r.norms_per_layer, 1);
  EXPECT_TRUE(r.tie_embeddings);
  // Command R+: per-head q/k LayerNorm weights: 96·128 + 8·128 per layer.
  const ModelArch plus = Parse(ConfigOf("command-r-plus"));
  const std::int64_t qkvo = 12288LL * (12288 + 2 * 1024) + 12288LL * 12288;
  EXPECT_EQ(CountLayerParams(plus)[0].attention, qkvo + 96 * 128 + 8 * 128);
  // OLMo 2: q_norm over 32·128, k_norm over 32·128.
  const ModelArch olmo = Parse(ConfigOf("olmo2-7b"));
  EXPECT_EQ(CountLayerParams(olmo)[0].attention, 4LL * 4096 * 4096 + 2 * 4096);
  // DBRX: nested sizes lifted, bias-free LayerNorm.
  const ModelArch dbrx = Parse(ConfigOf("dbrx"));
  EXPECT_EQ(dbrx.num_kv_heads, 8);
  EXPECT_EQ(dbrx.num_experts, 16);
  EXPECT_EQ(dbrx.experts_per_token, 4);
  EXPECT_EQ(dbrx.moe_intermediate_size, 10752);
  EXPECT_EQ(dbrx.norm, NormKind::kLayerNormNoBias);
}

// ERNIE-4.5-21B-A3B (h 2560, 28 layers, 20 heads / 4 kv × 128, 64 experts × 1536, 2 shared,
// dense first layer 12288 wide, vocab 103424 tied). Baidu names it "21B"; its own sizes give:
//   attention 2·2560² + 2·2560·512 = 15,728,640; norms 5120;
//   MoE block 64·11,796,480 + 2·11,796,480 + router 163,840 + score bias 64 = 778,731,584;
//   dense block 3·2560·12288 = 94,371,840;
//   27·(15,728,640 + 5120 + 778,731,584) + (15,728,640 + 5120 + 94,371,840)
//   + 103424·2560 + 2560 = 21,825,437,888.
TEST(ModelFamilies, Ernie21BByHand) {
  const json config = {{"architectures", {"Ernie4_5_MoeForCausalLM"}},
                       {"model_type", "ernie4_5_moe"},
                       {"hidden_size", 2560},
                       {"intermediate_size", 12288},
                       {"moe_intermediate_size", 1536},
                       {"moe_k", 6},
                       {"moe_layer_start_index", 1},
                       {"moe_layer_end_index", 27},
                       {"moe_layer_interval", 1},
                       {"moe_num_experts", 64},
                       {"moe_num_shared_experts", 2},
                       {"num_attention_heads", 20},
                       {"num_hidden_layers", 28},
                       {"num_key_value_heads", 4},
                       {"tie_word_embeddings", true},
                       {"use_bias", false},
                       {"vocab_size", 103424}};
  const ModelArch arch = Parse(config);
  EXPECT_FALSE(arch.layer_is_moe[0]);
  EXPECT_TRUE(arch.layer_is_moe[1]);
  EXPECT_EQ(CountParams(arch, true).total, 21825437888);
}

// The case: a DeepSeek-V3 architecture under a model_type trainmem does not name keeps
// first_k_dense_replace (3 dense blocks) and says what it assumed.
TEST(ModelFamilies, FieldsHonouredWhateverTheModelType) {
  json v3 = ConfigOf("kimi-k2");
  const ModelArch kimi = Parse(v3);
  EXPECT_TRUE(HasWarningWith(kimi, "DeepseekV3ForCausalLM"));
  v3.erase("architectures");
  v3["model_type"] = "brand_new_moe";
  const ModelArch unknown = Parse(v3);
  EXPECT_TRUE(HasWarningWith(unknown, "\"brand_new_moe\" is not one trainmem knows"));
  EXPECT_TRUE(HasWarningWith(unknown, "Llama-style"));
  EXPECT_TRUE(HasWarningWith(unknown,
                             "found: multi-head latent attention, 384 routed experts "
                             "(top-8) in 60 of 61 layers + 1 shared"));
  EXPECT_FALSE(unknown.layer_is_moe[0]);  // first_k_dense_replace 1
  EXPECT_TRUE(unknown.layer_is_moe[1]);
  EXPECT_EQ(unknown.attention, AttentionKind::kMla);
  EXPECT_EQ(CountParams(unknown, true).total, CountParams(kimi, true).total);
  // decoder_sparse_step / mlp_only_layers work for any model_type as well.
  json llama = {{"model_type", "llama"},    {"hidden_size", 256},       {"num_hidden_layers", 4},
                {"num_attention_heads", 4}, {"intermediate_size", 512}, {"vocab_size", 1000},
                {"num_local_experts", 4},   {"num_experts_per_tok", 2}, {"decoder_sparse_step", 2}};
  const ModelArch sparse = Parse(llama);
  EXPECT_FALSE(sparse.layer_is_moe[0]);
  EXPECT_TRUE(sparse.layer_is_moe[1]);
}

TEST(ModelFamilies, ErrorsNameTheField) {
  json hunyuan = ConfigOf("hunyuan-a13b");
  hunyuan["moe_topk"][3] = 2;
  Result<ModelArch> uneven = ParseModelArch(hunyuan, "model");
  ASSERT_FALSE(uneven.ok());
  EXPECT_EQ(uneven.errors().front().path, "model.moe_topk");
  json hybrid = ConfigOf("olmo2-7b");
  hybrid["layer_types"] = json::array();
  for (int i = 0; i < 32; ++i) hybrid["layer_types"].push_back(i == 0 ? "recurrent" : "attention");
  Result<ModelArch> unknown = ParseModelArch(hybrid, "model");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.errors().front().path, "model.layer_types[0]");
  EXPECT_NE(unknown.errors().front().message.find("mamba"), std::string::npos);  // what is known
  // Mamba-2 sizes that disagree: 100 heads × 64 is not mamba_expand 2 × hidden 4096.
  hybrid["layer_types"][0] = "mamba";
  hybrid["mamba_n_heads"] = 100;
  hybrid["mamba_d_head"] = 64;
  Result<ModelArch> mamba = ParseModelArch(hybrid, "model");
  ASSERT_FALSE(mamba.ok());
  EXPECT_EQ(mamba.errors().front().path, "model.mamba_n_heads");
}

// The tensor shapes optimizers use add up to the exact count, for every preset and row.
TEST(ModelFamilies, TensorShapesAddUpToTheCount) {
  std::vector<std::pair<std::string, ModelArch>> archs;
  const Presets presets = BuiltinPresets();
  for (const auto& [id, preset] : presets.models) archs.emplace_back(id, preset.arch);
  for (const json& row : Rows()) archs.emplace_back(row.at("id"), Parse(row.at("config")));
  for (const auto& [id, arch] : archs) {
    std::int64_t main = 0, mtp = 0;
    for (const ParamTensor& t : ParamTensors(arch)) {
      (t.group == ParamTensor::kMtp ? mtp : main) += t.elements();
    }
    EXPECT_EQ(main, CountParams(arch, false).total) << id;
    EXPECT_EQ(mtp, arch.num_mtp_layers * MtpModuleParams(arch, false)) << id;
  }
}

TEST(ModelFamilies, RoundTripKeepsLayersAndCounts) {
  for (const json& row : Rows()) {
    const ModelArch arch = Parse(row.at("config"));
    const ModelArch back = Parse(ModelArchToJson(arch));
    const std::string id = row.at("id");
    EXPECT_EQ(CountParams(back, true).total, CountParams(arch, true).total) << id;
    EXPECT_EQ(back.layer_mixer, arch.layer_mixer) << id;
    EXPECT_EQ(back.layer_is_moe, arch.layer_is_moe) << id;
  }
}

// Linear-attention layers keep no seq × seq scores: with eager attention a MiniMax model whose
// layers are all lightning saves none, one with softmax layers does.
TEST(ModelFamilies, LinearAttentionLayersKeepNoScores) {
  json model = ConfigOf("minimax-text-01");
  model.update({{"num_hidden_layers", 2}, {"attn_type_list", {0, 0}}, {"num_local_experts", 4}});
  const Presets presets = BuiltinPresets();
  auto scores = [&](const json& m) {
    json job = {{"model", m},
                {"training", {{"attention", "eager"}, {"local_batch_size", 1}}},
                {"activation_checkpoint", {{"mode", "none"}}}};
    Result<Config> config = ParseConfig(job.dump(), presets);
    EXPECT_TRUE(config.ok());
    return config.ok() ? EstimateMemory(config.value()).stages[0].activations.saved_layers : 0;
  };
  const std::int64_t linear = scores(model);
  model["attn_type_list"] = {1, 1};
  const std::int64_t softmax = scores(model);
  // The softmax layers save 64 heads × 2048 keys × 2 bytes of probabilities per token (256 KiB),
  // more than everything a lightning layer saves (about 15 × 8192 × 2 bytes).
  EXPECT_GT(softmax - linear, 2LL * 2048 * (64 * 2048 * 2 - 15 * 8192 * 2));
  model["attn_type_list"] = {0, 0};
  json job = {{"model", model}};
  Result<Config> config = ParseConfig(job.dump(), presets);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(EstimateMemory(config.value()).stages[0].activations.attention_scores, 0);
}

// Every preset id is kept (old share links name them), but no two presets read alike in the
// list: names differ even ignoring case, spaces and punctuation.
TEST(ModelFamilies, PresetNamesAreDistinct) {
  const Presets presets = BuiltinPresets();
  std::vector<std::string> seen;
  for (const auto& [id, preset] : presets.models) {
    std::string key;
    for (char ch : preset.name) {
      if (std::isalnum(static_cast<unsigned char>(ch)))
        key += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    for (const std::string& other : seen) EXPECT_NE(key, other) << id << " " << preset.name;
    seen.push_back(key);
  }
  EXPECT_NE(presets.FindModel("llama3-405b"), nullptr);  // the old id still opens
  // Each new family has a preset whose count is its config's.
  for (const char* id : {"llama4-scout", "qwen3-next-80b-a3b", "minimax-m2", "olmo2-7b", "phi4",
                         "command-r", "dbrx"}) {
    const ModelPreset* preset = presets.FindModel(id);
    ASSERT_NE(preset, nullptr) << id;
    EXPECT_GT(CountParams(preset->arch, false).total, 0) << id;
  }
}

}  // namespace
}  // namespace trainmem
