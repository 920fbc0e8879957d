// Config.json files of the families whose blocks are not Llama's: GPT-NeoX (Pythia), Falcon,
// ChatGLM, GPTBigCode (StarCoder), Nemotron, Arcee; the other spellings of the sizes (num_layers,
// padded_vocab_size, multi_query); multimodal configs with the language model at the top or under
// llm_config. Each count is derived by hand in the comment above its test, from the module
// structure of the family's modeling file.
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
using testing::Total;

json Pythia(std::int64_t hidden, std::int64_t layers, std::int64_t heads) {
  return {{"architectures", {"GPTNeoXForCausalLM"}},
          {"model_type", "gpt_neox"},
          {"hidden_act", "gelu"},
          {"hidden_size", hidden},
          {"intermediate_size", 4 * hidden},
          {"num_attention_heads", heads},
          {"num_hidden_layers", layers},
          {"rotary_pct", 0.25},
          {"tie_word_embeddings", false},
          {"use_parallel_residual", true},
          {"vocab_size", 50304}};
}

// Pythia's model card publishes exact non-embedding counts: 85,056,000 (160M) and 1,208,602,624
// (1.4B). GPTNeoXLayer: query_key_value h·3h + 3h, dense h² + h, dense_h_to_4h h·4h + 4h,
// dense_4h_to_h 4h·h + h, two LayerNorms 4h; final_layer_norm 2h; embed_in and embed_out are
// 50,304 × h each (untied).
TEST(ClassicFamilies, PythiaMatchesItsPublishedCounts) {
  const std::int64_t vocab = 50304;
  EXPECT_EQ(Total(Pythia(768, 12, 12)), 85056000 + 2 * vocab * 768);
  EXPECT_EQ(Total(Pythia(2048, 24, 16)), 1208602624 + 2 * vocab * 2048);  // 1,414,647,808
  const ModelArch arch = MustParseModel(Pythia(2048, 24, 16));
  EXPECT_EQ(arch.mlp, MlpKind::kPlain);
  EXPECT_EQ(arch.norm, NormKind::kLayerNorm);
  EXPECT_TRUE(arch.qkv_bias && arch.o_bias && arch.mlp_bias);
  EXPECT_TRUE(arch.warnings.empty());
  ExpectRoundTripAndShapes(Pythia(2048, 24, 16));
}

// Falcon-7B (h 4544, 71 heads × 64, multi_query, parallel_attn, bias false, vocab 65,024, tied):
//   query_key_value 4544·(4544 + 2·64) = 21,229,568; dense 4544² = 20,647,936;
//   MLP 2·4544·18,176 = 165,183,488; input_layernorm 9,088 → 207,070,080 × 32 = 6,626,242,560;
//   word_embeddings 65,024·4544 = 295,469,056; ln_f 9,088 → 6,921,720,704.
// Falcon-40B (new_decoder_architecture, h 8192, 128 heads, num_kv_heads 8): qkv 8192·9216 =
//   75,497,472; dense 67,108,864; MLP 536,870,912; ln_attn + ln_mlp 32,768 → 679,510,016 × 60 =
//   40,770,600,960; embeddings 532,676,608; ln_f 16,384 → 41,303,293,952.
TEST(ClassicFamilies, FalconMultiQueryAndNewDecoderArchitecture) {
  const json falcon7b = {{"architectures", {"FalconForCausalLM"}},
                         {"model_type", "falcon"},
                         {"alibi", false},
                         {"bias", false},
                         {"hidden_size", 4544},
                         {"multi_query", true},
                         {"new_decoder_architecture", false},
                         {"num_attention_heads", 71},
                         {"num_hidden_layers", 32},
                         {"parallel_attn", true},
                         {"vocab_size", 65024}};
  EXPECT_EQ(Total(falcon7b), 6921720704);
  EXPECT_EQ(MustParseModel(falcon7b).num_kv_heads, 1);
  json falcon40b = falcon7b;
  falcon40b.erase("multi_query");
  falcon40b["new_decoder_architecture"] = true;
  falcon40b["hidden_size"] = 8192;
  falcon40b["num_attention_heads"] = 128;
  falcon40b["num_hidden_layers"] = 60;
  falcon40b["num_kv_heads"] = 8;
  EXPECT_EQ(Total(falcon40b), 41303293952);
  EXPECT_EQ(MustParseModel(falcon40b).norms_per_layer, 2);
  // The original remote-code spelling (RefinedWeb: n_head, n_layer, n_head_kv) reads the same.
  const json refined = {{"model_type", "RefinedWeb"},
                        {"hidden_size", 8192},
                        {"n_head", 128},
                        {"n_head_kv", 8},
                        {"n_layer", 60},
                        {"bias", false},
                        {"parallel_attn", true},
                        {"vocab_size", 65024}};
  EXPECT_EQ(Total(refined), 41303293952);
  ExpectRoundTripAndShapes(falcon7b);
  ExpectRoundTripAndShapes(falcon40b);
}

