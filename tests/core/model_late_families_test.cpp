// Config.json files of families read by name since December 2026 (MiMo, Snowflake Arctic, Arcee
// AFMoE, EXAONE 4.0, OLMoE, dots.llm1). Each config holds the published config.json's size
// fields; each total is the checkpoint's published safetensors count (Arctic: a hand count, its
// card says "480B"), and the comments derive what the family adds over a Llama reading.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/model/model.h"
#include "test_support.h"

namespace trainmem {
namespace {

using nlohmann::json;
using testing::ExpectRoundTripAndShapes;
using testing::HasWarningWith;
using testing::MustParse;
using testing::MustParseModel;
using testing::Total;

// XiaomiMiMo/MiMo-7B-Base: Qwen2 blocks (q/k/v bias, none on o_proj) and one MTP layer that
// shares embed_tokens and lm_head. Per layer: q 4,096² + 4,096 bias, k and v 1,024 × 4,096 +
// 1,024 each, o 4,096², MLP 3 × 4,096 × 11,008, two norms: 185,079,808 + 6,144 + 8,192 … the
// main model is 7,622,619,136 (36 layers, untied 151,680 × 4,096 tables, final norm). The MTP
// layer (modeling_mimo.py MiMoMTPLayers: token/hidden layernorms, input_proj 2h → h, one
// decoder block, final_layernorm) is 210,790,400: 2 × 4,096² + 3 × 4,096 norms + the block's
// 177,223,680. Total 7,833,409,536; with DeepSeek's per-module embed and head copies it would
// be 2 × 621,281,280 more (+15.9%), with an o_proj bias 151,552 more.
TEST(LateFamilies, MiMoSharesItsEmbeddingsWithTheMtpLayer) {
  const json mimo = {{"architectures", {"MiMoForCausalLM"}},
                     {"model_type", "mimo"},
                     {"attention_bias", true},
                     {"hidden_size", 4096},
                     {"intermediate_size", 11008},
                     {"num_attention_heads", 32},
                     {"num_hidden_layers", 36},
                     {"num_key_value_heads", 8},
                     {"num_nextn_predict_layers", 1},
                     {"max_position_embeddings", 32768},
                     {"tie_word_embeddings", false},
                     {"vocab_size", 151680}};
  EXPECT_EQ(Total(mimo), 7833409536);
  const ModelArch arch = MustParseModel(mimo);
  EXPECT_TRUE(arch.qkv_bias);
  EXPECT_FALSE(arch.o_bias);
  EXPECT_FALSE(arch.mtp_embedding_copies);
  EXPECT_EQ(MtpModuleParams(arch, true), 210790400);
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
  ExpectRoundTripAndShapes(mimo);
}

// Snowflake/snowflake-arctic-instruct (ArcticConfig; modeling_arctic.py ArcticDecoderLayer with
// parallel_attn_mlp_res): 128 experts 4,864 wide, top-2, in all 35 layers, and beside them a
// residual_mlp 7,168 wide (3 × 7,168² = 154,140,672) with its residual_layernorm (7,168): per
// layer 5,395,174,400 / 35 = 154,147,840 more than the Mixtral reading (473,189,434,368).
// Total 478,584,608,768, of which 9,996,965,888 dense — the card's "10B dense + 128 × 3.66B".
TEST(LateFamilies, ArcticHasADenseResidualMlpBesideItsExperts) {
  json arctic = {{"architectures", {"ArcticForCausalLM"}},
                 {"model_type", "arctic"},
                 {"hidden_size", 7168},
                 {"intermediate_size", 4864},
                 {"num_attention_heads", 56},
                 {"num_hidden_layers", 35},
                 {"num_key_value_heads", 8},
                 {"num_local_experts", 128},
                 {"num_experts_per_tok", 2},
                 {"moe_layer_frequency", 1},
                 {"parallel_attn_mlp_res", true},
                 {"max_position_embeddings", 4096},
                 {"tie_word_embeddings", false},
                 {"vocab_size", 32000}};
  EXPECT_EQ(Total(arctic), 478584608768);
  const ParamCounts c = CountParams(MustParseModel(arctic), true);
  EXPECT_EQ(c.dense, 9996965888);
  EXPECT_EQ(c.expert, 128LL * 35 * 3 * 7168 * 4864);
  ExpectRoundTripAndShapes(arctic);
  // Without the residual MLP the blocks are Mixtral's.
  arctic["parallel_attn_mlp_res"] = false;
  EXPECT_EQ(Total(arctic), 478584608768 - 35LL * (3 * 7168 * 7168 + 7168));
  // moe_layer_frequency 2: experts in every second layer ((i + 1) % 2 == 0), dense 4,864-wide
  // MLPs in the others.
  arctic["moe_layer_frequency"] = 2;
  const ModelArch every_other = MustParseModel(arctic);
  EXPECT_FALSE(every_other.layer_is_moe[0]);
  EXPECT_TRUE(every_other.layer_is_moe[1]);
}

json Trinity(std::int64_t hidden, std::int64_t layers, std::int64_t heads, std::int64_t kv,
             std::int64_t ffn, std::int64_t expert_ffn) {
  json types = json::array();
  for (std::int64_t i = 0; i < layers; ++i)
    types.push_back((i + 1) % 4 == 0 ? "full_attention" : "sliding_attention");
  return {{"architectures", {"AfmoeForCausalLM"}},
          {"model_type", "afmoe"},
          {"head_dim", 128},
          {"hidden_size", hidden},
          {"intermediate_size", ffn},
          {"moe_intermediate_size", expert_ffn},
          {"num_attention_heads", heads},
          {"num_key_value_heads", kv},
          {"num_hidden_layers", layers},
          {"num_dense_layers", 2},
          {"num_experts", 128},
          {"num_experts_per_tok", 8},
          {"num_shared_experts", 1},
          {"layer_types", types},
          {"sliding_window", 2048},
          {"max_position_embeddings", 131072},
          {"tie_word_embeddings", false},
          {"vocab_size", 200192}};
}

// arcee-ai Trinity-Mini (AFMoE, modular_afmoe.py): over a Llama reading each of the 32 layers
// adds the attention's gate_proj (2,048 → 32 · 128: 8,388,608), q/k RMSNorms (2 × 128), the
// pre/post-MLP norms (2 × 2,048) and, in the 30 MoE layers, the router's expert_bias (128):
// 268,578,560 in all. Published 26,123,974,400. Trinity-Nano-Preview (h 1,024, 56 layers, 8
// heads, 2 KV heads, experts 256 wide): published 6,120,003,328.
TEST(LateFamilies, AfmoeGatesItsAttentionAndNormsFourTimesABlock) {
  const json mini = Trinity(2048, 32, 32, 4, 6144, 1024);
  EXPECT_EQ(Total(mini), 26123974400);
  const ModelArch arch = MustParseModel(mini);
  EXPECT_TRUE(arch.attention_output_gate);
  EXPECT_TRUE(arch.qk_norm);
  EXPECT_EQ(arch.norms_per_layer, 4);
  EXPECT_TRUE(arch.router_bias);
  EXPECT_FALSE(arch.layer_is_moe[1]);
  EXPECT_TRUE(arch.layer_is_moe[2]);
  EXPECT_EQ(Total(Trinity(1024, 56, 8, 2, 3072, 256)), 6120003328);
  ExpectRoundTripAndShapes(mini);
}

// LGAI-EXAONE/EXAONE-4.0-32B: Llama blocks with per-head q/k RMSNorms (2 × 128 in each of 64
// layers; 16,384 over the Llama reading). Published 32,003,216,384.
TEST(LateFamilies, Exaone4HasPerHeadQkNorms) {
  const json exaone = {{"architectures", {"Exaone4ForCausalLM"}},
                       {"model_type", "exaone4"},
                       {"head_dim", 128},
                       {"hidden_size", 5120},
                       {"intermediate_size", 27392},
                       {"num_attention_heads", 40},
                       {"num_hidden_layers", 64},
                       {"num_key_value_heads", 8},
                       {"sliding_window", 4096},
                       {"max_position_embeddings", 131072},
                       {"tie_word_embeddings", false},
                       {"vocab_size", 102400}};
  EXPECT_EQ(Total(exaone), 32003216384);
  EXPECT_FALSE(MustParseModel(exaone).qk_norm_full);
}

// allenai/OLMoE-1B-7B-0924 (OlmoeAttention: q_norm over hidden_size, k_norm over kv_heads ·
// head_dim, here both 2,048): 64 experts as wide as intermediate_size (1,024), top-8, in all
// 16 layers. Published 6,919,161,856. dots.llm1 (Dots1: Qwen3 attention with per-head q/k
// norms, DeepSeek-V3's MoE from layer 1 with two shared experts and the e_score_correction_bias
// of its noaux_tc router): published 142,774,381,696.
TEST(LateFamilies, OlmoeAndDotsCountTheirQkNormsAndRouters) {
  const json olmoe = {{"architectures", {"OlmoeForCausalLM"}},
                      {"model_type", "olmoe"},
                      {"hidden_size", 2048},
                      {"intermediate_size", 1024},
                      {"num_attention_heads", 16},
                      {"num_hidden_layers", 16},
                      {"num_key_value_heads", 16},
                      {"num_experts", 64},
                      {"num_experts_per_tok", 8},
                      {"max_position_embeddings", 4096},
                      {"tie_word_embeddings", false},
                      {"vocab_size", 50304}};
  EXPECT_EQ(Total(olmoe), 6919161856);
  EXPECT_TRUE(MustParseModel(olmoe).qk_norm_full);
  const json dots = {{"architectures", {"Dots1ForCausalLM"}},
                     {"model_type", "dots1"},
                     {"hidden_size", 4096},
                     {"num_hidden_layers", 62},
                     {"intermediate_size", 10944},
                     {"num_attention_heads", 32},
                     {"num_key_value_heads", 32},
                     {"vocab_size", 152064},
                     {"first_k_dense_replace", 1},
                     {"moe_intermediate_size", 1408},
                     {"n_routed_experts", 128},
                     {"n_shared_experts", 2},
                     {"num_experts_per_tok", 6},
                     {"max_position_embeddings", 32768},
                     {"tie_word_embeddings", false}};
  EXPECT_EQ(Total(dots), 142774381696);
  const ModelArch arch = MustParseModel(dots);
  EXPECT_TRUE(arch.router_bias);
  EXPECT_TRUE(arch.qk_norm);
  EXPECT_EQ(arch.attention, AttentionKind::kGqa);
  ExpectRoundTripAndShapes(dots);
}

// meituan-longcat/LongCat-Flash-Chat (modeling_longcat_flash.py): 28 layers, each two MLA
// sublayers (h 6,144, 64 heads, q_lora 1,536, kv_lora 512: 90,572,800 each) with two dense MLPs
// 12,288 wide (226,492,416 each) and four norms, plus one MoE of 512 experts 2,048 wide (top-12)
// whose router also scores 256 zero-computation experts: its classifier and
// e_score_correction_bias are 768 wide, 28 × (768 × 6,144 + 768). By hand, 560,664,980,480: the
// published 561,862,880,256 less the checkpoint's MTP layer (eh_proj 75,497,472 + an MLA
// 90,572,800 + a dense MLP 226,492,416 + its own 131,072 × 6,144 embedding 805,306,368 + five
// norms 30,720 = 1,197,899,776), which config.json does not announce.
TEST(LateFamilies, LongcatFlashLayersAreTwoBlocksAndAnMoe) {
  const json longcat = {{"architectures", {"LongcatFlashForCausalLM"}},
                        {"model_type", "longcat_flash"},
                        {"hidden_size", 6144},
                        {"num_layers", 28},
                        {"num_attention_heads", 64},
                        {"ffn_hidden_size", 12288},
                        {"expert_ffn_hidden_size", 2048},
                        {"n_routed_experts", 512},
                        {"moe_topk", 12},
                        {"zero_expert_num", 256},
                        {"q_lora_rank", 1536},
                        {"kv_lora_rank", 512},
                        {"qk_nope_head_dim", 128},
                        {"qk_rope_head_dim", 64},
                        {"v_head_dim", 128},
                        {"max_position_embeddings", 131072},
                        {"vocab_size", 131072}};
  EXPECT_EQ(Total(longcat), 560664980480);
  // The released config.json says router_bias false: that is the classifier's own bias; the
  // correction bias is stored all the same.
  json released = longcat;
  released["router_bias"] = false;
  EXPECT_EQ(Total(released), 560664980480);
  const ModelArch arch = MustParseModel(longcat);
  EXPECT_EQ(arch.zero_experts, 256);
  EXPECT_EQ(CountLayerParams(arch)[0].router, 768 * 6144 + 768);
  EXPECT_EQ(arch.num_layers, 56);
  EXPECT_TRUE(arch.layer_is_moe[0]);
  EXPECT_FALSE(arch.layer_is_moe[1]);
  EXPECT_EQ(arch.moe_intermediate_size, 2048);
  EXPECT_EQ(arch.shared_expert_intermediate_size, 12288);
  EXPECT_TRUE(HasWarningWith(arch, "two attention + MLP blocks"));
  ExpectRoundTripAndShapes(longcat);
  // As transformers saves LongcatFlashConfig: num_hidden_layers = 2 · num_layers beside it.
  json saved = longcat;
  saved["num_hidden_layers"] = 56;
  EXPECT_EQ(Total(saved), 560664980480);
  // Both names for the same 28 layers (refused before: read as 28 plain blocks it missed
  // moe_intermediate_size).
  saved["num_hidden_layers"] = 28;
  EXPECT_EQ(Total(saved), 560664980480);
}

// adept/persimmon-8b-base (modeling_persimmon.py): per layer query_key_value 4,096 × 12,288 +
// 12,288 bias, dense 4,096² + 4,096, per-head q/k LayerNorms 2 × (64 + 64), a plain relu²
// MLP 4,096 × 16,384 + 16,384 and 16,384 × 4,096 + 4,096, two LayerNorms 2 × 8,192:
// 201,380,096; × 36 = 7,249,683,456, + untied 262,144 × 4,096 tables (2,147,483,648) + the
// final LayerNorm 8,192 = 9,397,175,296. A Llama reading (gated MLP, no biases) was 11.81B.
// google/vaultgemma-1b: 26 layers of 4 heads × 256 (q, k, v, o: 4 × 1,152 × 1,024), a gated
// MLP 3 × 1,152 × 6,912 and two norms: 28,608,768 each; tied 256,000 × 1,152 table (the config
// has no tie_word_embeddings: VaultGemmaConfig defaults to true) + final norm = 1,038,741,120.
TEST(LateFamilies, PersimmonAndVaultGemmaDefaults) {
  const json persimmon = {{"architectures", {"PersimmonForCausalLM"}},
                          {"model_type", "persimmon"},
                          {"hidden_act", "relu2"},
                          {"hidden_size", 4096},
                          {"intermediate_size", 16384},
                          {"num_attention_heads", 64},
                          {"num_hidden_layers", 36},
                          {"num_key_value_heads", 64},
                          {"qk_layernorm", true},
                          {"max_position_embeddings", 16384},
                          {"tie_word_embeddings", false},
                          {"vocab_size", 262144}};
  EXPECT_EQ(Total(persimmon), 9397175296);
  ExpectRoundTripAndShapes(persimmon);
  const json vaultgemma = {{"architectures", {"VaultGemmaForCausalLM"}},
                           {"model_type", "vaultgemma"},
                           {"hidden_size", 1152},
                           {"intermediate_size", 6912},
                           {"head_dim", 256},
                           {"num_attention_heads", 4},
                           {"num_hidden_layers", 26},
                           {"num_key_value_heads", 4},
                           {"max_position_embeddings", 1024},
                           {"vocab_size", 256000}};
  EXPECT_EQ(Total(vaultgemma), 1038741120);
  EXPECT_TRUE(MustParseModel(vaultgemma).tie_embeddings);
}

json Gemma4(std::int64_t hidden, std::int64_t layers, std::int64_t heads, std::int64_t kv,
            std::int64_t ffn, std::int64_t every) {
  json types = json::array();
  for (std::int64_t i = 0; i < layers; ++i)
    types.push_back((i + 1) % every == 0 ? "full_attention" : "sliding_attention");
  return {{"architectures", {"Gemma4ForCausalLM"}},
          {"model_type", "gemma4_text"},
          {"hidden_size", hidden},
          {"intermediate_size", ffn},
          {"num_hidden_layers", layers},
          {"num_attention_heads", heads},
          {"num_key_value_heads", kv},
          {"head_dim", 256},
          {"global_head_dim", 512},
          {"layer_types", types},
          {"sliding_window", 1024},
          {"max_position_embeddings", 131072},
          {"tie_word_embeddings", true},
          {"vocab_size", 262144}};
}

// google/gemma-4-31B (modeling_gemma4.py): 50 sliding layers of 32 × 256 query heads and 16 ×
// 256 KV heads (q, k, v, o: 132,120,576), q/k norms 2 × 256, a GeGLU MLP 3 × 5,376 × 21,504,
// four norms and a layer_scalar: 478,959,105 each; every 6th layer is full attention, 512
// wide with attention_k_eq_v: 4 KV heads (num_global_key_value_heads), k_proj only (q 5,376 ×
// 16,384, k 5,376 × 2,048, o 16,384 × 5,376 = 187,170,816) and q/k norms 2 × 512: 534,009,857.
// With the tied 262,144 × 5,376 table and the final norm: 30,697,345,340 — the card's 30.7B
// (its vision tower not counted). Read as all-sliding Gemma 3 blocks it was 30,146,161,920.
TEST(LateFamilies, Gemma4GlobalLayersAreWiderAndShareKeysWithValues) {
  json g31 = Gemma4(5376, 60, 32, 16, 21504, 6);
  g31["num_global_key_value_heads"] = 4;
  g31["attention_k_eq_v"] = true;
  EXPECT_EQ(Total(g31), 30697345340);
  const ModelArch arch = MustParseModel(g31);
  EXPECT_EQ(arch.HeadDimOf(5), 512);
  EXPECT_EQ(arch.KvHeadsOf(5), 4);
  EXPECT_EQ(arch.KvProjectionsOf(5), 1);
  EXPECT_EQ(arch.HeadDimOf(4), 256);
  EXPECT_EQ(arch.KvHeadsOf(4), 16);
  EXPECT_TRUE(arch.layer_scalar);
  ExpectRoundTripAndShapes(g31);
  // Tensor parallelism must divide the global layers' 4 KV heads too.
  json job = {{"model", g31}, {"world_size", 8}, {"parallelism", {{"tensor_parallel_degree", 8}}}};
  const Result<Config> tp8 = ParseConfig(job.dump(), testing::TestPresets());
  ASSERT_FALSE(tp8.ok());
  EXPECT_NE(tp8.errors()[0].message.find("layer 5's 4 key/value heads"), std::string::npos);

  // gemma-4-26B-A4B: the same layers at h 2,816 (16 heads, 8 KV, 2 global KV, dense MLP 2,112)
  // plus, in every layer, 128 experts 704 wide (top-8) beside the dense MLP, three more norms,
  // the router (128 × 2,816), its input scale (2,816) and per-expert scale (128). Card: 25.2B.
  json moe = Gemma4(2816, 30, 16, 8, 2112, 6);
  moe.update({{"num_global_key_value_heads", 2},
              {"attention_k_eq_v", true},
              {"enable_moe_block", true},
              {"num_experts", 128},
              {"top_k_experts", 8},
              {"moe_intermediate_size", 704}});
  EXPECT_EQ(Total(moe), 25233141790);
  ExpectRoundTripAndShapes(moe);
}

// google/gemma-4-E2B: 35 layers (every 5th full attention, 512 wide), h 1,536, 8 heads, 1 KV
// head; the last 20 layers reuse earlier layers' keys and values (no k_proj, v_proj, k_norm)
// and have double-wide MLPs (2 × 6,144); per-layer embeddings: a 262,144 × (35 · 256) table
// (2,348,810,240), its projection 1,536 × 8,960 (13,762,560) and norm, and per block a gate,
// a projection (2 × 1,536 × 256) and a norm. Built: 4,628,569,379; without the per-layer table
// 2.28B, the card's "2.3B effective". The checkpoint still stores the shared layers' k_proj,
// v_proj and k_norm (google/gemma-4-E2B-it's tensor dump, layers 15–34): 16 sliding layers of
// 2 × 1,536 × 256 + 256 = 786,688 and 4 full ones of 2 × 1,536 × 512 + 512 = 1,573,376, so
// 18,880,512 more as stored: 4,647,449,891, the dump's language-model tensors to the unit.
// Training builds, and the estimate holds, the 4,628,569,379.
TEST(LateFamilies, Gemma4SmallModelsShareKvAndEmbedPerLayer) {
  json e2b = Gemma4(1536, 35, 8, 1, 6144, 5);
  e2b.update({{"num_kv_shared_layers", 20},
              {"use_double_wide_mlp", true},
              {"hidden_size_per_layer_input", 256},
              {"vocab_size_per_layer_input", 262144},
              {"sliding_window", 512}});
  EXPECT_EQ(Total(e2b), 4647449891);
  const ModelArch arch = MustParseModel(e2b);
  EXPECT_EQ(CountParams(arch, true).stored_unused, 18880512);
  EXPECT_EQ(CountParams(arch, false).total, 4628569379);
  EXPECT_EQ(CountParams(arch, true).active, CountParams(arch, false).active);
  EXPECT_TRUE(HasWarningWith(arch, "k_norm for the last 20 (KV-shared) layers"));
  EXPECT_EQ(arch.KvProjectionsOf(14), 2);
  EXPECT_EQ(arch.KvProjectionsOf(15), 0);
  EXPECT_EQ(arch.MlpWidthOf(15), 2 * 6144);
  EXPECT_EQ(CountParams(arch, true).embedding, 262144LL * 1536 + 2348810240 + 13762560 + 256);
  ExpectRoundTripAndShapes(e2b);
  // With pipeline stages the last one keeps a copy of the tied head: the token table only, as
  // an untied head would be, not the per-layer tables counted with the embedding.
  auto last_stage_params = [](const json& model) {
    const json job = {{"model", model},
                      {"framework", "megatron"},
                      {"world_size", 2},
                      {"parallelism", {{"pipeline_parallel_degree", 2}}},
                      {"training", {{"local_batch_size", 1}, {"seq_len", 1024}}}};
    return EstimateMemory(MustParse(job.dump())).stages.back().bytes.parameters;
  };
  json untied = e2b;
  untied["tie_word_embeddings"] = false;
  EXPECT_EQ(last_stage_params(e2b), last_stage_params(untied));
}

// google/gemma-3n-E4B (modeling_gemma3n.py), text model: 35 layers of h 2,048, 8 heads and 2 KV
// heads of 256 (10,485,760 + q/k norms 512), a GeGLU MLP 3 × 2,048 × 16,384 (the config lists
// intermediate_size per layer), four norms, AltUp with 4 streams (scale and router norm 2 ×
// 2,048, coefficients 16 + 64, router 4 × 2,048: 12,368), LAuReL of rank 64 (2 × 2,048 × 64 +
// norm: 264,192) and the per-layer-input gate, projection and norm (1,050,624): 112,484,944 a
// layer. Plus the tied 262,400 × 2,048 table, the per-layer table 262,144 × 35 · 256
// (2,348,810,240), its projection (18,350,080) and norm (256), AltUp's 3 + 3 projections h × h
// (25,165,824) and the final norm: 6,866,696,688 (the text-only checkpoint's "6.9B"). Its 15
// KV-shared layers keep their k/v weights, unlike Gemma 4's.
TEST(LateFamilies, Gemma3nCountsAltUpLaurelAndPerLayerEmbeddings) {
  json types = json::array();
  for (int i = 0; i < 35; ++i)
    types.push_back((i + 1) % 5 == 0 ? "full_attention" : "sliding_attention");
  const json e4b = {{"architectures", {"Gemma3nForCausalLM"}},
                    {"model_type", "gemma3n_text"},
                    {"hidden_size", 2048},
                    {"intermediate_size", 16384},
                    {"num_hidden_layers", 35},
                    {"num_attention_heads", 8},
                    {"num_key_value_heads", 2},
                    {"head_dim", 256},
                    {"layer_types", types},
                    {"sliding_window", 512},
                    {"num_kv_shared_layers", 15},
                    {"altup_num_inputs", 4},
                    {"laurel_rank", 64},
                    {"hidden_size_per_layer_input", 256},
                    {"vocab_size_per_layer_input", 262144},
                    {"max_position_embeddings", 32768},
                    {"vocab_size", 262400}};
  json listed = e4b;
  listed["intermediate_size"] = std::vector<int>(35, 16384);
  EXPECT_EQ(Total(listed), 6866696688);
  EXPECT_EQ(Total(e4b), 6866696688);  // one integer reads the same
  const ModelArch arch = MustParseModel(listed);
  EXPECT_EQ(arch.KvProjectionsOf(30), 2);
  EXPECT_TRUE(arch.tie_embeddings);
  ExpectRoundTripAndShapes(listed);
  // A per-layer list whose widths differ is refused with the field named.
  json mixed = listed;
  mixed["intermediate_size"][3] = 8192;
  const Result<ModelArch> r = ParseModelArch(mixed, "model");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors()[0].path, "model.intermediate_size");
}

json Zamba2() {
  json types = json::array();
  for (int i = 0; i < 54; ++i) {
    const bool hybrid = i == 6 || i == 12 || i == 18 || i == 24 || i == 30 || i == 36 || i == 42 ||
                        i == 47 || i == 51;
    types.push_back(hybrid ? "hybrid" : "mamba");
  }
  return {{"architectures", {"Zamba2ForCausalLM"}},
          {"model_type", "zamba2"},
          {"hidden_size", 2560},
          {"intermediate_size", 10240},
          {"num_hidden_layers", 54},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 32},
          {"kv_channels", 80},
          {"attention_head_dim", 160},
          {"hidden_act", "gelu"},
          {"layers_block_type", types},
          {"mamba_d_conv", 4},
          {"mamba_d_state", 64},
          {"mamba_expand", 2},
          {"mamba_headdim", 64},
          {"mamba_ngroups", 1},
          {"n_mamba_heads", 80},
          {"use_conv_bias", true},
          {"num_mem_blocks", 2},
          {"adapter_rank", 128},
          {"use_shared_mlp_adapter", true},
          {"use_shared_attention_adapter", false},
          {"max_position_embeddings", 4096},
          {"tie_word_embeddings", true},
          {"vocab_size", 32000}};
}

