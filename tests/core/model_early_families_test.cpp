// Config.json files of the 2022–2024 families that a Llama-style reading gets badly wrong: OPT
// (learned positions with two extra rows, ReLU MLP, biases, word_embed_proj_dim projections, no
// final norm in OPT-350m), GPT-J (parallel block, bias-free attention, lm_head bias), MPT
// (d_model / expansion_ratio, no_bias), Qwen-1 (intermediate_size twice the MLP width), StableLM
// (LayerNorm with bias, q/k/v bias) and Baichuan 2. Read as Llama blocks, OPT-125m counted 190M
// and Qwen-7B 12.05B. Each count below is derived by hand from the family's modeling file; the
// configs are the published config.json fields.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/model/model.h"
#include "test_support.h"

namespace trainmem {
namespace {

using nlohmann::json;
using testing::MustParseModel;

std::int64_t Total(const json& config) { return CountParams(MustParseModel(config), true).total; }

// ModelArchToJson writes what ParseModelArch reads back to the same count, and the tensor shapes
// (what per-matrix optimizers see) add up to it.
void ExpectRoundTripAndShapes(const json& config) {
  const ModelArch arch = MustParseModel(config);
  const ModelArch back = MustParseModel(ModelArchToJson(arch));
  EXPECT_EQ(CountParams(back, true).total, CountParams(arch, true).total) << config.dump();
  std::int64_t shapes = 0;
  for (const ParamTensor& t : ParamTensors(arch)) shapes += t.elements();
  EXPECT_EQ(shapes, CountParams(arch, true).total) << config.dump();
  EXPECT_TRUE(arch.warnings.empty()) << config.dump();
}

json Opt(std::int64_t hidden, std::int64_t layers, std::int64_t heads, std::int64_t ffn) {
  return {{"architectures", {"OPTForCausalLM"}},
          {"activation_function", "relu"},
          {"do_layer_norm_before", true},
          {"ffn_dim", ffn},
          {"hidden_size", hidden},
          {"max_position_embeddings", 2048},
          {"model_type", "opt"},
          {"num_attention_heads", heads},
          {"num_hidden_layers", layers},
          {"vocab_size", 50272},
          {"word_embed_proj_dim", hidden}};
}

// OPT-125m (OPTDecoder, tied): embed_tokens 50,272 × 768 = 38,608,896; embed_positions
// (2,048 + 2) × 768 = 1,574,400; per layer q/k/v/out_proj 4 × (768² + 768) = 2,362,368,
// fc1 768·3,072 + 3,072 and fc2 3,072·768 + 768 = 4,722,432, two LayerNorms 3,072: 7,087,872,
// × 12 = 85,054,464; final_layer_norm 1,536. Total 125,239,296, the published count.
// OPT-350m: do_layer_norm_before false (no final LayerNorm), word_embed_proj_dim 512: embed_tokens
// 50,272 × 512 = 25,739,264, project_in and project_out 512 × 1,024 each = 1,048,576, positions
// 2,050 × 1,024 = 2,099,200; per layer 4 × (1,024² + 1,024) + (1,024·4,096 + 4,096) +
// (4,096·1,024 + 1,024) + 4,096 = 12,596,224, × 24 = 302,309,376. Total 331,196,416.
TEST(EarlyFamilies, OptCountsItsPositionsProjectionsAndBiases) {
  EXPECT_EQ(Total(Opt(768, 12, 12, 3072)), 125239296);
  json opt350 = Opt(1024, 24, 16, 4096);
  opt350["do_layer_norm_before"] = false;
  opt350["word_embed_proj_dim"] = 512;
  EXPECT_EQ(Total(opt350), 331196416);
  const ModelArch arch = MustParseModel(opt350);
  EXPECT_EQ(arch.mlp, MlpKind::kPlain);
  EXPECT_EQ(arch.norm, NormKind::kLayerNorm);
  EXPECT_EQ(arch.hidden_act, "relu");
  EXPECT_TRUE(arch.tie_embeddings && arch.learned_positions);
  EXPECT_FALSE(arch.final_norm);
  // enable_bias false drops every linear's bias: 24 × (4·1,024 + 4,096 + 1,024) = 221,184 fewer.
  opt350["enable_bias"] = false;
  EXPECT_EQ(Total(opt350), 331196416 - 221184);
  ExpectRoundTripAndShapes(Opt(768, 12, 12, 3072));
  ExpectRoundTripAndShapes(opt350);
}

// GPT-J-6B (GPTJBlock: ln_1 → attention and MLP in parallel): per layer ln_1 2·4,096, q/k/v/out
// 4 × 4,096² = 67,108,864 (no biases), fc_in 4,096·16,384 + 16,384 and fc_out 16,384·4,096 +
// 4,096 = 134,238,208: 201,355,264, × 28 = 5,637,947,392; wte 50,400 × 4,096 = 206,438,400;
// ln_f 8,192; lm_head 206,438,400 + its bias 50,400. Total 6,050,882,784.
TEST(EarlyFamilies, GptJHasAParallelBlockAndAnLmHeadBias) {
  const json gptj = {{"architectures", {"GPTJForCausalLM"}},
                     {"activation_function", "gelu_new"},
                     {"model_type", "gptj"},
                     {"n_embd", 4096},
                     {"n_head", 16},
                     {"n_inner", nullptr},
                     {"n_layer", 28},
                     {"n_positions", 2048},
                     {"rotary_dim", 64},
                     {"tie_word_embeddings", false},
                     {"vocab_size", 50400}};
  EXPECT_EQ(Total(gptj), 6050882784);
  const ModelArch arch = MustParseModel(gptj);
  EXPECT_EQ(arch.norms_per_layer, 1);
  EXPECT_FALSE(arch.qkv_bias || arch.o_bias || arch.learned_positions);
  EXPECT_TRUE(arch.mlp_bias && arch.head_bias);
  EXPECT_EQ(CountParams(arch, true).output_head, 206438400 + 50400);
  ExpectRoundTripAndShapes(gptj);
}

// MPT-7B (transformers' MptModel; ALiBi, no position table): per layer norm_1 and norm_2 weights
// (no_bias drops their biases) 2·4,096, Wqkv 4,096·12,288 = 50,331,648, out_proj 16,777,216,
// up_proj and down_proj 2 × 4,096·16,384 (expansion_ratio 4) = 134,217,728: 201,334,784, × 32 =
// 6,442,713,088; wte 50,432 × 4,096 = 206,569,472 (lm_head tied); norm_f 4,096. Total
// 6,649,286,656.
TEST(EarlyFamilies, MptReadsDModelExpansionRatioAndNoBias) {
  const json mpt = {{"architectures", {"MPTForCausalLM"}},
                    {"attn_config", {{"alibi", true}, {"attn_impl", "torch"}, {"qk_ln", false}}},
                    {"d_model", 4096},
                    {"expansion_ratio", 4},
                    {"max_seq_len", 2048},
                    {"model_type", "mpt"},
                    {"n_heads", 32},
                    {"n_layers", 32},
                    {"no_bias", true},
                    {"norm_type", "low_precision_layernorm"},
                    {"vocab_size", 50432}};
  EXPECT_EQ(Total(mpt), 6649286656);
  const ModelArch arch = MustParseModel(mpt);
  EXPECT_EQ(arch.norm, NormKind::kLayerNormNoBias);
  EXPECT_EQ(arch.intermediate_size, 16384);
  EXPECT_TRUE(arch.tie_embeddings);
  ExpectRoundTripAndShapes(mpt);
}

// Qwen-7B (QWenBlock): c_attn 4,096·12,288 + 12,288 (always biased), c_proj 4,096² (no_bias),
// w1, w2, c_proj of the MLP 3 × 4,096·11,008 (22,016 / 2), ln_1 and ln_2 (RMSNorm) 8,192:
// 202,395,648, × 32 = 6,476,660,736; wte and lm_head 151,936 × 4,096 each = 1,244,659,712;
// ln_f 4,096. Total 7,721,324,544, the published count.
TEST(EarlyFamilies, QwenOneHalvesItsIntermediateSize) {
  const json qwen = {{"architectures", {"QWenLMHeadModel"}},
                     {"hidden_size", 4096},
                     {"intermediate_size", 22016},
                     {"kv_channels", 128},
                     {"max_position_embeddings", 32768},
                     {"model_type", "qwen"},
                     {"no_bias", true},
                     {"num_attention_heads", 32},
                     {"num_hidden_layers", 32},
                     {"seq_length", 8192},
                     {"vocab_size", 151936}};
  EXPECT_EQ(Total(qwen), 7721324544);
  const ModelArch arch = MustParseModel(qwen);
  EXPECT_EQ(arch.intermediate_size, 11008);
  EXPECT_TRUE(arch.qkv_bias);
  EXPECT_FALSE(arch.o_bias || arch.mlp_bias || arch.tie_embeddings);
  ExpectRoundTripAndShapes(qwen);
}

// StableLM 2 1.6B (StableLmDecoderLayer): q/k/v 3 × (2,048² + 2,048) (use_qkv_bias), o_proj
// 2,048², gate/up/down 3 × 2,048·5,632 = 34,603,008, two LayerNorms with bias 8,192:
// 51,394,560, × 24 = 1,233,469,440; embed_tokens and lm_head 100,352 × 2,048 each =
// 411,041,792; final LayerNorm 4,096. Total 1,644,515,328, the published count.
// Baichuan 2 7B: Llama's blocks (W_pack = q/k/v without bias): per layer 4 × 4,096² + 3 ×
// 4,096·11,008 + 8,192 = 202,383,360, × 32 = 6,476,267,520; embed_tokens and lm_head 125,696 ×
// 4,096 each = 1,029,701,632; norm 4,096. Total 7,505,973,248.
TEST(EarlyFamilies, StableLmAndBaichuanAreKnownByName) {
  const json stablelm = {{"architectures", {"StableLmForCausalLM"}},
                         {"hidden_act", "silu"},
                         {"hidden_size", 2048},
                         {"intermediate_size", 5632},
                         {"max_position_embeddings", 4096},
                         {"model_type", "stablelm"},
                         {"num_attention_heads", 32},
                         {"num_hidden_layers", 24},
                         {"num_key_value_heads", 32},
                         {"partial_rotary_factor", 0.25},
                         {"tie_word_embeddings", false},
                         {"use_qkv_bias", true},
                         {"vocab_size", 100352}};
  EXPECT_EQ(Total(stablelm), 1644515328);
  EXPECT_EQ(MustParseModel(stablelm).norm, NormKind::kLayerNorm);
  // use_parallel_residual: one LayerNorm a block, 24 × 4,096 fewer.
  json parallel = stablelm;
  parallel["use_parallel_residual"] = true;
  EXPECT_EQ(Total(parallel), 1644515328 - 24 * 4096);
  ExpectRoundTripAndShapes(stablelm);
  ExpectRoundTripAndShapes(parallel);

  const json baichuan = {{"architectures", {"BaichuanForCausalLM"}},
                         {"hidden_act", "silu"},
                         {"hidden_size", 4096},
                         {"intermediate_size", 11008},
                         {"max_position_embeddings", 4096},
                         {"model_type", "baichuan"},
                         {"num_attention_heads", 32},
                         {"num_hidden_layers", 32},
                         {"tie_word_embeddings", false},
                         {"vocab_size", 125696}};
  EXPECT_EQ(Total(baichuan), 7505973248);
  ExpectRoundTripAndShapes(baichuan);
}

// The architectures class names the family when model_type is missing or renamed.
TEST(EarlyFamilies, ArchitecturesNameTheFamilyWhenModelTypeIsOdd) {
  json opt = Opt(768, 12, 12, 3072);
  opt["model_type"] = "opt_custom";
  const ModelArch arch = MustParseModel(opt);
  EXPECT_EQ(CountParams(arch, true).total, 125239296);
  ASSERT_EQ(arch.warnings.size(), 1u);
  EXPECT_NE(arch.warnings[0].find("\"opt\""), std::string::npos) << arch.warnings[0];
}

}  // namespace
}  // namespace trainmem