// ChatGLM3-6B (num_layers 28, h 4096, 32 heads × kv_channels 128, multi_query_group_num 2,
// ffn_hidden_size 13,696, padded_vocab_size 65,024, add_qkv_bias, RMSNorm, separate output_layer):
//   query_key_value 4096·4608 + 4608 = 18,878,976; dense 16,777,216;
//   dense_h_to_4h 4096·27,392 = 112,197,632; dense_4h_to_h 13,696·4096 = 56,098,816;
//   two RMSNorms 8192 → 203,960,832 × 28 = 5,710,903,296; embedding + output_layer
//   2·65,024·4096 = 532,676,608; final_layernorm 4096 → 6,243,584,000.
TEST(ClassicFamilies, ChatGlmReadsItsOwnFieldNames) {
  const json chatglm3 = {{"architectures", {"ChatGLMModel"}},
                         {"model_type", "chatglm"},
                         {"add_bias_linear", false},
                         {"add_qkv_bias", true},
                         {"ffn_hidden_size", 13696},
                         {"hidden_size", 4096},
                         {"kv_channels", 128},
                         {"multi_query_attention", true},
                         {"multi_query_group_num", 2},
                         {"num_attention_heads", 32},
                         {"num_layers", 28},
                         {"padded_vocab_size", 65024},
                         {"post_layer_norm", true},
                         {"rmsnorm", true},
                         {"seq_length", 8192},
                         {"tie_word_embeddings", false}};
  EXPECT_EQ(Total(chatglm3), 6243584000);
  const ModelArch arch = MustParseModel(chatglm3);
  EXPECT_EQ(arch.num_kv_heads, 2);
  EXPECT_TRUE(arch.qkv_bias);
  EXPECT_FALSE(arch.o_bias);
  EXPECT_EQ(arch.mlp, MlpKind::kGated);
  // Without multi_query_attention the group number is not used: every head has its own k/v,
  // 2·4096·(4096 − 256) + 2·(4096 − 256) more per layer.
  json mha = chatglm3;
  mha["multi_query_attention"] = false;
  EXPECT_EQ(MustParseModel(mha).num_kv_heads, 32);
  EXPECT_EQ(Total(mha), 6243584000 + 28 * (2 * 4096 * 3840 + 2 * 3840));
  ExpectRoundTripAndShapes(chatglm3);
}

// StarCoder (gpt_bigcode, n_embd 6144, 48 heads, multi_query, n_inner 24,576, n_positions 8192,
// vocab 49,152, tied): c_attn 6144·6400 + 6400 = 39,328,000; c_proj 6144² + 6144 = 37,754,880;
// c_fc 6144·24,576 + 24,576 = 151,019,520; mlp c_proj 24,576·6144 + 6144 = 151,001,088;
// ln_1 + ln_2 24,576 → 379,128,064 × 40 = 15,165,122,560; wte 301,989,888; wpe 50,331,648;
// ln_f 12,288 → 15,517,456,384.
TEST(ClassicFamilies, GptBigCodeIsMultiQueryGpt2) {
  const json starcoder = {{"architectures", {"GPTBigCodeForCausalLM"}},
                          {"model_type", "gpt_bigcode"},
                          {"multi_query", true},
                          {"n_embd", 6144},
                          {"n_head", 48},
                          {"n_inner", 24576},
                          {"n_layer", 40},
                          {"n_positions", 8192},
                          {"vocab_size", 49152}};
  EXPECT_EQ(Total(starcoder), 15517456384);
  EXPECT_EQ(MustParseModel(starcoder).num_kv_heads, 1);
  ExpectRoundTripAndShapes(starcoder);
}