// Zyphra/Zamba2-2.7B (modeling_zamba2.py): 54 Mamba-2 blocks (in_proj 2,560 × 10,448, conv
// 5,248 × 4 + bias, dt_bias/A_log/D 3 × 80, gated norm 5,120, out_proj 5,120 × 2,560, input
// norm 2,560: 39,888,240 each); 2 shared blocks (q/k/v 5,120 → 32 × 160, o_proj 5,120 →
// 2,560, gate_up 2,560 → 20,480, down 10,240 → 2,560, norms 5,120 + 2,560: 170,401,280 each)
// used by the 9 hybrid layers, each with its own 2,560² linear and MLP adapter (2,560 → 128 →
// 20,480: 2,949,120); tied 32,000 × 2,560 table and final norm: 2,662,214,560 — the bf16
// checkpoint's 5.32 GB. Read as 54 Llama blocks it was 5.74B.
TEST(LateFamilies, Zamba2SharesItsTransformerBlocksAcrossHybridLayers) {
  const json zamba = Zamba2();
  EXPECT_EQ(Total(zamba), 2662214560);
  const ModelArch arch = MustParseModel(zamba);
  EXPECT_EQ(arch.MixerOf(0), MixerKind::kMamba2);
  EXPECT_EQ(arch.MixerOf(6), MixerKind::kZambaShared);
  EXPECT_EQ(arch.MixerOf(12), MixerKind::kZambaShared);
  EXPECT_EQ(arch.MixerOf(18), MixerKind::kZambaHybrid);
  EXPECT_FALSE(arch.HasMlp(0));
  EXPECT_EQ(arch.head_dim, 160);
  ExpectRoundTripAndShapes(zamba);
  // One more shared block is one more 170,401,280; without the MLP adapters 9 × 2,949,120 less.
  json three = zamba;
  three["num_mem_blocks"] = 3;
  EXPECT_EQ(Total(three) - Total(zamba), 170401280);
  json plain = zamba;
  plain["use_shared_mlp_adapter"] = false;
  EXPECT_EQ(Total(zamba) - Total(plain), 9 * 2949120);
  // Every hybrid layer saves attention activations; the Mamba-only blocks keep no scores.
  json job = {{"model", zamba},
              {"training", {{"attention", "eager"}, {"local_batch_size", 1}, {"seq_len", 4096}}},
              {"activation_checkpoint", {{"mode", "none"}}}};
  const Estimate e = EstimateMemory(MustParse(job.dump()));
  EXPECT_GT(e.stages[0].activations.attention_scores, 0);
  json bad = zamba;
  bad["layers_block_type"][3] = "attention";
  const Result<ModelArch> r = ParseModelArch(bad, "model");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors()[0].path, "model.layers_block_type[3]");
}

