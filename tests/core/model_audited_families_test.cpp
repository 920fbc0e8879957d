// Config.json files of families a December 2026 audit found miscounted or read only as unknown
// Llama-style decoders (MiniCPM, OLMo, FlexOlmo, Aria). Each config holds the published
// config.json's size fields; each total is the checkpoint's published count unless the comment
// says it is a hand count, and the comments derive what the family adds over a Llama reading.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/input_limits.h"
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

// jetmoe/jetmoe-8b (modeling_jetmoe.py): attention is a mixture of 8 experts (JetMoeMoA), each
// a query projection h → kv_channels · kv_heads = 2,048 and an output projection back (2 ×
// 4,194,304), plus the MoA's output bias 2,048, its router 8 × 2,048 and a shared kv_proj h →
// 2 · 2,048 (8,388,608): 75,515,904 a layer where a Llama reading gave q/k/v/o 25,165,824. The
// MLP: 8 gated experts 3 × 2,048 × 5,632 (276,824,064), its router 16,384 and output bias 2,048;
// two norms 4,096. 352,362,496 a layer × 24, tied 32,000 × 2,048 table, final norm:
// 8,522,237,952 (HF total 8.52B; the Llama reading was 7,313,786,880, −14.2%). Active per token:
// two of the eight attention experts and two MLP experts.
TEST(AuditedFamilies, JetMoeCountsItsMixtureOfAttention) {
  const json jetmoe = {{"architectures", {"JetMoeForCausalLM"}},
                       {"model_type", "jetmoe"},
                       {"activation_function", "silu"},
                       {"bias", true},
                       {"hidden_size", 2048},
                       {"intermediate_size", 5632},
                       {"kv_channels", 128},
                       {"num_attention_heads", 32},
                       {"num_key_value_heads", 16},
                       {"num_hidden_layers", 24},
                       {"num_local_experts", 8},
                       {"num_experts_per_tok", 2},
                       {"max_position_embeddings", 4096},
                       {"tie_word_embeddings", true},
                       {"vocab_size", 32000}};
  const ModelArch arch = MustParseModel(jetmoe);
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
  EXPECT_TRUE(arch.attention_experts);
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  EXPECT_EQ(layers[0].attention, 2 * 8 * 2048 * 2048 + 2048 + 8 * 2048 + 2 * 2048 * 2048);
  EXPECT_EQ(layers[0].router, 8 * 2048 + 2048);
  EXPECT_EQ(layers[0].total(), 352362496);
  const ParamCounts c = CountParams(arch, true);
  EXPECT_EQ(c.total, 8522237952);
  // Six of eight attention experts (6 × 8,388,608) and six of eight MLP experts idle a token.
  EXPECT_EQ(c.active, c.total - std::int64_t{24} * (6 * 8388608 + 6 * 3 * 2048 * 5632));
  ExpectRoundTripAndShapes(jetmoe);
}

// tencent/Tencent-Hunyuan-Large (remote code, model_type "hunyuan"): use_cla with
// cla_share_factor 2, so only even layers own k_proj and v_proj (8 KV heads × 80 × 6,400 each);
// odd layers attend with the even layer's keys and values and keep query_layernorm and
// key_layernorm (80 each). Per layer q, o 2 × 6,400², qk norms 160, two norms 12,800, one shared
// MLP and 16 experts 17 × 3 × 6,400 × 18,304, router 16 × 6,400: 6,064,652,960 with k/v and
// 6,056,460,960 without. 32 of each, tied 129,024 × 6,400 table, final norm: 388,701,405,440
// ("389B"); reading every layer with its own k/v gave 262,144,000 more.
TEST(AuditedFamilies, HunyuanCrossLayerAttentionSharesKeysAndValues) {
  json hunyuan = {{"architectures", {"HunYuanForCausalLM"}},
                  {"model_type", "hunyuan"},
                  {"hidden_size", 6400},
                  {"intermediate_size", 18304},
                  {"num_attention_heads", 80},
                  {"num_key_value_heads", 8},
                  {"num_hidden_layers", 64},
                  {"num_experts", 16},
                  {"moe_topk", 1},
                  {"num_shared_expert", 1},
                  {"use_mixed_mlp_moe", true},
                  {"use_qk_norm", true},
                  {"use_cla", true},
                  {"cla_share_factor", 2},
                  {"tie_word_embeddings", true},
                  {"vocab_size", 129024}};
  const ModelArch arch = MustParseModel(hunyuan);
  EXPECT_FALSE(HasWarningWith(arch, "did not read"));
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  EXPECT_EQ(layers[0].attention - layers[1].attention, 2 * 640 * 6400);
  EXPECT_EQ(layers[1].attention, 2 * 6400 * 6400 + 2 * 80);
  EXPECT_EQ(Total(hunyuan), 388701405440);
  ExpectRoundTripAndShapes(hunyuan);
  hunyuan["use_cla"] = false;
  EXPECT_EQ(Total(hunyuan), 388701405440 + 262144000);
}