// Nemotron (NemotronDecoderLayer): up_proj/down_proj with ReLU², LayerNorm1P (weight + bias), no
// biases, untied. h 1024, 8 heads, 2 KV heads × 128, intermediate 4096, vocab 1000, 2 layers:
//   q 1024·1024 + k/v 2·1024·256 + o 1024·1024 = 2,621,440; MLP 2·1024·4096 = 8,388,608;
//   norms 2·2048 = 4096 → 11,014,144 × 2 = 22,028,288; embeddings 2·1,024,000; final 2048
//   → 24,078,336. Arcee (ArceeMLP, the same plain MLP) with RMSNorm: norms 2·1024 per layer and
//   1024 final → 24,078,336 − 2·2048 − 1024 = 24,073,216.
TEST(ClassicFamilies, NemotronAndArceeHavePlainMlps) {
  json nemotron = {
      {"model_type", "nemotron"}, {"hidden_size", 1024}, {"num_attention_heads", 8},
      {"num_key_value_heads", 2}, {"head_dim", 128},     {"intermediate_size", 4096},
      {"num_hidden_layers", 2},   {"vocab_size", 1000},  {"partial_rotary_factor", 0.5}};
  EXPECT_EQ(Total(nemotron), 24078336);
  json arcee = nemotron;
  arcee["model_type"] = "arcee";
  EXPECT_EQ(Total(arcee), 24073216);
  EXPECT_EQ(MustParseModel(arcee).hidden_act, "relu2");
  ExpectRoundTripAndShapes(nemotron);
  ExpectRoundTripAndShapes(arcee);
}

// EXAONE 3.x writes num_layers; Llama blocks otherwise: h 4096, 32 heads, 8 KV, 14,336, vocab
// 102,400, untied: (2·4096² + 2·4096·1024 + 3·4096·14,336 + 8192) · 32 + 2·102,400·4096 + 4096
// = 7,818,448,896 (EXAONE-3.0-7.8B).
TEST(ClassicFamilies, NumLayersIsAnotherSpelling) {
  const json exaone = {{"architectures", {"ExaoneForCausalLM"}},
                       {"model_type", "exaone"},
                       {"activation_function", "silu"},
                       {"hidden_size", 4096},
                       {"intermediate_size", 14336},
                       {"num_attention_heads", 32},
                       {"num_key_value_heads", 8},
                       {"num_layers", 32},
                       {"tie_word_embeddings", false},
                       {"vocab_size", 102400}};
  EXPECT_EQ(Total(exaone), 7818448896);
  EXPECT_TRUE(HasWarningWith(MustParseModel(exaone), "\"exaone\""));
  // Without any vocabulary field the error names the usual one.
  json no_vocab = exaone;
  no_vocab.erase("vocab_size");
  Result<ModelArch> bad = ParseModelArch(no_vocab, "model");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors().front().path, "model.vocab_size");
}

// A multimodal config counts the language model whether its fields sit at the top (Qwen2.5-VL
// before transformers 4.53) or under llm_config (InternVL). The Qwen2.5-VL-7B language model is
// Qwen2.5-7B: 7,615,616,512 (its published total); its tower (model_vision_test.cpp's
// formula, E 1280 and the class defaults intermediate 3420, out 3584) adds 676,550,144, the
// published Qwen2.5-VL-7B total 8,292,166,656. A tower trainmem does not know is named as
// uncounted.
TEST(ClassicFamilies, MultimodalConfigsCountTheLanguageModel) {
  const json qwen_vl = {{"architectures", {"Qwen2_5_VLForConditionalGeneration"}},
                        {"model_type", "qwen2_5_vl"},
                        {"hidden_size", 3584},
                        {"intermediate_size", 18944},
                        {"num_attention_heads", 28},
                        {"num_hidden_layers", 28},
                        {"num_key_value_heads", 4},
                        {"tie_word_embeddings", false},
                        {"vocab_size", 152064},
                        {"vision_config", {{"depth", 32}, {"hidden_size", 1280}}}};
  const ModelArch flat = MustParseModel(qwen_vl);
  EXPECT_EQ(CountParams(flat, false).total, 7615616512);
  EXPECT_EQ(CountParams(flat, true).total, 8292166656);
  EXPECT_TRUE(flat.qkv_bias);  // Qwen2's q/k/v biases
  EXPECT_TRUE(HasWarningWith(flat, "Qwen2.5-VL ViT vision tower"));
  json internvl = {{"model_type", "internvl_hf_someday"},
                   {"vision_config", {{"hidden_size", 1024}}},
                   {"llm_config", qwen_vl}};
  internvl["llm_config"].erase("vision_config");
  internvl["llm_config"]["model_type"] = "qwen2";
  const ModelArch nested = MustParseModel(internvl);
  EXPECT_EQ(CountParams(nested, true).total, 7615616512);
  EXPECT_TRUE(
      HasWarningWith(nested, "this vision tower (vision_config) and its projector are not"));
}