// inclusionAI/Ring-mini-linear-2.0 (BailingMoeLinearV2): 20 layers, every 5th softmax attention
// (16 heads × 128, 4 KV heads, q/k norms: 10,486,016), the other 16 linear attention with
// full-width query_key_value 2,048 → 3 × 2,048, g_proj 2,048², g_norm, dense 2,048² and q/k
// norms: 20,973,824, i.e. 10,487,808 more each than a softmax reading. Ling 2.0's MoE (256
// experts 512 wide, a shared one, expert bias, first layer dense). Card: 16.4B; by hand
// 16,423,448,320. Ring-flash-linear-2.0 (h 4,096, 32 layers, groups of 8): 104,181,665,536 (the
// report's 104B).
TEST(LateFamilies, RingLinearLayersAreLightningShaped) {
  json ring = {{"architectures", {"BailingMoeLinearV2ForCausalLM"}},
               {"model_type", "bailing_moe_linear"},
               {"hidden_size", 2048},
               {"intermediate_size", 5120},
               {"num_hidden_layers", 20},
               {"layer_group_size", 5},
               {"num_attention_heads", 16},
               {"num_key_value_heads", 4},
               {"head_dim", 128},
               {"use_qk_norm", true},
               {"first_k_dense_replace", 1},
               {"num_experts", 256},
               {"num_experts_per_tok", 8},
               {"moe_intermediate_size", 512},
               {"num_shared_experts", 1},
               {"moe_shared_expert_intermediate_size", 512},
               {"moe_router_enable_expert_bias", true},
               {"tie_word_embeddings", false},
               {"vocab_size", 157184}};
  EXPECT_EQ(Total(ring), 16423448320);
  const ModelArch arch = MustParseModel(ring);
  EXPECT_EQ(arch.MixerOf(3), MixerKind::kLightning);
  EXPECT_EQ(arch.MixerOf(4), MixerKind::kAttention);
  ExpectRoundTripAndShapes(ring);
  json flash = ring;
  flash.update({{"hidden_size", 4096},
                {"intermediate_size", 9216},
                {"num_hidden_layers", 32},
                {"layer_group_size", 8},
                {"num_attention_heads", 32},
                {"moe_intermediate_size", 1024},
                {"moe_shared_expert_intermediate_size", 1024}});
  EXPECT_EQ(Total(flash), 104181665536);
}

