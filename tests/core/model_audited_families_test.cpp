// Config.json files of families a December 2026 audit found miscounted or read only as unknown
// Llama-style decoders (MiniCPM, OLMo, FlexOlmo, Aria). Each config holds the published
// config.json's size fields; each total is the checkpoint's published count unless the comment
// says it is a hand count, and the comments derive what the family adds over a Llama reading.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/model/model.h"
#include "test_support.h"

namespace trainmem {
namespace {

using nlohmann::json;
using testing::ExpectRoundTripAndShapes;
using testing::HasWarningWith;
using testing::MustParseModel;
using testing::Total;

// openbmb/MiniCPM-2B: its config.json has no model_type (architectures MiniCPMForCausalLM) and
// no tie_word_embeddings; MiniCPMConfig defaults to tied and the checkpoint has no lm_head.
// Per layer 4h² + 3hI + 2h = 21,233,664 + 39,813,120 + 4,608 = 61,051,392; 40 layers, one
// 122,753 × 2,304 table, final norm: 2,724,880,896 (the checkpoint's tensor count). Untied it
// would be 282,822,912 more (+10.4%).
TEST(AuditedFamilies, MiniCpmIsTiedWithoutAModelType) {
  const json minicpm = {{"architectures", {"MiniCPMForCausalLM"}},
                        {"hidden_size", 2304},
                        {"intermediate_size", 5760},
                        {"num_attention_heads", 36},
                        {"num_hidden_layers", 40},
                        {"num_key_value_heads", 36},
                        {"max_position_embeddings", 2048},
                        {"vocab_size", 122753},
                        {"scale_emb", 12},
                        {"dim_model_base", 256},
                        {"scale_depth", 1.4}};
  EXPECT_EQ(Total(minicpm), 2724880896);
  EXPECT_TRUE(MustParseModel(minicpm).tie_embeddings);
  EXPECT_FALSE(HasWarningWith(MustParseModel(minicpm), "not one trainmem knows"));
  ExpectRoundTripAndShapes(minicpm);
}

// allenai/OLMo-1B-hf: OlmoLayerNorm has no weight and no bias, so the blocks are 4h² + 3hI =
// 67,108,864 each; 16 of them plus the tied 50,304 × 2,048 table: 1,176,764,416 (the model's
// parameter count). A Llama reading adds (2 · 16 + 1) × 2,048 norm weights.
TEST(AuditedFamilies, OlmoLayerNormsHoldNoParameters) {
  const json olmo = {{"architectures", {"OlmoForCausalLM"}},
                     {"model_type", "olmo"},
                     {"hidden_size", 2048},
                     {"intermediate_size", 8192},
                     {"num_attention_heads", 16},
                     {"num_hidden_layers", 16},
                     {"num_key_value_heads", 16},
                     {"max_position_embeddings", 2048},
                     {"attention_bias", false},
                     {"clip_qkv", nullptr},
                     {"tie_word_embeddings", true},
                     {"vocab_size", 50304}};
  EXPECT_EQ(Total(olmo), 1176764416);
  EXPECT_EQ(MustParseModel(olmo).norms_per_layer, 0);
  EXPECT_FALSE(MustParseModel(olmo).final_norm);
  ExpectRoundTripAndShapes(olmo);  // a custom model in a share link keeps its norm-free blocks
}

// allenai/FlexOlmo-7x7B-1T: OLMo 2 blocks (full-width q_norm and k_norm, post-attention and
// post-feedforward norms) with 7 routed experts of intermediate_size, all 7 active. Per layer
// 4h² + 2h + 2h + 7h (router) + 7 · 3hI = 1,014,018,048; 32 layers, untied 100,352 × 4,096
// tables, final norm: 33,270,665,216 (the index's total_parameters).
TEST(AuditedFamilies, FlexOlmoIsOlmo2WithExperts) {
  const json flex = {{"architectures", {"FlexOlmoForCausalLM"}},
                     {"model_type", "flex_olmo"},
                     {"hidden_size", 4096},
                     {"intermediate_size", 11008},
                     {"num_attention_heads", 32},
                     {"num_hidden_layers", 32},
                     {"num_key_value_heads", 32},
                     {"max_position_embeddings", 4096},
                     {"num_experts", 7},
                     {"num_experts_per_tok", 7},
                     {"tie_word_embeddings", false},
                     {"vocab_size", 100352}};
  EXPECT_EQ(Total(flex), 33270665216);
  ExpectRoundTripAndShapes(flex);
}

// rhymes-ai/Aria: the language model (text_config, aria_text) has 64 routed experts of 1,664
// per layer and moe_num_shared_experts shared ones, 2 when the config leaves it out
// (AriaTextConfig). Per layer 4h² + 2h + 64h (router) + 64 · 3hI + 3h · 2I = 869,831,680, of
// which the shared MLP is 25,559,040; 28 layers, untied 100,352 × 2,560 tables, final norm:
// 24,869,091,840, a hand count (the paper: a 24.9B language model; with one shared expert it
// would be 24.51B). The vision tower is not counted.
TEST(AuditedFamilies, AriaHasTwoSharedExpertsByDefault) {
  const json aria = {{"architectures", {"AriaForConditionalGeneration"}},
                     {"model_type", "aria"},
                     {"text_config",
                      {{"model_type", "aria_text"},
                       {"hidden_size", 2560},
                       {"intermediate_size", 1664},
                       {"moe_intermediate_size", 1664},
                       {"moe_num_experts", 64},
                       {"moe_topk", 6},
                       {"num_experts_per_tok", 6},
                       {"num_attention_heads", 20},
                       {"num_hidden_layers", 28},
                       {"num_key_value_heads", 20},
                       {"max_position_embeddings", 65536},
                       {"vocab_size", 100352}}},
                     {"vision_config", {{"model_type", "idefics3_vision"}}}};
  EXPECT_EQ(Total(aria), 24869091840);
  EXPECT_EQ(MustParseModel(aria).num_shared_experts, 2);
  ExpectRoundTripAndShapes(aria);
}

// google/recurrentgemma-2b (Griffin): _block_types [recurrent, recurrent, attention] repeated
// over 26 layers, so 18 recurrent and 8 attention layers. Every layer: two RMSNorms and a gated
// MLP intermediate_size / 2 = 7,680 wide with biases: 3 · 2,560 · 7,680 + 2 · 7,680 + 2,560 =
// 59,000,320. Attention (10 heads of 256, one KV head, o_proj bias): 6,553,600 + 2 · 655,360 +
// 6,553,600 + 2,560 = 14,420,480. Recurrent block (lru 2,560, conv 4, 10 gate blocks of 256):
// linear_y, linear_x, linear_out with biases 19,668,480, conv 12,800, RG-LRU 2,560 + 2 · 10 ·
// 256² + 2 · 10 · 256 = 1,318,400: 20,999,680. Tied 256,000 × 2,560 table and final norm:
// 2,682,862,080, the checkpoint's safetensors count. Read as attention everywhere with a full-
// width MLP and an untied head it was 4,752,806,400 (+77%).
TEST(AuditedFamilies, RecurrentGemmaCountsItsRgLruBlocks) {
  const json griffin = {{"architectures", {"RecurrentGemmaForCausalLM"}},
                        {"model_type", "recurrent_gemma"},
                        {"_block_types", {"recurrent", "recurrent", "attention"}},
                        {"attention_bias", false},
                        {"attention_window_size", 2048},
                        {"conv1d_width", 4},
                        {"head_dim", 256},
                        {"hidden_size", 2560},
                        {"intermediate_size", 15360},
                        {"lru_width", 2560},
                        {"num_attention_heads", 10},
                        {"num_hidden_layers", 26},
                        {"num_key_value_heads", 1},
                        {"partial_rotary_factor", 0.5},
                        {"vocab_size", 256000}};
  EXPECT_EQ(Total(griffin), 2682862080);
  const ModelArch arch = MustParseModel(griffin);
  EXPECT_EQ(arch.MixerOf(0), MixerKind::kRgLru);
  EXPECT_EQ(arch.MixerOf(2), MixerKind::kAttention);
  EXPECT_EQ(arch.intermediate_size, 7680);
  EXPECT_TRUE(HasWarningWith(arch, "18 of 26 layers are RG-LRU"));
  ExpectRoundTripAndShapes(griffin);
}

}  // namespace
}  // namespace trainmem