// NVIDIA-Nemotron-Nano-9B-v2 (nemotron_h): 56 blocks of one norm and one part, spelled by
// hybrid_override_pattern (27 M, 4 *, 25 -). h 4480; Mamba-2 128 heads × 80 (d_inner 10,240),
// 8 groups, state 128, kernel 4, conv bias:
//   M: in_proj 4480·(2·10,240 + 2·8·128 + 128) = 101,498,880; conv1d 12,288·4 + 12,288;
//      dt_bias/A_log/D 384; gated norm 10,240; out_proj 45,875,200; block norm 4480
//      → 147,450,624.
//   *: q 4480·5120, k/v 2·4480·1024, o 5120·4480 = 55,050,240 + 4480 → 55,054,720.
//   -: up/down 2·4480·15,680 = 140,492,800 + 4480 → 140,497,280 (plain ReLU², no gate).
// 27·147,450,624 + 4·55,054,720 + 25·140,497,280 = 7,713,817,728; embeddings and lm_head
// 2·131,072·4480 = 1,174,405,120; norm_f 4480 → 8,888,227,328 (the 8.89B the checkpoint
// publishes).
TEST(ClassicFamilies, NemotronHBlocksHoldAMixerOrAnMlp) {
  const json nano = {
      {"architectures", {"NemotronHForCausalLM"}},
      {"model_type", "nemotron_h"},
      {"num_hidden_layers", 56},
      {"hidden_size", 4480},
      {"intermediate_size", 15680},
      {"num_attention_heads", 40},
      {"num_key_value_heads", 8},
      {"head_dim", 128},
      {"vocab_size", 131072},
      {"hybrid_override_pattern", "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-"},
      {"ssm_state_size", 128},
      {"conv_kernel", 4},
      {"n_groups", 8},
      {"mamba_num_heads", 128},
      {"mamba_head_dim", 80},
      {"expand", 2},
      {"use_conv_bias", true},
      {"tie_word_embeddings", false}};
  EXPECT_EQ(Total(nano), 8888227328);
  const ModelArch arch = MustParseModel(nano);
  EXPECT_TRUE(HasWarningWith(arch, "27 Mamba-2, 4 attention, 25 MLP and 0 MoE blocks"));
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  EXPECT_EQ(layers[0].total(), 147450624);  // M
  EXPECT_EQ(layers[1].total(), 140497280);  // -
  EXPECT_EQ(layers[14].total(), 55054720);  // *
  ExpectRoundTripAndShapes(nano);
  // A Mamba-2 width narrower than hidden (128 × 28 = 3,584 < 4,480) is no whole mamba_expand:
  // it is written back without one (fuzz_hf_config found it written as 0, which does not read
  // back; kept in fuzz/regressions/hf_config).
  json narrow = nano;
  narrow["mamba_head_dim"] = 28;
  ExpectRoundTripAndShapes(narrow);
  // MoE blocks (E) need routed experts; a wrong length or an unknown letter is named.
  json moe = nano;
  moe["hybrid_override_pattern"] = std::string(55, 'M') + "E";
  Result<ModelArch> no_experts = ParseModelArch(moe, "model");
  ASSERT_FALSE(no_experts.ok());
  EXPECT_EQ(no_experts.errors().front().path, "model.hybrid_override_pattern");
  moe["n_routed_experts"] = 8;
  moe["num_experts_per_tok"] = 2;
  moe["moe_intermediate_size"] = 1024;
  moe["n_shared_experts"] = 1;
  moe["moe_shared_expert_intermediate_size"] = 2048;
  const ModelArch with_moe = MustParseModel(moe);
  const std::vector<LayerParams> moe_layers = CountLayerParams(with_moe);
  // 8 experts of up/down 2·4480·1024, one shared of 2·4480·2048, router 8·4480, norm 4480.
  EXPECT_EQ(moe_layers[55].routed_experts, 8 * 2 * 4480 * 1024);
  EXPECT_EQ(moe_layers[55].dense_mlp, 2 * 4480 * 2048);
  EXPECT_EQ(moe_layers[55].total(), 8 * 2 * 4480 * 1024 + 2 * 4480 * 2048 + 8 * 4480 + 4480);
  EXPECT_EQ(moe_layers[0].routed_experts, 0);
  ExpectRoundTripAndShapes(moe);
  json short_pattern = nano;
  short_pattern["hybrid_override_pattern"] = "M-*";
  EXPECT_FALSE(ParseModelArch(short_pattern, "model").ok());
  json letter = nano;
  letter["hybrid_override_pattern"] = std::string(55, 'M') + "X";
  Result<ModelArch> bad = ParseModelArch(letter, "model");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.errors().front().message.find("character 56 is 'X'"), std::string::npos);
}

