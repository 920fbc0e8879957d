// Attention shapes read by field (model_parse_attention.cpp): sliding-window layers shaped unlike
// the full-attention ones (the swa_* keys, hybrid_layer_pattern, values narrower than queries and
// keys, sinks on the sliding layers only) and Step3's low-rank query. Totals are hand counts from
// the modeling file cited in each comment.
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

json HybridPattern() {
  json pattern = json::array();
  for (int i = 0; i < 48; ++i) pattern.push_back(i == 0 || (i + 1) % 6 == 0 ? 0 : 1);
  return pattern;
}

json MoeLayerFreq() {
  json freq = json::array({0});
  for (int i = 1; i < 48; ++i) freq.push_back(1);
  return freq;
}

// XiaomiMiMo/MiMo-V2-Flash's size fields (its hub config.json's remote-code keys, as a public
// test transcribes a mimo_v2 release: find_string id 68774810672; the same numbers are
// MiMoV2FlashConfig's defaults). transformers models/mimo_v2_flash/modeling_mimo_v2_flash.py:
// q_proj 4,096 → 64 × 192, k_proj → kv × 192, v_proj → kv × 128, o_proj 64 × 128 → 4,096; the 9
// full-attention layers (0, 5, 11, …, 47) have 4 KV heads: 89,128,960; the 39 sliding-window
// layers 8 KV heads and 64 sinks: 94,371,904. Layer 0's MLP is dense (3 × 4,096 × 16,384), the
// other 47 route over 256 experts 2,048 wide (+ router 256 × 4,096 and its 256
// e_score_correction_bias). Two norms a block, the final norm, untied 152,576 × 4,096 tables:
// 308,778,780,864 (the card's 309B). Each MTP block (model.mtp.*; transformers skips it on load)
// is a dense sliding-window block with enorm, hnorm, eh_proj 2h → h and a final norm, reading the
// main embedding and head: 329,273,408 (the report's 0.33B). Read as an unknown Llama-style
// decoder the trunk was 309,429,944,064 (+0.21%: o_proj 64 × 192 wide, 4 KV heads everywhere,
// no sinks) and each MTP block 7,833,932,032 (an MoE block with embedding and head copies).
json MimoV2Flash() {
  return {{"architectures", {"MiMoV2FlashForCausalLM"}},
          {"model_type", "mimo_v2_flash"},
          {"vocab_size", 152576},
          {"hidden_size", 4096},
          {"num_hidden_layers", 48},
          {"num_attention_heads", 64},
          {"num_key_value_heads", 4},
          {"head_dim", 192},
          {"v_head_dim", 128},
          {"swa_num_attention_heads", 64},
          {"swa_num_key_value_heads", 8},
          {"swa_head_dim", 192},
          {"swa_v_head_dim", 128},
          {"add_swa_attention_sink_bias", true},
          {"add_full_attention_sink_bias", false},
          {"sliding_window", 128},
          {"hybrid_layer_pattern", HybridPattern()},
          {"moe_layer_freq", MoeLayerFreq()},
          {"intermediate_size", 16384},
          {"moe_intermediate_size", 2048},
          {"n_routed_experts", 256},
          {"num_experts_per_tok", 8},
          {"n_shared_experts", nullptr},
          {"scoring_func", "sigmoid"},
          {"topk_method", "noaux_tc"},
          {"norm_topk_prob", true},
          {"num_nextn_predict_layers", 3},
          {"tie_word_embeddings", false}};
}

TEST(AttentionShapes, MimoV2FlashSlidingLayersHaveTheirOwnKvHeadsAndSinks) {
  const json mimo = MimoV2Flash();
  const ModelArch arch = MustParseModel(mimo);
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
  EXPECT_EQ(arch.KvHeadsOf(0), 4);
  EXPECT_EQ(arch.KvHeadsOf(1), 8);
  EXPECT_EQ(arch.KvHeadsOf(5), 4);
  EXPECT_TRUE(arch.SinksOf(1));
  EXPECT_FALSE(arch.SinksOf(47));
  EXPECT_EQ(arch.value_head_dim, 128);
  EXPECT_EQ(CountParams(arch, false).total, 308778780864);
  EXPECT_EQ(MtpModuleParams(arch, false), 329273408);
  EXPECT_EQ(Total(mimo), 308778780864 + 3 * 329273408);
  ExpectRoundTripAndShapes(mimo);

  // transformers' MiMoV2FlashConfig leaves the sliding layers' shape to the model: twice the KV
  // heads, sinks, full attention at layer 0 and every 6th. The same count.
  json hf = mimo;
  for (const char* key : {"swa_num_attention_heads", "swa_num_key_value_heads", "swa_head_dim",
                          "swa_v_head_dim", "add_swa_attention_sink_bias",
                          "add_full_attention_sink_bias", "hybrid_layer_pattern", "topk_method"})
    hf.erase(key);
  EXPECT_EQ(Total(hf), Total(mimo));
}

