// ParseModelArch / CountParams: hand-derived breakdowns, MoE splits, errors, round trips.
#include "core/model/model.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "data/builtin_presets.h"

namespace trainmem {
namespace {

using nlohmann::json;

ModelArch Parse(const json& config) {
  Result<ModelArch> arch = ParseModelArch(config, "model");
  EXPECT_TRUE(arch.ok()) << FormatError(arch.errors().front());
  return arch.ok() ? arch.value() : ModelArch{};
}

// The single error ParseModelArch reports for `config`.
Error OnlyError(const json& config) {
  Result<ModelArch> arch = ParseModelArch(config, "model");
  EXPECT_FALSE(arch.ok());
  EXPECT_EQ(arch.errors().size(), 1u);
  return arch.ok() ? Error{} : arch.errors().front();
}

json Llama3_8B() {
  return {{"model_type", "llama"},     {"hidden_size", 4096},         {"num_hidden_layers", 32},
          {"num_attention_heads", 32}, {"num_key_value_heads", 8},    {"intermediate_size", 14336},
          {"vocab_size", 128256},      {"tie_word_embeddings", false}};
}

TEST(ModelCount, Llama3_8BByHand) {
  const ModelArch arch = Parse(Llama3_8B());
  EXPECT_EQ(arch.head_dim, 128);  // 4096 / 32
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  ASSERT_EQ(layers.size(), 32u);
  // q 4096×4096, k and v 4096×(8×128), o 4096×4096: 4096·(4096 + 2·1024 + 4096).
  EXPECT_EQ(layers[0].attention, 4096LL * (4096 + 2 * 1024 + 4096));  // 41,943,040
  EXPECT_EQ(layers[0].dense_mlp, 3LL * 4096 * 14336);                 // 176,160,768
  EXPECT_EQ(layers[0].norms, 2 * 4096);                               // two RMSNorms
  EXPECT_EQ(layers[0].router + layers[0].routed_experts, 0);
  const ParamCounts c = CountParams(arch, false);
  EXPECT_EQ(c.embedding, 128256LL * 4096);  // 525,336,576
  EXPECT_EQ(c.output_head, 128256LL * 4096);
  EXPECT_EQ(c.final_norm, 4096);
  // 2 × 525,336,576 + 32 × 218,112,000 + 4096
  EXPECT_EQ(c.total, 8030261248);
  EXPECT_EQ(c.active, c.total);
  EXPECT_EQ(c.dense, c.total);
  EXPECT_EQ(c.expert, 0);
}

TEST(ModelCount, MixtralSplit) {
  json config = Llama3_8B();
  config.update({{"model_type", "mixtral"},
                 {"vocab_size", 32000},
                 {"num_local_experts", 8},
                 {"num_experts_per_tok", 2}});
  const ModelArch arch = Parse(config);
  const LayerParams layer = CountLayerParams(arch)[0];
  // Experts are intermediate_size wide: 8 × 3 × 4096 × 14336; router 8 × 4096, no bias.
  EXPECT_EQ(layer.routed_experts, 8LL * 3 * 4096 * 14336);  // 1,409,286,144
  EXPECT_EQ(layer.active_routed, 2LL * 3 * 4096 * 14336);
  EXPECT_EQ(layer.router, 8 * 4096);
  EXPECT_EQ(layer.dense_mlp, 0);
  const ParamCounts c = CountParams(arch, false);
  EXPECT_EQ(c.expert, 32 * 1409286144LL);  // 45,097,156,608
  // Dense: embed + head 2·32000·4096 + 32 × (41,943,040 + 8,192 + 32,768) + 4096.
  EXPECT_EQ(c.dense, 262144000LL + 32 * 41984000LL + 4096);  // 1,605,636,096
  EXPECT_EQ(c.total, 46702792704);                           // HF safetensors total
  EXPECT_EQ(c.active, c.dense + 32 * 352321536LL);           // 12,879,925,248 ("12.9B")
}

TEST(ModelCount, Qwen3MoeSplit) {
  const json config = {
      {"model_type", "qwen3_moe"},       {"hidden_size", 2048},          {"num_hidden_layers", 48},
      {"num_attention_heads", 32},       {"num_key_value_heads", 4},     {"head_dim", 128},
      {"intermediate_size", 6144},       {"vocab_size", 151936},         {"num_experts", 128},
      {"num_experts_per_tok", 8},        {"moe_intermediate_size", 768}, {"decoder_sparse_step", 1},
      {"mlp_only_layers", json::array()}};
  const ModelArch arch = Parse(config);
  const LayerParams layer = CountLayerParams(arch)[0];
  // q 2048→4096, k/v 2048→512, o 4096→2048, q_norm + k_norm over head_dim 128.
  EXPECT_EQ(layer.attention, 8388608 + 2 * 1048576 + 8388608 + 256);
  EXPECT_EQ(layer.router, 128 * 2048);
  EXPECT_EQ(layer.routed_experts, 128LL * 3 * 2048 * 768);  // 603,979,776
  EXPECT_EQ(layer.active_routed, 8LL * 3 * 2048 * 768);
  const ParamCounts c = CountParams(arch, false);
  EXPECT_EQ(c.expert, 28991029248);  // 48 × 603,979,776
  // 2 × 151936 × 2048 + 48 × (18,874,624 + 4,096 + 262,144) + 2048
  EXPECT_EQ(c.dense, 1541093376);
  EXPECT_EQ(c.total, 30532122624);
  // mlp_only_layers and decoder_sparse_step pick the dense blocks.
  json sparse = config;
  sparse["mlp_only_layers"] = {0, 5};
  sparse["decoder_sparse_step"] = 2;  // MoE where (i + 1) % 2 == 0
  const std::vector<LayerParams> layers = CountLayerParams(Parse(sparse));
  EXPECT_EQ(layers[0].routed_experts, 0);
  EXPECT_GT(layers[1].routed_experts, 0);
  EXPECT_EQ(layers[2].routed_experts, 0);
  EXPECT_EQ(layers[5].routed_experts, 0);
  EXPECT_EQ(layers[5].dense_mlp, 3LL * 2048 * 6144);
}

TEST(ModelCount, Gpt2LearnedPositionsAndLayerNorm) {
  const json config = {{"model_type", "gpt2"}, {"n_embd", 768},       {"n_layer", 12},
                       {"n_head", 12},         {"vocab_size", 50257}, {"n_positions", 1024},
                       {"n_inner", nullptr}};
  const ModelArch arch = Parse(config);
  EXPECT_TRUE(arch.learned_positions);
  EXPECT_TRUE(arch.tie_embeddings);
  EXPECT_EQ(arch.intermediate_size, 4 * 768);
  // Per block: ln_1 + ln_2 (weight and bias) 3,072; c_attn 768×2304 + 2304; attn c_proj
  // 768×768 + 768; c_fc 768×3072 + 3072; mlp c_proj 3072×768 + 768 → 7,087,872.
  EXPECT_EQ(CountLayerParams(arch)[0].total(), 7087872);
  // wte 50257×768 + wpe 1024×768 + 12 blocks + ln_f 1,536, head tied.
  EXPECT_EQ(CountParams(arch, false).total, 124439808);
}

TEST(ModelCount, MegatronGptPositionsAreRopeUnlessSaid) {
  json config = {{"model_type", "starcoder2"}, {"hidden_size", 512},
                 {"num_hidden_layers", 12},    {"num_attention_heads", 8},
                 {"intermediate_size", 2048},  {"vocab_size", 50257},
                 {"use_bias", true},           {"max_position_embeddings", 1024}};
  const ModelArch rope = Parse(config);
  EXPECT_FALSE(rope.learned_positions);
  EXPECT_EQ(rope.mlp, MlpKind::kPlain);
  config["position_embedding_type"] = "learned_absolute";
  const ModelArch learned = Parse(config);
  EXPECT_EQ(CountParams(learned, false).total - CountParams(rope, false).total, 1024 * 512);
}

TEST(ModelCount, MultimodalConfigReadsTextConfig) {
  const json config = {{"model_type", "gemma3"},
                       {"text_config",
                        {{"model_type", "gemma3_text"},
                         {"hidden_size", 3840},
                         {"num_hidden_layers", 48},
                         {"num_attention_heads", 16},
                         {"num_key_value_heads", 8},
                         {"head_dim", 256},
                         {"intermediate_size", 15360},
                         {"vocab_size", 262208}}}};
  const ModelArch arch = Parse(config);
  EXPECT_TRUE(arch.qk_norm);
  EXPECT_EQ(arch.norms_per_layer, 4);
  EXPECT_EQ(CountParams(arch, false).total, 11766034176);  // reference notes, text only
  // Gemma 3: 5 sliding layers, then a global one.
  ASSERT_EQ(arch.layer_uses_sliding.size(), 48u);
  EXPECT_TRUE(arch.layer_uses_sliding[4]);
  EXPECT_FALSE(arch.layer_uses_sliding[5]);
}

TEST(ModelParseErrors, MissingHiddenSize) {
  json config = Llama3_8B();
  config.erase("hidden_size");
  const Error e = OnlyError(config);
  EXPECT_EQ(e.path, "model.hidden_size");
  EXPECT_EQ(e.message, "missing required field");
}

TEST(ModelParseErrors, NegativeLayers) {
  json config = Llama3_8B();
  config["num_hidden_layers"] = -4;
  const Error e = OnlyError(config);
  EXPECT_EQ(e.path, "model.num_hidden_layers");
  EXPECT_EQ(e.message, "must be at least 1 (got -4)");
}

TEST(ModelParseErrors, StringWhereNumberExpected) {
  json config = Llama3_8B();
  config["hidden_size"] = "4096";
  const Error e = OnlyError(config);
  EXPECT_EQ(e.path, "model.hidden_size");
  EXPECT_EQ(e.message, "expected an integer, got a string");
}

TEST(ModelParseErrors, AbsurdVocab) {
  json config = Llama3_8B();
  config["vocab_size"] = 1000000000000LL;
  const Error e = OnlyError(config);
  EXPECT_EQ(e.path, "model.vocab_size");
  EXPECT_EQ(e.message.rfind("must be at most 100,000,000 (got 1,000,000,000,000)", 0), 0u)
      << e.message;
  EXPECT_NE(e.message.find("overflow"), std::string::npos);
}

TEST(ModelParseErrors, OtherWrongInputs) {
  json config = Llama3_8B();
  config["hidden_size"] = 4096.5;
  // The same words as the config reader (field_reader.h): path, what was expected, the value.
  EXPECT_EQ(OnlyError(config).message, "expected an integer, got 4096.5");
  config = Llama3_8B();
  config["num_key_value_heads"] = 7;
  EXPECT_EQ(OnlyError(config).path, "model.num_key_value_heads");
  config = Llama3_8B();
  config["tie_word_embeddings"] = "no";
  EXPECT_EQ(OnlyError(config).message, "expected true or false, got a string");
  config = Llama3_8B();
  config.update({{"hidden_size", 4000}, {"num_attention_heads", 3}});  // 4000 / 3: no head_dim
  EXPECT_EQ(OnlyError(config).path, "model.head_dim");
  config = Llama3_8B();
  config.update({{"model_type", "mixtral"}, {"num_local_experts", 8}});
  EXPECT_EQ(OnlyError(config).path, "model.num_experts_per_tok");
  config["num_experts_per_tok"] = 9;
  EXPECT_EQ(OnlyError(config).message, "must be at most 8 (got 9)");
  EXPECT_EQ(OnlyError(json::array()).path, "model");
}

TEST(ModelParseErrors, CountThatWouldOverflowIsRejected) {
  // Every field within its bound, but 10,000 layers × 100,000 experts × 3 × 1e6 × 1e6
  // is far beyond int64.
  const json config = {{"model_type", "qwen3_moe"},       {"hidden_size", 1000000},
                       {"num_hidden_layers", 10000},      {"num_attention_heads", 1000},
                       {"intermediate_size", 1000000},    {"vocab_size", 1000},
                       {"num_experts", 100000},           {"num_experts_per_tok", 1},
                       {"moe_intermediate_size", 1000000}};
  const Error e = OnlyError(config);
  EXPECT_EQ(e.path, "model");
  EXPECT_NE(e.message.find("overflows 64-bit"), std::string::npos);
}

TEST(ModelParseErrors, IndexerNeedsTheQueryLatent) {
  const json config = {{"model_type", "deepseek_v32"}, {"hidden_size", 2048},
                       {"num_hidden_layers", 4},       {"num_attention_heads", 16},
                       {"intermediate_size", 10944},   {"vocab_size", 102400},
                       {"kv_lora_rank", 512},          {"qk_nope_head_dim", 128},
                       {"qk_rope_head_dim", 64},       {"v_head_dim", 128},
                       {"index_n_heads", 64},          {"index_head_dim", 128}};
  EXPECT_EQ(OnlyError(config).path, "model.index_n_heads");
}

// ModelArchToJson ∘ ParseModelArch keeps every preset's counts and fields.
TEST(ModelRoundTrip, EveryPreset) {
  const Presets presets = BuiltinPresets();
  ASSERT_FALSE(presets.models.empty());
  for (const auto& [id, preset] : presets.models) {
    const json written = ModelArchToJson(preset.arch);
    const ModelArch back = Parse(written);
    for (bool mtp : {false, true}) {
      const ParamCounts a = CountParams(preset.arch, mtp);
      const ParamCounts b = CountParams(back, mtp);
      EXPECT_EQ(a.total, b.total) << id;
      EXPECT_EQ(a.active, b.active) << id;
      EXPECT_EQ(a.expert, b.expert) << id;
      EXPECT_EQ(a.embedding, b.embedding) << id;
    }
    EXPECT_EQ(back.layer_is_moe, preset.arch.layer_is_moe) << id;
    EXPECT_EQ(back.layer_uses_sliding, preset.arch.layer_uses_sliding) << id;
    EXPECT_EQ(ModelArchToJson(back), written) << id;
  }
}

TEST(ModelRoundTrip, FlagsTheModelTypeDoesNotImply) {
  ModelArch arch = Parse(Llama3_8B());
  arch.qkv_bias = true;  // but no o bias: not expressible with attention_bias alone
  arch.norm = NormKind::kLayerNorm;
  arch.learned_positions = true;
  arch.max_position_embeddings = 8192;
  arch.layer_uses_sliding.assign(32, false);
  arch.layer_uses_sliding[3] = true;
  arch.sliding_window = 4096;
  const json written = ModelArchToJson(arch);
  EXPECT_EQ(written.at("o_bias"), false);
  EXPECT_EQ(written.at("norm_kind"), "layernorm");
  const ModelArch back = Parse(written);
  EXPECT_EQ(CountParams(back, false).total, CountParams(arch, false).total);
  EXPECT_TRUE(back.qkv_bias && !back.o_bias && back.learned_positions);
  EXPECT_EQ(back.layer_uses_sliding, arch.layer_uses_sliding);
}

}  // namespace
}  // namespace trainmem