// zai-org/GLM-5.3 (glm_moe_dsa): of its 78 layers' DSA indexers only 21 are "full"; the 57
// "shared" layers reuse an earlier layer's top-k choice and store no indexer (wq_b 2,048 ×
// 32 × 128 + wk 6,144 × 128 + k_norm 2 × 128 + weights_proj 6,144 × 32 = 9,371,904 each). Its MTP
// layer reads the main embedding and head (2 × 154,880 × 6,144 = 1,903,165,440 not stored). With
// both, the count is the published safetensors total 753,329,940,480 to the unit; with an indexer
// in every layer and MTP copies it was 755,767,304,448 (+0.32%).
TEST(AuditedFamilies, GlmMoeDsaSharedIndexersAndMtpWithoutCopies) {
  json types = json::array();
  json mlp_types = json::array();
  for (int i = 0; i < 78; ++i) {
    types.push_back(i < 3 || i % 4 == 2 ? "full" : "shared");
    mlp_types.push_back(i < 3 ? "dense" : "sparse");
  }
  json glm5 = {{"architectures", {"GlmMoeDsaForCausalLM"}},
               {"model_type", "glm_moe_dsa"},
               {"first_k_dense_replace", 3},
               {"head_dim", 192},
               {"hidden_size", 6144},
               {"index_head_dim", 128},
               {"index_n_heads", 32},
               {"indexer_types", types},
               {"intermediate_size", 12288},
               {"kv_lora_rank", 512},
               {"mlp_layer_types", mlp_types},
               {"moe_intermediate_size", 2048},
               {"moe_layer_freq", 1},
               {"n_routed_experts", 256},
               {"n_shared_experts", 1},
               {"num_attention_heads", 64},
               {"num_experts_per_tok", 8},
               {"num_hidden_layers", 78},
               {"num_key_value_heads", 64},
               {"num_nextn_predict_layers", 1},
               {"q_lora_rank", 2048},
               {"qk_nope_head_dim", 192},
               {"qk_rope_head_dim", 64},
               {"tie_word_embeddings", false},
               {"v_head_dim", 256},
               {"vocab_size", 154880}};
  const ModelArch arch = MustParseModel(glm5);
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  EXPECT_EQ(layers[6].attention - layers[7].attention, 9371904);
  EXPECT_EQ(Total(glm5), 753329940480);
  ExpectRoundTripAndShapes(glm5);
  // Every layer full: 57 indexers more.
  json all_full = glm5;
  all_full.erase("indexer_types");
  EXPECT_EQ(Total(all_full), 753329940480 + 57 * 9371904);
  // A list of the wrong length, an unknown entry, or a first layer with nothing to share is an
  // error naming the field.
  json wrong = glm5;
  wrong["indexer_types"] = json::array({"full", "shared"});
  Result<ModelArch> short_list = ParseModelArch(wrong, "model");
  ASSERT_FALSE(short_list.ok());
  EXPECT_EQ(short_list.errors().front().path, "model.indexer_types");
  wrong["indexer_types"] = types;
  wrong["indexer_types"][5] = "sparse";
  Result<ModelArch> unknown = ParseModelArch(wrong, "model");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.errors().front().path, "model.indexer_types[5]");
  wrong["indexer_types"] = types;
  wrong["indexer_types"][0] = "shared";
  EXPECT_FALSE(ParseModelArch(wrong, "model").ok());
}