// The keys are read by their fields, whatever the model_type: an unknown type with a sliding
// pattern and narrower values counts them (and full-layer sinks when only those are asked for).
TEST(AttentionShapes, FieldsCountUnderAnyModelTypeAndDisagreementsAreRefused) {
  const json small = {{"model_type", "new_hybrid_lm"},
                      {"hidden_size", 256},
                      {"num_hidden_layers", 4},
                      {"num_attention_heads", 4},
                      {"num_key_value_heads", 1},
                      {"head_dim", 64},
                      {"v_head_dim", 32},
                      {"swa_num_key_value_heads", 2},
                      {"add_swa_attention_sink_bias", true},
                      {"sliding_window", 16},
                      {"hybrid_layer_pattern", {0, 1, 1, 0}},
                      {"intermediate_size", 512},
                      {"vocab_size", 1000},
                      {"tie_word_embeddings", true}};
  // q 256 × 256, o 128 × 256; full layers k 64 × 256, v 32 × 256: 122,880; sliding layers twice
  // the k/v and 4 sinks: 147,460. MLP 3 × 256 × 512, 2 norms: 393,728 a layer. Tied table
  // 256,000 + final norm 256.
  EXPECT_EQ(Total(small), 2 * 122880 + 2 * 147460 + 4 * 393728 + 256000 + 256);
  ExpectRoundTripAndShapes(small);

  json wide = small;
  wide["swa_head_dim"] = 128;
  const Result<ModelArch> r = ParseModelArch(wide, "model");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors()[0].path, "model.swa_head_dim");
  json uneven = small;
  uneven["swa_num_key_value_heads"] = 3;
  EXPECT_FALSE(ParseModelArch(uneven, "model").ok());
}

// Devstral 2 declares model_type "ministral3" (Ministral3ForCausalLM; Ministral 3's text_config
// too): Mistral's blocks, so the same count as the mistral reading, without the unknown-type note.
TEST(AttentionShapes, Ministral3IsMistral) {
  json ministral = {{"architectures", {"Ministral3ForCausalLM"}},
                    {"model_type", "ministral3"},
                    {"head_dim", 128},
                    {"hidden_size", 1024},
                    {"intermediate_size", 4096},
                    {"num_attention_heads", 16},
                    {"num_hidden_layers", 4},
                    {"num_key_value_heads", 8},
                    {"tie_word_embeddings", false},
                    {"vocab_size", 131072}};
  EXPECT_FALSE(HasWarningWith(MustParseModel(ministral), "not one trainmem knows"));
  json mistral = ministral;
  mistral["model_type"] = "mistral";
  mistral["architectures"] = {"MistralForCausalLM"};
  EXPECT_EQ(Total(ministral), Total(mistral));
}

// stepfun-ai/step3's text model (modeling_step3.py Step3vAttention): q_proj h → share_q_dim,
// inter_norm, wq → heads · head_dim. With the card's shape (61 layers of 7,168, share_q_dim
// 2,048, 64 heads of 256, one KV group) a layer's query is 7,168 × 2,048 + 2,048 + 2,048 × 16,384
// = 48,236,544 instead of q_proj's 117,440,512: 4,221,442,048 less over 61 layers (the Llama
// reading was +1.3% on the card's 316B). The MLP and vocabulary widths below are placeholders:
// the difference does not depend on them.
TEST(AttentionShapes, Step3QueryIsLowRank) {
  json step3 = {{"architectures", {"Step3TextForCausalLM"}},
                {"model_type", "step3_text"},
                {"hidden_size", 7168},
                {"num_hidden_layers", 61},
                {"num_attention_heads", 64},
                {"num_attention_groups", 1},
                {"head_dim", 256},
                {"share_q_dim", 2048},
                {"intermediate_size", 1024},
                {"moe_num_experts", 4},
                {"moe_top_k", 1},
                {"moe_intermediate_size", 512},
                {"share_expert_dim", 512},
                {"vocab_size", 1000}};
  const ModelArch arch = MustParseModel(step3);
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
  EXPECT_EQ(arch.query_rank, 2048);
  EXPECT_EQ(arch.num_kv_heads, 1);
  json full_rank = step3;
  full_rank.erase("share_q_dim");
  EXPECT_EQ(Total(full_rank) - Total(step3), 4221442048);
  ExpectRoundTripAndShapes(step3);
}

}  // namespace
}  // namespace trainmem
