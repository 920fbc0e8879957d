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

#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/model/model.h"
#include "test_support.h"

namespace trainmem {
namespace {

using nlohmann::json;
using testing::ExpectRoundTripAndShapes;
using testing::MustParseModel;
using testing::Total;

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
  EXPECT_TRUE(MustParseModel(Opt(768, 12, 12, 3072)).warnings.empty());
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
// The architecture then stands for the model, so that it is written back as that family (a
// Jamba config with its model_type key misspelt came back as Llama blocks with Mamba-2 layers:
// found by fuzz_hf_config, kept in fuzz/regressions/hf_config).
TEST(EarlyFamilies, ArchitecturesNameTheFamilyWhenModelTypeIsOdd) {
  json opt = Opt(768, 12, 12, 3072);
  opt["model_type"] = "opt_custom";
  const ModelArch arch = MustParseModel(opt);
  EXPECT_EQ(CountParams(arch, true).total, 125239296);
  ASSERT_EQ(arch.warnings.size(), 1u);
  EXPECT_NE(arch.warnings[0].find("\"opt\""), std::string::npos) << arch.warnings[0];
  EXPECT_EQ(arch.model_type, "opt");
  ExpectRoundTripAndShapes(opt);
  opt.erase("model_type");
  ExpectRoundTripAndShapes(opt);
  EXPECT_EQ(MustParseModel(opt).model_type, "opt");
}

json Mamba(std::int64_t hidden, std::int64_t layers, std::int64_t vocab) {
  return {{"architectures", {"MambaForCausalLM"}},
          {"conv_kernel", 4},
          {"expand", 2},
          {"hidden_size", hidden},
          {"intermediate_size", 2 * hidden},
          {"model_type", "mamba"},
          {"num_hidden_layers", layers},
          {"state_size", 16},
          {"time_step_rank", (hidden + 15) / 16},
          {"use_bias", false},
          {"use_conv_bias", true},
          {"vocab_size", vocab}};
}

// Mamba 2.8B (MambaBlock: RMSNorm + MambaMixer, no MLP; d_inner D = 5,120, N = 16, dt rank R =
// 160, kernel 4): in_proj 2,560 × 10,240 = 26,214,400; conv1d 5,120·4 + 5,120 = 25,600; x_proj
// 5,120 × (160 + 32) = 983,040; dt_proj 160 × 5,120 + 5,120 = 824,320; A_log 5,120·16 = 81,920;
// D 5,120; out_proj 5,120 × 2,560 = 13,107,200; norm 2,560: 41,244,160 a block, × 64 =
// 2,639,626,240; embeddings 50,280 × 2,560 = 128,716,800 (tied); norm_f 2,560. Total
// 2,768,345,600. Falcon-Mamba 7B (h 4,096, D 8,192, R 256, 64 blocks, untied 65,024 vocabulary;
// its b/c/dt RMS norms have no weights): a block 67,108,864 + 40,960 + 2,359,296 + 2,105,344 +
// 131,072 + 8,192 + 33,554,432 + 4,096 = 105,312,256, × 64 = 6,739,984,384; two tables 2 ×
// 266,338,304; norm_f 4,096. Total 7,272,665,088, the published count.
TEST(EarlyFamilies, MambaBlocksHoldANormAndASelectiveScanMixer) {
  const json mamba = Mamba(2560, 64, 50280);
  EXPECT_EQ(Total(mamba), 2768345600);
  const ModelArch arch = MustParseModel(mamba);
  EXPECT_EQ(arch.MixerOf(0), MixerKind::kMamba1);
  EXPECT_FALSE(arch.HasMlp(0) || arch.HasAttentionLayers());
  EXPECT_TRUE(arch.tie_embeddings);
  ExpectRoundTripAndShapes(mamba);

  json falcon = Mamba(4096, 64, 65024);
  falcon["model_type"] = "falcon_mamba";
  falcon["architectures"] = {"FalconMambaForCausalLM"};
  falcon["expand"] =
      16;  // Falcon-Mamba's config says 16 and intermediate_size 8,192: the latter wins
  falcon["tie_word_embeddings"] = false;
  EXPECT_EQ(Total(falcon), 7272665088);
  ExpectRoundTripAndShapes(falcon);
}

// Mamba-Codestral 7B (Mamba2Model: a norm and a Mamba2Mixer a block; h 4,096, 128 heads × 64 =
// d_inner 8,192, 8 groups, state 128, kernel 4): in_proj 4,096 × (2·8,192 + 2·8·128 + 128) =
// 76,021,760; conv1d (8,192 + 2,048) × 4 + 10,240 bias = 51,200; dt_bias, A_log, D 3 × 128; gated
// RMSNorm 8,192; out_proj 8,192 × 4,096 = 33,554,432; block norm 4,096: 109,640,064, × 64 =
// 7,016,964,096; two 32,768 × 4,096 tables 268,435,456; norm_f 4,096. Total 7,285,403,648.
TEST(EarlyFamilies, MambaTwoModelsAreMamba2BlocksOnly) {
  const json codestral = {{"architectures", {"Mamba2ForCausalLM"}},
                          {"conv_kernel", 4},
                          {"expand", 2},
                          {"head_dim", 64},
                          {"hidden_size", 4096},
                          {"model_type", "mamba2"},
                          {"n_groups", 8},
                          {"num_heads", 128},
                          {"num_hidden_layers", 64},
                          {"state_size", 128},
                          {"tie_word_embeddings", false},
                          {"use_bias", false},
                          {"use_conv_bias", true},
                          {"vocab_size", 32768}};
  EXPECT_EQ(Total(codestral), 7285403648);
  const ModelArch arch = MustParseModel(codestral);
  EXPECT_EQ(arch.MixerOf(63), MixerKind::kMamba2);
  EXPECT_FALSE(arch.HasMlp(0) || arch.HasAttentionLayers());
  EXPECT_EQ(arch.MambaChannels(), 8192);
  ExpectRoundTripAndShapes(codestral);
}

// A width computed from mamba_expand is bounded like one read from the file (fuzz_hf_config: an
// expand of 262,144 made a Mamba-2 head 8,388,608 wide, which ModelArchToJson wrote and
// ParseModelArch then refused; kept in fuzz/regressions/hf_config).
TEST(EarlyFamilies, MambaWidthsFromExpandAreBounded) {
  json mamba = Mamba(4096, 4, 1000);
  mamba.erase("intermediate_size");
  mamba["expand"] = 262144;
  Result<ModelArch> one = ParseModelArch(mamba, "model");
  ASSERT_FALSE(one.ok());
  EXPECT_EQ(one.errors().front().path, "model.mamba_expand");
  const json granite = {{"model_type", "granitemoehybrid"},
                        {"hidden_size", 4096},
                        {"intermediate_size", 1024},
                        {"num_attention_heads", 32},
                        {"num_hidden_layers", 2},
                        {"vocab_size", 1000},
                        {"layer_types", {"mamba", "attention"}},
                        {"mamba_n_heads", 128},
                        {"mamba_expand", 262144}};
  Result<ModelArch> two = ParseModelArch(granite, "model");
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.errors().front().path, "model.mamba_expand");
}

// Mamba has no attention heads: tensor parallelism splits its d_inner channels, and only those
// are checked (5,120 channels: TP 2 fits, TP 3 is named).
TEST(EarlyFamilies, MambaTensorParallelismSplitsChannels) {
  json config = {{"model", Mamba(2560, 64, 50280)},
                 {"device", "h100-80gb"},
                 {"framework", "megatron"},
                 {"world_size", 2},
                 {"parallelism", {{"tensor_parallel_degree", 2}}},
                 {"training", {{"seq_len", 4096}, {"local_batch_size", 1}}}};
  EXPECT_TRUE(ParseConfig(config.dump(), testing::TestPresets()).ok());
  config["world_size"] = 3;
  config["parallelism"]["tensor_parallel_degree"] = 3;
  config["training"]["seq_len"] = 4095;
  const Result<Config> bad = ParseConfig(config.dump(), testing::TestPresets());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.errors().front().message.find("5120 Mamba channels"), std::string::npos)
      << bad.errors().front().message;
}