// nvidia/NVIDIA-Nemotron-3-Super-120B-A12B (nemotron_h with moe_latent_size 1024;
// NemotronHMoE in modular_nemotron_h.py): its 512 relu² experts read and write the 1,024-wide
// latent (2 × 1,024 × 2,688 each, not 2 × 4,096 × 2,688) behind fc1/fc2_latent_proj (2 × 4,096 ×
// 1,024); the shared expert stays 4,096 wide (2 × 4,096 × 5,376). Per block: Mamba-2 109,640,064
// (in_proj 4,096 × 18,560, conv 10,240 × 4 + 10,240, A_log / D / dt_bias 3 × 128, gated norm 8,192,
// out_proj 8,192 × 4,096, norm); attention 35,655,680 (q 4,096², k and v 2 × 256 × 4,096, o
// 4,096², norm); MoE 2,873,102,336 (experts 2,818,572,288 + latent projections 8,388,608 + shared
// 44,040,192 + router 512 × 4,096 + norm). 40 M + 8 * + 40 E + untied 131,072 × 4,096 tables +
// final norm = 120,668,687,360; its MTP block ("*E": an attention and an MoE block, two norms,
// enorm, hnorm, a final norm, eh_proj 8,192 × 4,096, no embedding or head) 2,942,324,736. Total
// 123,611,012,096, the published safetensors total (it was 471.0B). The config.json holds
// "time_step_limit": [0.0, Infinity], as Python's json.dumps writes it.
TEST(AuditedFamilies, NemotronSuperLatentMoeAndPythonInfinity) {
  const std::string text = R"({"architectures": ["NemotronHForCausalLM"],
    "model_type": "nemotron_h", "hidden_size": 4096, "num_hidden_layers": 88,
    "hybrid_override_pattern":
      "MEMEMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEM*EMEMEMEME",
    "num_attention_heads": 32, "num_key_value_heads": 2, "head_dim": 128,
    "intermediate_size": 2688, "moe_intermediate_size": 2688, "moe_latent_size": 1024,
    "moe_shared_expert_intermediate_size": 5376, "n_routed_experts": 512, "n_shared_experts": 1,
    "num_experts_per_tok": 22, "mamba_head_dim": 64, "mamba_num_heads": 128, "n_groups": 8,
    "ssm_state_size": 128, "conv_kernel": 4, "expand": 2, "mlp_hidden_act": "relu2",
    "mtp_hybrid_override_pattern": "*E", "num_nextn_predict_layers": 1,
    "time_step_limit": [0.0, Infinity], "tie_word_embeddings": false, "vocab_size": 131072})";
  EXPECT_TRUE(nlohmann::json::parse(text, nullptr, false).is_discarded());  // strict JSON refuses
  const json super = ParseJsonAllowingPythonFloats(text);
  ASSERT_TRUE(super.is_object());
  EXPECT_TRUE(super["time_step_limit"][1].is_null());
  const ModelArch arch = MustParseModel(super);
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  EXPECT_EQ(layers[1].routed_experts, std::int64_t{512} * 2 * 1024 * 2688);
  EXPECT_EQ(layers[1].total(), 2873102336);
  EXPECT_EQ(CountParams(arch, false).total, 120668687360);
  EXPECT_EQ(Total(super), 123611012096);
  ExpectRoundTripAndShapes(super);
  // Without the latent the experts would be hidden wide: 346,684,391,424 more over 41 blocks.
  json wide = super;
  wide.erase("moe_latent_size");
  EXPECT_GT(Total(wide), Total(super) + 340000000000);
  // Transformers 5 writes the blocks as layers_block_type and leaves num_hidden_layers out.
  json listed = super;
  listed.erase("hybrid_override_pattern");
  listed.erase("num_hidden_layers");
  json types = json::array();
  for (char c : super["hybrid_override_pattern"].get<std::string>())
    types.push_back(c == 'M' ? "mamba" : c == '*' ? "attention" : "moe");
  listed["layers_block_type"] = types;
  EXPECT_EQ(Total(listed), 123611012096);
  listed["layers_block_type"][3] = "conv";
  Result<ModelArch> bad = ParseModelArch(listed, "model");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors().front().path, "model.layers_block_type[3]");
}

