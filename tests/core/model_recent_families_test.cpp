// Config.json files of 2025 families whose blocks are not Llama's. Each count is derived by hand
// from the family's transformers modeling file; the configs are the published config.json
// fields.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/model/model.h"
#include "test_support.h"

namespace trainmem {
namespace {

using nlohmann::json;
using testing::ExpectRoundTripAndShapes;
using testing::HasWarningWith;
using testing::MustParseModel;
using testing::PublishedConfig;
using testing::Total;

json Apertus(std::int64_t hidden, std::int64_t layers, std::int64_t heads, std::int64_t ffn) {
  return {{"architectures", {"ApertusForCausalLM"}},
          {"model_type", "apertus"},
          {"hidden_act", "xielu"},
          {"hidden_size", hidden},
          {"intermediate_size", ffn},
          {"num_attention_heads", heads},
          {"num_hidden_layers", layers},
          {"num_key_value_heads", 8},
          {"vocab_size", 131072},
          {"tie_word_embeddings", false},
          {"max_position_embeddings", 65536}};
}

// Apertus-8B (modular_apertus.py: LlamaAttention + per-head q_norm/k_norm, ApertusMLP = up/down
// only, attention_layernorm + feedforward_layernorm): embed and lm_head 131,072 × 4,096 =
// 536,870,912 each; per layer q and o 4,096² = 16,777,216 each, k and v 1,024 × 4,096 =
// 4,194,304 each (41,943,040), q/k norms 2 × 128, up and down 4,096 × 21,504 = 88,080,384 each
// (176,160,768), two norms 8,192: 218,112,256, × 32 = 6,979,592,192; final norm 4,096. Total
// 8,053,338,112 (+ xIELU's 64 scalars, not counted). Read as Llama blocks (gated MLP, no q/k
// norms) it was 10.87B.
TEST(RecentFamilies, ApertusHasAPlainXieluMlpAndPerHeadQkNorms) {
  const json apertus8b = Apertus(4096, 32, 32, 21504);
  EXPECT_EQ(Total(apertus8b), 8053338112);
  const ModelArch arch = MustParseModel(apertus8b);
  EXPECT_EQ(arch.mlp, MlpKind::kPlain);
  EXPECT_TRUE(arch.qk_norm);
  EXPECT_FALSE(arch.qk_norm_full);
  EXPECT_EQ(arch.hidden_act, "xielu");
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
  // Apertus-70B: h 8,192, 80 layers, 64 heads, MLP 43,008: per layer 150,994,944 attention +
  // 256 + 704,643,072 MLP + 16,384 norms = 855,654,656, × 80 = 68,452,372,480, + 8,192 final
  // norm + 2 × 1,073,741,824 tables = 70,599,864,320.
  EXPECT_EQ(Total(Apertus(8192, 80, 64, 43008)), 70599864320);
  // Found by its architectures class when model_type is missing.
  json unnamed = apertus8b;
  unnamed.erase("model_type");
  EXPECT_EQ(Total(unnamed), 8053338112);
  ExpectRoundTripAndShapes(apertus8b);
}

// GLM-4.5V's language model (text_config, model_type glm4v_moe_text) is GLM-4.5-Air's blocks
// (Glm4vMoeText = Glm4Moe: q/k/v bias without o_proj's, router correction bias), and GLM-4.1V's
// (glm4v_text) is Glm4's with four norms a block: each counts as its text family, without the
// "unknown model_type" warning; the vision tower is counted beside it (model_vision_test.cpp).
TEST(RecentFamilies, GlmVisionModelsCountTheirTextFamily) {
  const json air = {{"model_type", "glm4_moe"},
                    {"hidden_size", 4096},
                    {"intermediate_size", 10944},
                    {"moe_intermediate_size", 1408},
                    {"n_routed_experts", 128},
                    {"n_shared_experts", 1},
                    {"num_experts_per_tok", 8},
                    {"first_k_dense_replace", 1},
                    {"num_attention_heads", 96},
                    {"num_key_value_heads", 8},
                    {"head_dim", 128},
                    {"num_hidden_layers", 46},
                    {"vocab_size", 151424},
                    {"attention_bias", true},
                    {"tie_word_embeddings", false}};
  json text = air;
  text["model_type"] = "glm4v_moe_text";
  const json glm45v = {{"architectures", {"Glm4vMoeForConditionalGeneration"}},
                       {"model_type", "glm4v_moe"},
                       {"text_config", text},
                       {"vision_config", {{"hidden_size", 1536}, {"depth", 24}}}};
  const ModelArch v = MustParseModel(glm45v);
  EXPECT_EQ(CountParams(v, false).total, Total(air));
  EXPECT_TRUE(v.router_bias);
  EXPECT_FALSE(v.o_bias);
  EXPECT_FALSE(HasWarningWith(v, "not one trainmem knows"));
  EXPECT_TRUE(HasWarningWith(v, "vision tower"));

  json dense = {
      {"model_type", "glm4"},      {"hidden_size", 4096},      {"intermediate_size", 13696},
      {"num_attention_heads", 32}, {"num_key_value_heads", 2}, {"num_hidden_layers", 40},
      {"vocab_size", 151552},      {"attention_bias", true},   {"tie_word_embeddings", false}};
  json dense_text = dense;
  dense_text["model_type"] = "glm4v_text";
  const ModelArch d = MustParseModel(
      {{"model_type", "glm4v"}, {"text_config", dense_text}, {"vision_config", json::object()}});
  EXPECT_EQ(d.norms_per_layer, 4);
  EXPECT_EQ(CountParams(d, false).total, Total(dense));
  // DeepSeek-VL2 keeps its language model under language_config.
  const ModelArch vl2 = MustParseModel({{"model_type", "deepseek_vl_v2"},
                                        {"language_config", air},
                                        {"vision_config", json::object()}});
  EXPECT_EQ(CountParams(vl2, false).total, Total(air));
  ExpectRoundTripAndShapes(glm45v);
}

json FalconH1Half() {
  return {{"architectures", {"FalconH1ForCausalLM"}},
          {"model_type", "falcon_h1"},
          {"hidden_size", 1024},
          {"num_hidden_layers", 36},
          {"num_attention_heads", 8},
          {"num_key_value_heads", 2},
          {"head_dim", 64},
          {"intermediate_size", 2048},
          {"vocab_size", 32784},
          {"tie_word_embeddings", false},
          {"mamba_d_ssm", 1536},
          {"mamba_n_heads", 24},
          {"mamba_d_head", 64},
          {"mamba_d_state", 128},
          {"mamba_n_groups", 1},
          {"mamba_d_conv", 4},
          {"mamba_expand", 2},
          {"mamba_conv_bias", true},
          {"mamba_proj_bias", false},
          {"mamba_rms_norm", false},
          {"projectors_bias", false},
          {"attn_layer_indices", nullptr}};
}

// Falcon-H1-0.5B (modeling_falcon_h1.py FalconH1DecoderLayer: attention and FalconH1Mixer side
// by side, then a gated MLP; input_layernorm and pre_ff_layernorm). Per block: attention q 1,024
// × 512 + k, v 2 × 1,024 × 128 + o 512 × 1,024 = 1,310,720; mixer d_ssm 1,536, conv_dim 1,536 +
// 2·128 = 1,792: in_proj 1,024 × (2·1,536 + 256 + 24) = 3,432,448, conv 1,792 × 4 + 1,792 bias =
// 8,960, dt_bias/A_log/D 72, no gated norm (mamba_rms_norm false), out_proj 1,572,864 →
// 5,014,344; MLP 3 × 1,024 × 2,048 = 6,291,456; norms 2,048: 12,618,568, × 36 = 454,268,448;
// embed and lm_head 32,784 × 1,024 = 33,570,816 each; final norm 1,024. Total 521,411,104
// (published "521M"). Read as Llama blocks it had no Mamba mixers at all.
TEST(RecentFamilies, FalconH1RunsAttentionAndMambaSideBySide) {
  const json half = FalconH1Half();
  EXPECT_EQ(Total(half), 521411104);
  const ModelArch arch = MustParseModel(half);
  EXPECT_EQ(arch.MixerOf(0), MixerKind::kAttentionMamba2);
  EXPECT_TRUE(arch.HasAttentionLayers());
  EXPECT_EQ(arch.MambaChannels(), 1536);
  // With mamba_rms_norm the gated norm adds d_ssm a block: + 36 × 1,536.
  json normed = half;
  normed["mamba_rms_norm"] = true;
  EXPECT_EQ(Total(normed), 521411104 + 36 * 1536);
  // mamba_d_head "auto" is d_ssm / heads (FalconH1Config); heads × head must equal d_ssm.
  json automatic = half;
  automatic["mamba_d_head"] = "auto";
  EXPECT_EQ(Total(automatic), 521411104);
  json bad = half;
  bad["mamba_d_head"] = 48;
  Result<ModelArch> refused = ParseModelArch(bad, "model");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(FormatError(refused.errors().front()).find("must equal mamba_d_ssm (1536)"),
            std::string::npos);
  ExpectRoundTripAndShapes(half);
  ExpectRoundTripAndShapes(normed);
  // Without mamba_d_ssm or mamba_d_head the heads are mamba_expand · hidden / mamba_n_heads wide:
  // a hidden size of 14 and the default 128 heads leave each head 0 wide (a fuzzer's find).
  const json tiny = {{"model_type", "falcon_h1"}, {"hidden_size", 14},
                     {"num_hidden_layers", 2},    {"num_attention_heads", 2},
                     {"intermediate_size", 64},   {"vocab_size", 100}};
  Result<ModelArch> zero = ParseModelArch(tiny, "model");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.errors().front().path, "model.mamba_n_heads");
  EXPECT_NE(zero.errors().front().message.find("each head would be 0 wide"), std::string::npos);
  // A mamba_d_ssm that is no multiple of the hidden size decides d_inner in mamba layers too, and
  // is written back (not left to the default expand of 2): another fuzzer find.
  const json odd = {{"model_type", "granitemoehybrid"},
                    {"hidden_size", 64},
                    {"num_hidden_layers", 2},
                    {"num_attention_heads", 2},
                    {"intermediate_size", 128},
                    {"vocab_size", 100},
                    {"layer_types", {"mamba", "attention"}},
                    {"mamba_n_heads", 8},
                    {"mamba_d_ssm", 96}};
  EXPECT_EQ(MustParseModel(odd).MambaChannels(), 96);
  ExpectRoundTripAndShapes(odd);
}

// Bamba-9B (modeling_bamba.py): Mamba-2 blocks (BambaMixer, gated norm always) with attention at
// layers 9, 18 and 27, a gated MLP and two norms in every block. Mamba block: in_proj 4,096 ×
// (2·8,192 + 256 + 128) = 68,681,728, conv 8,448 × 4 + 8,448 = 42,240, 384, norm 8,192, out_proj
// 33,554,432 → 102,286,976, + MLP 176,160,768 + norms 8,192 = 278,455,936, × 29 =
// 8,075,222,144; attention block 41,943,040 + 176,160,768 + 8,192 = 218,112,000, × 3 =
// 654,336,000; tables 2 × 128,256 × 4,096 = 1,050,673,152; final norm 4,096. Total
// 9,780,235,392, the published 9.78B.
TEST(RecentFamilies, BambaPlacesAttentionAtItsIndices) {
  const json bamba = {{"architectures", {"BambaForCausalLM"}},
                      {"model_type", "bamba"},
                      {"hidden_size", 4096},
                      {"num_hidden_layers", 32},
                      {"attn_layer_indices", {9, 18, 27}},
                      {"num_attention_heads", 32},
                      {"num_key_value_heads", 8},
                      {"intermediate_size", 14336},
                      {"vocab_size", 128256},
                      {"tie_word_embeddings", false},
                      {"mamba_n_heads", 128},
                      {"mamba_d_head", 64},
                      {"mamba_d_state", 128},
                      {"mamba_n_groups", 1},
                      {"mamba_d_conv", 4},
                      {"mamba_expand", 2},
                      {"mamba_conv_bias", true},
                      {"mamba_proj_bias", false}};
  EXPECT_EQ(Total(bamba), 9780235392);
  const ModelArch arch = MustParseModel(bamba);
  EXPECT_EQ(arch.MixerOf(9), MixerKind::kAttention);
  EXPECT_EQ(arch.MixerOf(10), MixerKind::kMamba2);
  json out_of_range = bamba;
  out_of_range["attn_layer_indices"] = {9, 32};
  Result<ModelArch> refused = ParseModelArch(out_of_range, "model");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(FormatError(refused.errors().front()).find("attn_layer_indices[1]"), std::string::npos);
  ExpectRoundTripAndShapes(bamba);
}

json Lfm2(std::int64_t hidden, std::int64_t ff, std::int64_t heads) {
  return {{"architectures", {"Lfm2ForCausalLM"}},
          {"model_type", "lfm2"},
          {"hidden_size", hidden},
          {"block_ff_dim", ff},
          {"block_auto_adjust_ff_dim", true},
          {"block_multiple_of", 256},
          {"block_ffn_dim_multiplier", 1.0},
          {"num_hidden_layers", 16},
          {"num_attention_heads", heads},
          {"num_key_value_heads", 8},
          {"vocab_size", 65536},
          {"conv_L_cache", 3},
          {"conv_bias", false},
          {"tie_embedding", true},
          {"full_attn_idxs", {2, 5, 8, 10, 12, 14}}};
}

// LFM2 (modeling_lfm2.py): conv blocks (Lfm2ShortConv: in_proj h → 3h, depthwise conv kernel 3,
// out_proj h → h) and attention blocks (q/k/v/out_proj, per-head q/k layernorms), each with a
// SwiGLU MLP and two norms; tied table; embedding_norm is the final norm.
// LFM2-1.2B: MLP 12,288 → int(2·12,288/3) = 8,192: 3 × 2,048 × 8,192 = 50,331,648; conv block
// 6,291,456·2 + 4,194,304 + 6,144 + 50,331,648 + 4,096 = 67,119,104, × 10; attention block
// 2 × 4,194,304 + 2 × 1,048,576 + 128 + 50,331,648 + 4,096 = 60,821,632, × 6; table 134,217,728;
// final norm 2,048. Total 1,170,340,608 — the model card's exact figure. LFM2-350M: 6,656 →
// 4,437 → 4,608; total 354,483,968, the model card's.
TEST(RecentFamilies, Lfm2CountsShortConvolutionsAndItsAdjustedMlp) {
  EXPECT_EQ(Total(Lfm2(2048, 12288, 32)), 1170340608);
  EXPECT_EQ(Total(Lfm2(1024, 6656, 16)), 354483968);
  const ModelArch arch = MustParseModel(Lfm2(2048, 12288, 32));
  EXPECT_EQ(arch.intermediate_size, 8192);
  EXPECT_TRUE(arch.tie_embeddings);
  EXPECT_EQ(arch.MixerOf(0), MixerKind::kShortConv);
  EXPECT_EQ(arch.MixerOf(2), MixerKind::kAttention);
  // layer_types spells the same blocks.
  json listed = Lfm2(2048, 12288, 32);
  listed.erase("full_attn_idxs");
  json types = json::array();
  for (int i = 0; i < 16; ++i) {
    const bool attention = i == 2 || i == 5 || i == 8 || i == 10 || i == 12 || i == 14;
    types.push_back(attention ? "full_attention" : "conv");
  }
  listed["layer_types"] = types;
  EXPECT_EQ(Total(listed), 1170340608);
  // Without the auto-adjust the width is block_ff_dim as written.
  json plain = Lfm2(2048, 8192, 32);
  plain["block_auto_adjust_ff_dim"] = false;
  EXPECT_EQ(Total(plain), 1170340608);
  ExpectRoundTripAndShapes(Lfm2(2048, 12288, 32));
}

// LFM2-8B-A1B (modular_lfm2_moe.py): LFM2's blocks; the first num_dense_layers (2) have a dense
// SwiGLU MLP of intermediate_size (7,168, not adjusted), the rest 32 routed experts of 1,792
// (Qwen2MoeExperts) behind a bias-free gate, plus the expert_bias buffer (32) the checkpoint
// stores. Table 134,217,728 (tied) + final norm 2,048; 18 conv mixers × 16,783,360 = 302,100,480;
// 6 attention mixers × 10,485,888 = 62,915,328; 24 × 2 norms = 98,304; 2 dense MLPs × 44,040,192
// = 88,080,384; 22 MoE blocks × (65,536 + 32 + 352,321,536) = 7,752,516,288. Total
// 8,339,930,560 (published "8.3B total, 1.5B active").
TEST(RecentFamilies, Lfm2MoeHasDenseLayersThenExperts) {
  json types = json::array();
  for (int i = 0; i < 24; ++i) {
    const bool attention = i == 2 || i == 6 || i == 10 || i == 14 || i == 18 || i == 21;
    types.push_back(attention ? "full_attention" : "conv");
  }
  const json lfm2_moe = {{"architectures", {"Lfm2MoeForCausalLM"}},
                         {"model_type", "lfm2_moe"},
                         {"hidden_size", 2048},
                         {"intermediate_size", 7168},
                         {"moe_intermediate_size", 1792},
                         {"num_hidden_layers", 24},
                         {"num_attention_heads", 32},
                         {"num_key_value_heads", 8},
                         {"vocab_size", 65536},
                         {"num_dense_layers", 2},
                         {"num_experts", 32},
                         {"num_experts_per_tok", 4},
                         {"use_expert_bias", true},
                         {"conv_L_cache", 3},
                         {"tie_embedding", true},
                         {"layer_types", types}};
  EXPECT_EQ(Total(lfm2_moe), 8339930560);
  const ModelArch arch = MustParseModel(lfm2_moe);
  EXPECT_FALSE(arch.layer_is_moe[1]);
  EXPECT_TRUE(arch.layer_is_moe[2]);
  EXPECT_EQ(arch.intermediate_size, 7168);
  ExpectRoundTripAndShapes(lfm2_moe);
  // No dense layers at all is written as 0, not left to the default of 2 (a fuzzer's find).
  json all_moe = lfm2_moe;
  all_moe["num_dense_layers"] = 0;
  ExpectRoundTripAndShapes(all_moe);
}

// Qwen3-Omni keeps its language model in thinker_config.text_config (Qwen3OmniMoeTextConfig,
// Qwen3-MoE blocks): it counts as Qwen3-30B-A3B's fields do under qwen3_moe, and says the talker
// and the towers are not counted.
TEST(RecentFamilies, OmniConfigsCountTheThinkersLanguageModel) {
  json text = testing::ModelRowConfig("reference_models.jsonl", "qwen3-30b-a3b");
  ASSERT_FALSE(text.empty());
  const std::int64_t alone = Total(text);
  text["model_type"] = "qwen3_omni_moe_text";
  const json omni = {{"architectures", {"Qwen3OmniMoeForConditionalGeneration"}},
                     {"model_type", "qwen3_omni_moe"},
                     {"thinker_config",
                      {{"model_type", "qwen3_omni_moe_thinker"},
                       {"text_config", text},
                       {"vision_config", {{"depth", 27}}},
                       {"audio_config", {{"encoder_layers", 32}}}}},
                     {"talker_config", {{"text_config", {{"hidden_size", 1024}}}}}};
  const ModelArch arch = MustParseModel(omni);
  EXPECT_EQ(CountParams(arch, true).total, alone);
  EXPECT_TRUE(HasWarningWith(arch, "thinker's language model is counted"));
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
}

// Llama-3.3-Nemotron-Super-49B (DeciLM block_configs; modeling_decilm.py DeciLMDecoderLayer):
// h 8,192, 64 heads × 128, vocab 128,256, untied. 49 layers have GQA attention with
// n_heads_in_group 8 (8 KV heads: q and o 8,192² each, k and v 1,024 × 8,192 each = 150,994,944)
// and an input norm; 31 have none (no_op: no weights, no norm). Every layer has a gated MLP of
// int(2·ffn_mult·h/3) rounded up to 256 and a post-attention norm: ffn_mult 0.5 → 2,816 (6
// layers), 1.0 → 5,632 (8), 1.3125 → 7,168 (10), 2.625 → 14,336 (6), 3.28125 → 17,920 (1), 5.25 →
// 28,672 (49): 40,365,981,696 in all. Norms (49 + 80) × 8,192 = 1,056,768 + final 8,192; tables
// 2 × 1,050,673,152. Total 49,867,145,216 (published "49.9B"). Ultra-253B (162 layers, 98 without
// attention, 81 without an MLP) likewise 253,401,268,224.
TEST(RecentFamilies, DeciLmCountsEveryBlockWithItsOwnSizes) {
  const json super49 = PublishedConfig("llama-3_3-nemotron-super-49b-v1.json");
  ASSERT_TRUE(super49.is_object());
  EXPECT_EQ(Total(super49), 49867145216);
  const ModelArch arch = MustParseModel(super49);
  std::int64_t without_attention = 0, widest = 0;
  for (std::int64_t i = 0; i < arch.num_layers; ++i) {
    without_attention += arch.MixerOf(i) == MixerKind::kNone ? 1 : 0;
    widest = std::max(widest, arch.MlpWidthOf(i));
  }
  EXPECT_EQ(without_attention, 31);
  EXPECT_EQ(widest, 28672);
  EXPECT_EQ(arch.num_kv_heads, 8);
  const json ultra = PublishedConfig("llama-3_1-nemotron-ultra-253b-v1.json");
  ASSERT_TRUE(ultra.is_object());
  EXPECT_EQ(Total(ultra), 253401268224);
  ExpectRoundTripAndShapes(super49);
  ExpectRoundTripAndShapes(ultra);
  // Written back, the per-block sizes are the only ones: no model-wide width or KV heads that
  // the page would offer for editing and nothing would read.
  const json written = ModelArchToJson(arch);
  EXPECT_FALSE(written.contains("intermediate_size"));
  EXPECT_FALSE(written.contains("num_key_value_heads"));
  EXPECT_EQ(written.at("block_configs").size(), 80u);
}

// replace_with_linear parts are one h × h linear each (DeciLMLinearAttention / DeciLMLinearMLP,
// no bias) with their norm; a group that does not divide the heads is an error naming the block.
// Four layers, h 256, 4 heads × 64, vocab 1,000 (untied): layer 0 attention with 2 KV heads
// (q, o 65,536; k, v 32,768: 196,608) + MLP ffn_mult 1.5 → 256 (196,608), 2 norms; layer 1
// linear attention 65,536 + linear MLP 65,536, 2 norms; layer 2 no attention + MLP 196,608, 1
// norm; layer 3 attention + no MLP, 1 norm. Blocks 196,608·2 + 65,536·2 + 196,608 + 196,608 +
// 6 norms × 256 = 919,040; tables 512,000; final norm 256: 1,431,296.
TEST(RecentFamilies, DeciLmLinearAndNoOpParts) {
  auto block = [](const json& attention, const json& ffn) {
    return json{{"attention", attention}, {"ffn", ffn}};
  };
  const json attention = {{"n_heads_in_group", 2}, {"no_op", false}};
  const json mlp = {{"ffn_mult", 1.5}, {"no_op", false}};
  json deci = {{"architectures", {"DeciLMForCausalLM"}},
               {"model_type", "nemotron-nas"},
               {"hidden_size", 256},
               {"num_attention_heads", 4},
               {"num_hidden_layers", 4},
               {"vocab_size", 1000},
               {"tie_word_embeddings", false},
               {"block_configs",
                {block(attention, mlp),
                 block({{"replace_with_linear", true}}, {{"replace_with_linear", true}}),
                 block({{"no_op", true}}, mlp), block(attention, {{"no_op", true}})}}};
  EXPECT_EQ(Total(deci), 1431296);
  ExpectRoundTripAndShapes(deci);
  // Activations: finite and positive under every checkpointing mode.
  for (const char* ac : {"none", "selective", "full"}) {
    Config c = testing::MustParse(R"({"model": "llama3-8b", "device": "h100-80gb"})");
    c = testing::With(c, {{"ws", "8"}, {"ac", ac}});
    c.model = MustParseModel(deci);
    const double activations = static_cast<double>(EstimateMemory(c).per_device.activations);
    EXPECT_GT(activations, 0) << ac;
    EXPECT_LT(activations, 1e12) << ac;
  }
  json bad = deci;
  bad["block_configs"][2]["attention"] = {{"n_heads_in_group", 3}};
  Result<ModelArch> refused = ParseModelArch(bad, "model");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(FormatError(refused.errors().front()).find("block_configs[2].attention"),
            std::string::npos)
      << FormatError(refused.errors().front());
}

// The hybrid and conv blocks estimate to finite, positive activations: a Falcon-H1 block keeps
// more than its attention alone (the Mamba-2 mixer's in_proj output and scan output on top).
TEST(RecentFamilies, HybridAndConvBlocksHaveActivations) {
  json attention_only = FalconH1Half();
  json types = json::array();
  for (int i = 0; i < 36; ++i) types.push_back("full_attention");
  attention_only["layer_types"] = types;
  auto activations = [](const json& model) {
    Config c = testing::MustParse(R"({"model": "llama3-8b", "device": "h100-80gb"})");
    c = testing::With(c, {{"ws", "8"}, {"ac", "none"}});
    c.model = MustParseModel(model);
    return static_cast<double>(EstimateMemory(c).per_device.activations);
  };
  const double hybrid = activations(FalconH1Half());
  const double attention = activations(attention_only);
  EXPECT_GT(hybrid, attention * 1.1);
  const double conv = activations(Lfm2(2048, 12288, 32));
  EXPECT_GT(conv, 0);
  EXPECT_LT(conv, 1e12);
}

// inclusionAI/Ling-mini-2.0 (model_type bailing_moe, BailingMoeV2ForCausalLM; fields as a public
// fixture transcribes its config.json, find_string id 70927169011). Its chat release declares no
// MTP layer: 16,255,643,392 (the card's 16.26B). A checkpoint declaring one
// (num_nextn_predict_layers) holds BailingMoeV2MTPLayer (modeling_bailing_moe_v2.py): enorm,
// hnorm, eh_proj 2h → h, an attention + MoE block (attention 10,486,016; 256 experts 512 wide, a
// shared one, router and expert_bias: 808,976,640; two norms) and final_layernorm, reading the
// model's word_embeddings and lm_head: 827,861,504, not the 1,471,687,168 a DeepSeek-style reading
// with embedding and head copies gave.
TEST(RecentFamilies, LingV2MtpLayerSharesTheTables) {
  json ling = {{"model_type", "bailing_moe"},
               {"architectures", {"BailingMoeV2ForCausalLM"}},
               {"num_hidden_layers", 20},
               {"hidden_size", 2048},
               {"intermediate_size", 5120},
               {"first_k_dense_replace", 1},
               {"moe_intermediate_size", 512},
               {"moe_shared_expert_intermediate_size", 512},
               {"num_shared_experts", 1},
               {"num_experts", 256},
               {"num_experts_per_tok", 8},
               {"moe_router_enable_expert_bias", true},
               {"num_attention_heads", 16},
               {"num_key_value_heads", 4},
               {"head_dim", 128},
               {"use_qk_norm", true},
               {"tie_word_embeddings", false},
               {"vocab_size", 157184},
               {"num_nextn_predict_layers", 0}};
  EXPECT_EQ(Total(ling), 16255643392);
  ling["num_nextn_predict_layers"] = 1;
  EXPECT_EQ(MtpModuleParams(MustParseModel(ling), true), 827861504);
  EXPECT_EQ(Total(ling), 16255643392 + 827861504);
  ExpectRoundTripAndShapes(ling);
}

}  // namespace
}  // namespace trainmem