// What a Mamba block saves (mamba_inner_fn): xz 2D, x_dbl R + 2N, B and C 2N, the scan output D,
// in bf16, and fp32 scan intermediates 4 · D · 2N / 2048 per token. Growing D by 512 (D =
// 5,120 → 5,632) at TP 1 without checkpointing adds 2 · 3 · 512 + 4 · 512 · 32 / 2048 = 3,104
// bytes per token per block; the norm and block input do not change.
TEST(EarlyFamilies, MambaActivationsFollowTheFusedKernel) {
  auto per_layer = [](std::int64_t d_inner) {
    json model = Mamba(2560, 64, 50280);
    model["intermediate_size"] = d_inner;
    const json config = {{"model", model},
                         {"device", "h100-80gb"},
                         {"framework", "megatron"},
                         {"world_size", 1},
                         {"activation_checkpoint", {{"mode", "none"}}},
                         {"training", {{"seq_len", 4096}, {"local_batch_size", 1}}}};
    const Estimate e = EstimateMemory(testing::MustParse(config.dump()));
    EXPECT_EQ(e.stages.front().activations.attention_scores, 0);
    return e.stages.front().activations.bytes_per_token_per_layer;
  };
  EXPECT_DOUBLE_EQ(per_layer(5632) - per_layer(5120), 3104.0);
}