// Configs transformers reads that trainmem refused (sweep of 2026 configs):
// - CohereForAI/c4ai-command-r7b-12-2024 keeps "position_embedding_type": "rope_gptj"
//   (interleaved RoPE, no parameters; transformers ignores the key). 32 layers of 4,096: q, o
//   4,096², k, v 2 × 1,024 × 4,096, a gated MLP 3 × 4,096 × 14,336, one bias-free LayerNorm
//   (parallel block): 218,107,904; tied 256,000 × 4,096 table + final norm: 8,028,033,024.
// - llava-hf/llava-1.5-7b-hf's text_config names model_type llama and vocab_size 32,064 only:
//   LlamaConfig's defaults (4,096 wide, 11,008, 32 layers, 32 heads) make it Llama 2 7B's shape,
//   6,738,415,616 with 32,000 rows, + 64 rows in the embedding and the head: 6,738,939,904.
// - moe_layer_freq as a 0/1 list (MiMo-V2-Flash): the 1s are the MoE layers.
TEST(AuditedFamilies, RopeVariantsSubConfigDefaultsAndMoeLayerLists) {
  const json r7b = {{"architectures", {"Cohere2ForCausalLM"}},
                    {"model_type", "cohere2"},
                    {"hidden_size", 4096},
                    {"intermediate_size", 14336},
                    {"num_attention_heads", 32},
                    {"num_key_value_heads", 8},
                    {"num_hidden_layers", 32},
                    {"position_embedding_type", "rope_gptj"},
                    {"sliding_window", 4096},
                    {"sliding_window_pattern", 4},
                    {"vocab_size", 256000}};
  EXPECT_EQ(Total(r7b), 8028033024);
  const json llava = {
      {"architectures", {"LlavaForConditionalGeneration"}},
      {"model_type", "llava"},
      {"text_config",
       {{"architectures", {"LlamaForCausalLM"}},
        {"max_position_embeddings", 4096},
        {"model_type", "llama"},
        {"rms_norm_eps", 1e-05},
        {"vocab_size", 32064}}},
      {"vision_config", {{"hidden_size", 1024}, {"model_type", "clip_vision_model"}}},
      {"tie_word_embeddings", false},
      {"vocab_size", 32064}};
  const ModelArch arch = MustParseModel(llava);
  EXPECT_TRUE(HasWarningWith(arch, "LlamaConfig's defaults"));
  EXPECT_EQ(CountParams(arch, false).total, 6738939904);  // the tower: model_vision_test.cpp
  json listed = {{"model_type", "qwen3_moe"},      {"hidden_size", 256},
                 {"num_hidden_layers", 4},         {"num_attention_heads", 4},
                 {"num_key_value_heads", 2},       {"intermediate_size", 512},
                 {"moe_intermediate_size", 128},   {"num_experts", 8},
                 {"num_experts_per_tok", 2},       {"vocab_size", 1000},
                 {"moe_layer_freq", {0, 1, 1, 0}}, {"decoder_sparse_step", 1}};
  const ModelArch moe = MustParseModel(listed);
  EXPECT_EQ(moe.layer_is_moe, (std::vector<bool>{false, true, true, false}));
  listed["moe_layer_freq"] = {0, 1, 2, 0};
  EXPECT_FALSE(ParseModelArch(listed, "model").ok());
}