// openbmb/MiniCPM3-4B: MLA (q_lora 768, kv_lora 256, 40 heads of 64 + 32 RoPE) whose config has
// no v_head_dim (hidden / heads = 64) and no tie_word_embeddings (MiniCPM3Config: true; the
// checkpoint has no lm_head): 4,073,875,968; untied it would be 188,026,880 more.
// openPangu-Ultra-MoE-718B (OpenPanguMoEConfig): DeepSeek-V3's MLA and MoE under Pangu's key
// names, sandwich norms (4 a block): 719,093,782,528 without its MTP layer (the name's 718B).
// K-EXAONE: is_moe_layer marks layer 0 dense.
TEST(LateFamilies, MiniCpm3PanguAndExaoneMoeKeys) {
  const json minicpm3 = {{"architectures", {"MiniCPM3ForCausalLM"}},
                         {"model_type", "minicpm3"},
                         {"hidden_size", 2560},
                         {"num_hidden_layers", 62},
                         {"intermediate_size", 6400},
                         {"num_attention_heads", 40},
                         {"num_key_value_heads", 40},
                         {"qk_nope_head_dim", 64},
                         {"qk_rope_head_dim", 32},
                         {"q_lora_rank", 768},
                         {"kv_lora_rank", 256},
                         {"max_position_embeddings", 32768},
                         {"vocab_size", 73448}};
  EXPECT_EQ(Total(minicpm3), 4073875968);
  EXPECT_EQ(MustParseModel(minicpm3).v_head_dim, 64);
  const json pangu = {{"architectures", {"PanguUltraMoEForCausalLM"}},
                      {"model_type", "pangu_ultra_moe"},
                      {"vocab_size", 153600},
                      {"hidden_size", 7680},
                      {"intermediate_size", 18432},
                      {"moe_intermediate_size", 2048},
                      {"num_hidden_layers", 61},
                      {"num_mtp_layers", 1},
                      {"num_attention_heads", 128},
                      {"num_key_value_heads", 128},
                      {"num_shared_experts", 1},
                      {"num_routed_experts", 256},
                      {"attention_kv_lora_dim", 512},
                      {"attention_q_lora_dim", 1536},
                      {"attention_qk_rope_dim", 64},
                      {"attention_v_dim", 128},
                      {"attention_qk_dim", 128},
                      {"num_experts_per_tok", 8},
                      {"num_dense_layers", 3},
                      {"max_position_embeddings", 131072},
                      {"tie_word_embeddings", false}};
  const ModelArch p = MustParseModel(pangu);
  EXPECT_EQ(CountParams(p, false).total, 719093782528);
  EXPECT_EQ(p.num_mtp_layers, 1);
  EXPECT_EQ(p.attention, AttentionKind::kMla);
  json no_mtp = pangu;  // the shapes leave out MTP's embedding copies (no separate states)
  no_mtp["num_mtp_layers"] = 0;
  ExpectRoundTripAndShapes(no_mtp);
  json flags = json::array({false});
  for (int i = 1; i < 4; ++i) flags.push_back(true);
  const json exaone_moe = {{"model_type", "exaone_moe"}, {"hidden_size", 256},
                           {"intermediate_size", 512},   {"num_hidden_layers", 4},
                           {"num_attention_heads", 4},   {"num_experts", 8},
                           {"num_experts_per_tok", 2},   {"moe_intermediate_size", 64},
                           {"is_moe_layer", flags},      {"vocab_size", 1000}};
  const ModelArch e = MustParseModel(exaone_moe);
  EXPECT_FALSE(e.layer_is_moe[0]);
  EXPECT_TRUE(e.layer_is_moe[1]);
}