// Without checkpointing an attention-only block followed by an MLP-only block ("*-") saves
// what one Llama-style block with the same plain MLP saves (Arcee, one layer): attention's norm,
// inputs and outputs, then the MLP's; only the block boundaries differ, which full
// checkpointing keeps (two block inputs against one).
TEST(ClassicFamilies, NemotronHBlocksSaveTheirOwnPartOnly) {
  const json base = {{"hidden_size", 1024},      {"intermediate_size", 4096},
                     {"num_attention_heads", 8}, {"num_key_value_heads", 8},
                     {"vocab_size", 1000},       {"tie_word_embeddings", false}};
  json hybrid = base;
  hybrid["model_type"] = "nemotron_h";
  hybrid["num_hidden_layers"] = 2;
  hybrid["hybrid_override_pattern"] = "*-";
  json plain = base;
  plain["model_type"] = "arcee";
  plain["num_hidden_layers"] = 1;
  auto activations = [](const json& model, const char* ac) {
    const json config = {{"device", "h100-80gb"},
                         {"model", model},
                         {"training", {{"local_batch_size", 1}, {"seq_len", 4096}}},
                         {"activation_checkpoint", {{"mode", ac}}}};
    return EstimateMemory(testing::MustParse(config.dump())).stages.front().activations;
  };
  const ActivationBreakdown h = activations(hybrid, "none");
  const ActivationBreakdown p = activations(plain, "none");
  EXPECT_DOUBLE_EQ(h.bytes_per_token_per_layer * 2, p.bytes_per_token_per_layer);
  // Full checkpointing keeps each block's input: two bf16 hidden vectors a token against one.
  const ActivationBreakdown hf = activations(hybrid, "full");
  const ActivationBreakdown pf = activations(plain, "full");
  EXPECT_DOUBLE_EQ(hf.bytes_per_token_per_layer * 2, 2 * 2 * 1024);
  EXPECT_DOUBLE_EQ(pf.bytes_per_token_per_layer, 2 * 1024);
}

// GLM-5 (glm_moe_dsa) is GLM-4.5's MoE family: no unknown-type warning, and its router keeps
// GLM's e_score_correction_bias (E values per MoE block).
TEST(ClassicFamilies, GlmMoeDsaIsReadAsGlmMoe) {
  const json glm5 = {{"model_type", "glm_moe_dsa"}, {"hidden_size", 1024},
                     {"num_hidden_layers", 4},      {"num_attention_heads", 8},
                     {"num_key_value_heads", 8},    {"kv_lora_rank", 128},
                     {"q_lora_rank", 256},          {"qk_nope_head_dim", 64},
                     {"qk_rope_head_dim", 32},      {"v_head_dim", 64},
                     {"intermediate_size", 2048},   {"moe_intermediate_size", 256},
                     {"n_routed_experts", 16},      {"num_experts_per_tok", 2},
                     {"n_shared_experts", 1},       {"first_k_dense_replace", 1},
                     {"vocab_size", 1000},          {"tie_word_embeddings", false}};
  const ModelArch arch = MustParseModel(glm5);
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
  EXPECT_TRUE(arch.router_bias);
  EXPECT_EQ(CountLayerParams(arch)[1].router, 16 * 1024 + 16);
}

}  // namespace
}  // namespace trainmem