// deepseek-ai/DeepSeek-V4-Flash (deepseek_v4; modular_deepseek_v4.py). Per layer, h 4,096:
// attention 106,956,352 (q_a 4,096 × 1,024, q_norm 1,024, q_b 1,024 × 64·512, one shared K = V
// head kv_proj 4,096 × 512 + kv_norm 512, o_a 8 groups × (4,096 → 1,024), o_b 8,192 × 4,096, 64
// sinks); a ratio-4 layer adds the CSA compressor (2 × 4,096 × 1,024 + 4 × 1,024 + 512) and its
// indexer (2 × 4,096 × 256 + 4 × 256 + 128 + 1,024 × 64·128 + 4,096 × 64): 19,142,272; a
// ratio-128 layer the HCA compressor (2 × 4,096 × 512 + 128 × 512 + 512): 4,260,352; two
// hyper-connections (hc_mult 4: 24 × 16,384 + 24 + 3 each): 786,486. 21 CSA, 20 HCA and 2
// sliding layers; the MoE 256 × 3 × 4,096 × 2,048 + a shared expert + router and bias. The
// published safetensors total 290,944,616,402 also holds the first three hash-routed layers'
// tid2eid buffer (129,280 × 6 int64 = 2,327,040) and not their 3 × 256 correction biases:
// trainmem counts 290,944,616,402 − 2,327,040 + 768 = 290,942,290,130 (the Llama-style reading
// was 298,769,050,624, +2.7%). Its MTP layer reads the main embedding and head.
TEST(AuditedFamilies, DeepseekV4AttentionCompressorsAndHyperConnections) {
  json ratios = json::array({0, 0});
  for (int i = 0; i < 20; ++i) {
    ratios.push_back(4);
    ratios.push_back(128);
  }
  ratios.push_back(4);
  ratios.push_back(0);  // the MTP layer's
  const json v4 = {{"architectures", {"DeepseekV4ForCausalLM"}},
                   {"model_type", "deepseek_v4"},
                   {"hidden_size", 4096},
                   {"num_hidden_layers", 43},
                   {"num_attention_heads", 64},
                   {"num_key_value_heads", 1},
                   {"head_dim", 512},
                   {"q_lora_rank", 1024},
                   {"o_groups", 8},
                   {"o_lora_rank", 1024},
                   {"qk_rope_head_dim", 64},
                   {"index_n_heads", 64},
                   {"index_head_dim", 128},
                   {"index_topk", 512},
                   {"compress_ratios", ratios},
                   {"hc_mult", 4},
                   {"moe_intermediate_size", 2048},
                   {"n_routed_experts", 256},
                   {"n_shared_experts", 1},
                   {"num_experts_per_tok", 6},
                   {"num_hash_layers", 3},
                   {"num_nextn_predict_layers", 1},
                   {"topk_method", "noaux_tc"},
                   {"sliding_window", 128},
                   {"tie_word_embeddings", false},
                   {"vocab_size", 129280}};
  const ModelArch arch = MustParseModel(v4);
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  EXPECT_EQ(layers[0].attention, 106956352);
  EXPECT_EQ(layers[2].attention, 106956352 + 19142272);
  EXPECT_EQ(layers[3].attention, 106956352 + 4260352);
  EXPECT_EQ(layers[0].norms, 2 * 4096 + 786486);
  EXPECT_EQ(Total(v4), 290942290130);
  ExpectRoundTripAndShapes(v4);
  json odd = v4;
  odd["o_groups"] = 7;  // 64 heads do not split into 7 groups
  EXPECT_FALSE(ParseModelArch(odd, "model").ok());
}

// inclusionAI/Ling-3.0-tiny (bailing_hybrid, BailingMoeV3): every 4th layer MLA (q_a 1,536 ×
// 256 + norm, q_b 256 × 16·192, kv_a 1,536 × 576 + norm 512, kv_b 512 × 16·256, a head-wise
// g_proj 1,536 × 16, dense 16·128 × 1,536: 7,332,608), the 18 others Kimi Delta Attention with
// full-rank gates (no_kda_lora): 18,925,712 (derivation in model_parse_layers.cpp). One dense and
// 23 MoE layers of 128 experts × 512 + a shared one + router with its expert_bias. The published
// safetensors total 7,893,392,800, to the unit (it was read as lightning attention, +1.06%).
TEST(AuditedFamilies, LingHybridMlaAndKimiDeltaLayers) {
  const json ling = {{"architectures", {"BailingMoeV3ForCausalLM"}},
                     {"model_type", "bailing_hybrid"},
                     {"hidden_size", 1536},
                     {"intermediate_size", 4608},
                     {"num_hidden_layers", 24},
                     {"num_attention_heads", 16},
                     {"num_key_value_heads", 16},
                     {"head_dim", 128},
                     {"vocab_size", 157184},
                     {"tie_word_embeddings", false},
                     {"layer_group_size", 4},
                     {"short_conv_kernel_size", 4},
                     {"no_kda_lora", true},
                     {"gated_attention_proj_granularity_type", "head_wise"},
                     {"qk_nope_head_dim", 128},
                     {"qk_rope_head_dim", 64},
                     {"v_head_dim", 128},
                     {"q_lora_rank", 256},
                     {"kv_lora_rank", 512},
                     {"use_qk_norm", true},
                     {"first_k_dense_replace", 1},
                     {"num_experts", 128},
                     {"num_experts_per_tok", 8},
                     {"num_shared_experts", 1},
                     {"moe_intermediate_size", 512},
                     {"moe_shared_expert_intermediate_size", 512},
                     {"moe_router_enable_expert_bias", true}};
  const ModelArch arch = MustParseModel(ling);
  EXPECT_FALSE(HasWarningWith(arch, "not one trainmem knows"));
  EXPECT_EQ(arch.MixerOf(0), MixerKind::kKimiDelta);
  EXPECT_EQ(arch.MixerOf(3), MixerKind::kAttention);
  const std::vector<LayerParams> layers = CountLayerParams(arch);
  EXPECT_EQ(layers[3].attention, 7332608);
  EXPECT_EQ(layers[0].attention, 18925712);
  EXPECT_EQ(Total(ling), 7893392800);
  ExpectRoundTripAndShapes(ling);
}