// An unknown model_type whose config.json carries a field trainmem does not read says so,
// naming the field; training and numerics settings and "_comment" notes are not listed, and a
// known family gets no such note. The note on what was assumed says only the fields trainmem
// knows are honoured (it used to say "every field present", beside a list of unread ones).
TEST(LateFamilies, UnreadShapeFieldsOfAnUnknownTypeAreNamed) {
  const json step = {
      {"model_type", "newlm"},    {"hidden_size", 512},    {"num_hidden_layers", 2},
      {"num_attention_heads", 8}, {"cross_layer_step", 2}, {"intermediate_size", 1024},
      {"rms_norm_eps", 1e-5},     {"_comment", "a note"},  {"vocab_size", 1000}};
  const ModelArch arch = MustParseModel(step);
  EXPECT_TRUE(HasWarningWith(arch, "did not read: cross_layer_step;"));
  EXPECT_TRUE(HasWarningWith(arch, "every field trainmem knows honoured"));
  EXPECT_FALSE(HasWarningWith(arch, "every field present"));
  EXPECT_FALSE(HasWarningWith(arch, "rms_norm_eps"));
  EXPECT_FALSE(HasWarningWith(arch, "_comment"));
  json llama = step;
  llama["model_type"] = "llama";
  EXPECT_FALSE(HasWarningWith(MustParseModel(llama), "did not read"));
}