// Jamba v0.1 (JambaConfig: attention where i % 8 == 4, Mamba elsewhere; MoE where i % 2 == 1, 16
// experts as wide as intermediate_size, top-2; h 4,096, 32 heads / 8 KV heads, D 8,192, R 256).
// Attention 2 × 4,096² + 2 × 4,096·1,024 = 41,943,040; Mamba mixer 67,108,864 + 40,960 +
// 2,359,296 + 2,105,344 + 131,072 + 8,192 + 33,554,432 + RMSNorms of 256 + 16 + 16 =
// 105,308,448; SwiGLU MLP 3 × 4,096·14,336 = 176,160,768; MoE 16 × that + router 4,096·16 =
// 2,818,637,824; two norms 8,192. 4 attention blocks with dense MLPs 4 × 218,112,000; 12 dense
// Mamba blocks 12 × 281,477,408; 16 MoE Mamba blocks 16 × 2,923,954,464; two 65,536 × 4,096
// tables 536,870,912; final norm 4,096. Total 51,570,323,328 (published: 52B, 12B active).
TEST(EarlyFamilies, JambaInterleavesMambaAttentionAndExperts) {
  const json jamba = {{"architectures", {"JambaForCausalLM"}},
                      {"attn_layer_offset", 4},
                      {"attn_layer_period", 8},
                      {"expert_layer_offset", 1},
                      {"expert_layer_period", 2},
                      {"hidden_size", 4096},
                      {"intermediate_size", 14336},
                      {"mamba_conv_bias", true},
                      {"mamba_d_conv", 4},
                      {"mamba_d_state", 16},
                      {"mamba_dt_rank", 256},
                      {"mamba_expand", 2},
                      {"mamba_proj_bias", false},
                      {"model_type", "jamba"},
                      {"num_attention_heads", 32},
                      {"num_experts", 16},
                      {"num_experts_per_tok", 2},
                      {"num_hidden_layers", 32},
                      {"num_key_value_heads", 8},
                      {"tie_word_embeddings", false},
                      {"vocab_size", 65536}};
  EXPECT_EQ(Total(jamba), 51570323328);
  const ModelArch arch = MustParseModel(jamba);
  EXPECT_EQ(arch.MixerOf(4), MixerKind::kAttention);
  EXPECT_EQ(arch.MixerOf(5), MixerKind::kMamba1);
  EXPECT_TRUE(arch.layer_is_moe[5] && !arch.layer_is_moe[4]);
  // Active: the 16 MoE blocks route to 2 of 16 experts: 51,570,323,328 − 16 · 14 · 176,160,768.
  EXPECT_EQ(CountParams(arch, true).active, 51570323328 - 16LL * 14 * 176160768);
  ExpectRoundTripAndShapes(jamba);
}

}  // namespace
}  // namespace trainmem