// poolside Laguna-XS.2 (laguna; config.json fields as published): h 2048, 40 layers, full
// attention every 4th layer with 48 query heads, the sliding-window layers 64
// (num_attention_heads_per_layer), 8 KV heads of 128, a per-head output gate (gating true),
// per-head q/k norms; layer 0 a dense MLP of 8192, then 39 MoE layers of 256 experts × 512 with
// one ungated shared expert of 512 and the router's correction bias; vocab 100,352, untied.
//   full layer: q 2048·48·128 = 12,582,912, k/v 2·2048·8·128 = 4,194,304, o 12,582,912,
//     g_proj 2048·48 = 98,304, q/k norms 256 → 29,458,688; · 10
//   sliding layer: q and o 2·2048·64·128 = 33,554,432, k/v 4,194,304, g_proj 131,072, norms
//     256 → 37,880,064; · 30
//   block norms 40·2·2048 = 163,840; dense MLP 3·2048·8192 = 50,331,648;
//   MoE layer: 256·3·2048·512 = 805,306,368 + shared 3,145,728 + router 524,288 + bias 256 =
//     808,976,640; · 39
//   embedding and head 2·100,352·2048 = 411,041,792; final norm 2,048.
// 33,442,617,088: the published total of Laguna-XS.2 (was −0.77% as a Llama reading).
TEST(AuditedFamilies, LagunaHeadsPerLayerAndHeadGates) {
  json layer_types = json::array(), heads = json::array(), mlp = json::array();
  for (int i = 0; i < 40; ++i) {
    const bool full = i % 4 == 0;
    layer_types.push_back(full ? "full_attention" : "sliding_attention");
    heads.push_back(full ? 48 : 64);
    mlp.push_back(i == 0 ? "dense" : "sparse");
  }
  json xs = {{"architectures", {"LagunaForCausalLM"}},
             {"model_type", "laguna"},
             {"vocab_size", 100352},
             {"hidden_size", 2048},
             {"intermediate_size", 8192},
             {"num_hidden_layers", 40},
             {"num_attention_heads", 48},
             {"num_key_value_heads", 8},
             {"head_dim", 128},
             {"attention_bias", false},
             {"num_experts", 256},
             {"num_experts_per_tok", 8},
             {"moe_intermediate_size", 512},
             {"shared_expert_intermediate_size", 512},
             {"tie_word_embeddings", false},
             {"gating", true},
             {"sliding_window", 512},
             {"layer_types", layer_types},
             {"mlp_layer_types", mlp},
             {"num_attention_heads_per_layer", heads}};
  const std::int64_t expected =
      10 * 29458688LL + 30 * 37880064LL + 163840 + 50331648 + 39 * 808976640LL + 411041792 + 2048;
  EXPECT_EQ(expected, 33442617088);
  EXPECT_EQ(Total(xs), expected);
  ExpectRoundTripAndShapes(xs);
  // Laguna-S-2.1 spells the gate per layer: the same count.
  json per_layer = xs;
  per_layer.erase("gating");
  per_layer["gating_types"] = json::array();
  for (int i = 0; i < 40; ++i) per_layer["gating_types"].push_back("per_head");
  EXPECT_EQ(Total(per_layer), expected);
  // A per-element gate is h → heads · head_dim: 128 times the per-head one.
  json element = xs;
  element["gating"] = "per-element";
  EXPECT_EQ(Total(element), expected + 127LL * (10 * 98304 + 30 * 131072));
  // Head counts trainmem cannot represent are named, not guessed.
  json uneven = xs;
  uneven["num_attention_heads_per_layer"][5] = 56;
  Result<ModelArch> bad = ParseModelArch(uneven, "model");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors().front().path, "model.num_attention_heads_per_layer");
}

}  // namespace
}  // namespace trainmem