// PLaMo 2 (pfnet/plamo-2-1b): mamba_step 2 makes every other layer a Mamba mixer whose shape
// trainmem cannot place from an unknown model_type; counted as 16 attention blocks its total
// would be wrong by an unknown amount, so the config is refused with the fields named, on
// model_type.
TEST(LateFamilies, UnknownTypeWithUnreadMambaFieldsIsRefused) {
  const json plamo = {
      {"model_type", "plamo2"},    {"hidden_size", 2048},     {"hidden_size_per_head", 128},
      {"intermediate_size", 8192}, {"mamba_d_conv", 4},       {"mamba_d_state", 64},
      {"mamba_enabled", true},     {"mamba_num_heads", 32},   {"mamba_step", 2},
      {"num_attention_heads", 16}, {"num_hidden_layers", 16}, {"num_key_value_heads", 1},
      {"rms_norm_eps", 1e-6},      {"vocab_size", 100000}};
  const Result<ModelArch> r = ParseModelArch(plamo, "model");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors()[0].path, "model.model_type");
  EXPECT_NE(r.errors()[0].message.find("\"plamo2\" has state-space (Mamba) layers"),
            std::string::npos);
  EXPECT_NE(r.errors()[0].message.find("mamba_d_conv, mamba_d_state, mamba_enabled"),
            std::string::npos);
  // An unknown type whose Mamba layers its layers_block_type places is counted, an unread
  // mamba_* field named in a note, not refused.
  const json placed = {
      {"model_type", "bamba2"},   {"hidden_size", 256},
      {"intermediate_size", 512}, {"num_hidden_layers", 4},
      {"num_attention_heads", 4}, {"num_key_value_heads", 2},
      {"mamba_n_heads", 8},       {"mamba_d_head", 64},
      {"mamba_d_state", 16},      {"mamba_d_conv", 4},
      {"mamba_expand", 2},        {"mamba_n_groups", 1},
      {"vocab_size", 1000},       {"layers_block_type", {"mamba", "hybrid", "mamba", "mamba"}},
      {"mamba_use_mlp", true}};
  const Result<ModelArch> counted = ParseModelArch(placed, "model");
  ASSERT_TRUE(counted.ok()) << FormatError(counted.errors()[0]);
  EXPECT_EQ(counted.value().MixerOf(0), MixerKind::kMamba2);
  EXPECT_TRUE(HasWarningWith(counted.value(), "did not read: mamba_use_mlp"));
}

// Tencent Hy3 (hy_v3; the serde test fixture's shape fields of the released config.json): 80
// layers of h 4,096, 64 heads / 8 KV × 128 with q/k norms, layer 0 dense (13,312), then 192
// experts of 1,536 (top 8) + 1 shared, the sigmoid router's expert bias, untied 120,832-row
// tables, one MTP layer. Read as the unknown-type Llama reading gives 299,776,011,520: the same
// blocks plus DeepSeek's per-module embedding and head copies, 2 × 120,832 × 4,096 =
// 989,855,744 more than the published total, 298,786,155,776, which the MTP layer's reading of
// the trunk's tables (HYV3MTP: enorm, hnorm, eh_proj, one MoE block, final_layernorm) gives to
// the unit. The MTP module is then 3,752,612,288: the MoE block 3,623,878,656 routed +
// 18,874,368 shared + 75,497,472 attention + 786,432 router + 192 bias, eh_proj 33,554,432 and
// 20,928 of norms.
TEST(LateFamilies, Hy3MtpLayerReadsTheTrunksEmbeddingAndHead) {
  const json hy3 = {{"architectures", {"HYV3ForCausalLM"}},
                    {"model_type", "hy_v3"},
                    {"vocab_size", 120832},
                    {"hidden_size", 4096},
                    {"intermediate_size", 13312},
                    {"num_hidden_layers", 80},
                    {"num_attention_heads", 64},
                    {"num_key_value_heads", 8},
                    {"hidden_act", "silu"},
                    {"head_dim", 128},
                    {"tie_word_embeddings", false},
                    {"moe_intermediate_size", 1536},
                    {"expert_hidden_dim", 1536},
                    {"num_experts", 192},
                    {"num_experts_per_tok", 8},
                    {"num_shared_experts", 1},
                    {"first_k_dense_replace", 1},
                    {"num_nextn_predict_layers", 1},
                    {"qk_norm", true},
                    {"route_norm", true},
                    {"moe_router_use_sigmoid", true},
                    {"moe_router_enable_expert_bias", true},
                    {"router_scaling_factor", 2.826}};
  const ModelArch arch = MustParseModel(hy3);
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
  const ParamCounts c = CountParams(arch, true);
  EXPECT_EQ(c.total, 298786155776);
  EXPECT_EQ(c.mtp, 3752612288);
  json by_architecture = hy3;
  by_architecture.erase("model_type");
  EXPECT_EQ(Total(by_architecture), 298786155776);
}

json KimiLinear() {
  json kda = json::array(), full = json::array();
  for (std::int64_t n = 1; n <= 27; ++n) (n % 4 == 0 || n == 27 ? full : kda).push_back(n);
  return {{"architectures", {"KimiLinearForCausalLM"}},
          {"model_type", "kimi_linear"},
          {"hidden_size", 2304},
          {"intermediate_size", 9216},
          {"num_hidden_layers", 27},
          {"num_attention_heads", 32},
          {"num_key_value_heads", 32},
          {"head_dim", 72},
          {"kv_lora_rank", 512},
          {"q_lora_rank", nullptr},
          {"qk_nope_head_dim", 128},
          {"qk_rope_head_dim", 64},
          {"v_head_dim", 128},
          {"first_k_dense_replace", 1},
          {"moe_intermediate_size", 1024},
          {"num_experts", 256},
          {"num_experts_per_token", 8},
          {"num_shared_experts", 1},
          {"moe_router_activation_func", "sigmoid"},
          {"use_grouped_topk", true},
          {"num_nextn_predict_layers", 0},
          {"linear_attn_config",
           {{"kda_layers", kda},
            {"full_attn_layers", full},
            {"num_heads", 32},
            {"head_dim", 128},
            {"short_conv_kernel_size", 4}}},
          {"tie_word_embeddings", false},
          {"vocab_size", 163840}};
}

// moonshotai/Kimi-Linear-48B-A3B (modeling_kimi.py): the 20 layers numbered in kda_layers
// (1-based) are Kimi Delta Attention, 39,514,272 each with h 2,304, 32 heads × 128 (D 4,096),
// kernel 4: q/k/v 3 × 4,096 × 2,304 = 28,311,552, their short convs 3 × 4,096 × 4 = 49,152,
// A_log 32, dt_bias 4,096, f_a/g_a 2 × 128 × 2,304 = 589,824, f_b/g_b 2 × 4,096 × 128 =
// 1,048,576, b_proj 32 × 2,304 = 73,728, o_norm 128, o_proj 2,304 × 4,096 = 9,437,184. The
// other 7 are MLA (29,114,880 each), so read as MLA everywhere the model is 20 × 10,399,392 =
// 207,987,840 short. The MoE router keeps e_score_correction_bias (256 in 26 layers).
// Published 49,122,681,728.
TEST(LateFamilies, KimiLinearCountsKimiDeltaAttentionLayers) {
  json kimi = KimiLinear();
  EXPECT_EQ(Total(kimi), 49122681728);
  const ModelArch arch = MustParseModel(kimi);
  EXPECT_EQ(arch.MixerOf(0), MixerKind::kKimiDelta);  // layer number 1
  EXPECT_EQ(arch.MixerOf(3), MixerKind::kAttention);  // layer number 4
  EXPECT_EQ(arch.MixerOf(26), MixerKind::kAttention);
  EXPECT_EQ(arch.attention, AttentionKind::kMla);
  EXPECT_TRUE(arch.router_bias);
  EXPECT_TRUE(HasWarningWith(arch, "20 of 27 layers use Kimi Delta Attention"));
  ExpectRoundTripAndShapes(kimi);
  json all_mla = kimi;
  all_mla["linear_attn_config"]["kda_layers"] = json::array();
  EXPECT_EQ(Total(kimi) - Total(all_mla), 207987840);

  // A KDA layer keeps no seq × seq scores: with eager attention at 8192 tokens the MLA layers'
  // probabilities (32 heads × 8192 keys × 2 bytes a token) dominate what is saved.
  auto saved = [](const json& model) {
    json job = {{"model", model},
                {"training", {{"attention", "eager"}, {"local_batch_size", 1}, {"seq_len", 8192}}},
                {"activation_checkpoint", {{"mode", "none"}}}};
    return EstimateMemory(MustParse(job.dump())).stages[0].activations.saved_layers;
  };
  // 20 fewer softmax layers, each 32 × 8192 × 2 bytes of probabilities a token fewer (less what
  // a KDA layer saves, under 100 KB a token).
  EXPECT_GT(saved(all_mla) - saved(kimi), 20LL * 8192 * (32LL * 8192 * 2 - 100000));

  // Layer numbers are 1-based: 0 and 28 name no layer.
  for (int bad : {0, 28}) {
    json wrong = kimi;
    wrong["linear_attn_config"]["kda_layers"] = {1, bad};
    const Result<ModelArch> r = ParseModelArch(wrong, "model");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.errors()[0].path.find("linear_attn_config.kda_layers[1]"), std::string::npos);
  }
}

// stepfun-ai/Step-3.5-Flash (step3p5; modeling_step3p5.py, vLLM step3p5.py / step3p5_mtp.py),
// config.json as published (its per-layer lists have 45 + 3 MTP entries). h 4,096, 8 KV heads
// (num_attention_groups) of 128; full layers (every 4th from 0: 12) have 64 query heads, the
// 33 sliding ones 96 (attention_other_setting). Attention per full layer: q and o 64·128·4,096
// each, k and v 8·128·4,096 each, g_proj 64 × 4,096 (head-wise gate), q/k norms 2 × 128 =
// 75,759,872; per sliding layer 109,445,376. Dense MLP (layers 0–2, not in moe_layers_enum)
// 3 × 4,096 × 11,264 = 138,412,032. MoE layers (3–44): 288 experts × 3 × 1,280 × 4,096 =
// 4,529,848,320, the shared expert (share_expert_dim 1,280) 15,728,640, the router 288 × 4,096
// and its fp32 bias 288: 4,546,756,896. With two norms a layer, the 45 layers are
// 195,900,210,240; untied 128,896 × 4,096 tables twice and the final norm: 196,956,130,368,
// the card's "196B". Each MTP layer: enorm, hnorm, eh_proj 2h → h, a sliding-attention block
// with a dense MLP (109,445,376 + 138,412,032 + 2 norms), its own shared_head norm and output
// head (128,896 × 4,096), no embedding: 809,390,336, the README's "0.81B Head". Checkpoint
// total 199,384,301,376 (the hub's "199B").
TEST(LateFamilies, Step35FlashCountsItsSlidingHeadsGatesAndDenseMtp) {
  json types = json::array();
  for (int i = 0; i < 48; ++i)
    types.push_back(i < 45 && i % 4 == 0 ? "full_attention" : "sliding_attention");
  std::string moe_layers;
  for (int i = 3; i < 45; ++i) moe_layers += (i > 3 ? "," : "") + std::to_string(i);
  const json step = {{"architectures", {"Step3p5ForCausalLM"}},
                     {"model_type", "step3p5"},
                     {"hidden_size", 4096},
                     {"intermediate_size", 11264},
                     {"num_hidden_layers", 45},
                     {"vocab_size", 128896},
                     {"use_qk_norm", true},
                     {"moe_layers_enum", moe_layers},
                     {"num_attention_heads", 64},
                     {"num_attention_groups", 8},
                     {"head_dim", 128},
                     {"use_moe", true},
                     {"moe_num_experts", 288},
                     {"moe_top_k", 8},
                     {"moe_intermediate_size", 1280},
                     {"share_expert_dim", 1280},
                     {"tie_word_embeddings", false},
                     {"use_head_wise_attn_gate", true},
                     {"sliding_window", 512},
                     {"use_moe_router_bias", true},
                     {"layer_types", types},
                     {"num_nextn_predict_layers", 3},
                     {"attention_other_setting",
                      {{"attention_type", "sliding_attention"},
                       {"num_attention_heads", 96},
                       {"num_attention_groups", 8},
                       {"head_dim", 128},
                       {"true_head_dim", 128}}},
                     {"zero_centered", true},
                     {"max_position_embeddings", 262144}};
  EXPECT_EQ(Total(step), 199384301376);
  const ModelArch arch = MustParseModel(step);
  EXPECT_EQ(MtpModuleParams(arch, true), 809390336);
  EXPECT_EQ(CountParams(arch, false).total, 196956130368);
  EXPECT_EQ(arch.num_kv_heads, 8);
  EXPECT_EQ(arch.HeadsOf(0), 64);
  EXPECT_EQ(arch.HeadsOf(1), 96);
  EXPECT_TRUE(arch.mtp_sliding);
  int moe = 0;
  for (bool m : arch.layer_is_moe) moe += m ? 1 : 0;
  EXPECT_EQ(moe, 42);
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
  ExpectRoundTripAndShapes(step);
  // Tensor parallelism must divide the sliding layers' 96 query heads too (64 divides the
  // full layers' 64).
  json job = {
      {"model", step}, {"world_size", 64}, {"parallelism", {{"tensor_parallel_degree", 64}}}};
  const Result<Config> tp64 = ParseConfig(job.dump(), testing::TestPresets());
  ASSERT_FALSE(tp64.ok());
  EXPECT_NE(tp64.errors()[0].message.find("96 sliding-window attention heads"), std::string::npos);
  // A per-layer list neither 45 nor 45 + 3 long is refused, naming both lengths.
  json wrong = step;
  wrong["layer_types"].erase(wrong["layer_types"].end() - 1);
  const Result<ModelArch> refused = ParseModelArch(wrong, "model");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.errors()[0].message.find("48 with the MTP layers"), std::string::npos);
  // Different KV heads on the sliding layers are refused rather than miscounted.
  json other = step;
  other["attention_other_setting"]["num_attention_groups"] = 4;
  EXPECT_FALSE(ParseModelArch(other, "model").ok());
}

}  // namespace
}  // namespace trainmem
