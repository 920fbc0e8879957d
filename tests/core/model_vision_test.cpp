// Vision towers of multimodal config.json files (model_vision.cpp): the checkpoint total that
// `trainmem params` reports includes them, the language model the estimator trains does not.
// Each expected figure is derived by hand in the comment above it from the tower's modeling
// file, and equals the hub's safetensors total of the whole checkpoint.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/model/model.h"
#include "core/model/presets.h"
#include "test_support.h"

namespace trainmem {
namespace {

using nlohmann::json;
using testing::ExpectRoundTripAndShapes;
using testing::HasWarningWith;
using testing::MustParseModel;
using testing::PublishedConfig;

// google/gemma-3-27b-it's config.json (text_config and vision_config as published).
json Gemma3_27b() {
  return {{"architectures", {"Gemma3ForConditionalGeneration"}},
          {"model_type", "gemma3"},
          {"mm_tokens_per_image", 256},
          {"text_config",
           {{"head_dim", 128},
            {"hidden_activation", "gelu_pytorch_tanh"},
            {"hidden_size", 5376},
            {"intermediate_size", 21504},
            {"max_position_embeddings", 131072},
            {"model_type", "gemma3_text"},
            {"num_attention_heads", 32},
            {"num_hidden_layers", 62},
            {"num_key_value_heads", 16},
            {"query_pre_attn_scalar", 168},
            {"sliding_window", 1024},
            {"sliding_window_pattern", 6},
            {"vocab_size", 262208}}},
          {"vision_config",
           {{"hidden_size", 1152},
            {"image_size", 896},
            {"intermediate_size", 4304},
            {"model_type", "siglip_vision_model"},
            {"num_attention_heads", 16},
            {"num_hidden_layers", 27},
            {"patch_size", 14},
            {"vision_use_head", false}}}};
}

// SigLIP So400m/14 at 896 px, h 1152, MLP 4304, 27 layers (vision_use_head false):
//   patch_embedding 3·14²·1152 + 1152 = 678,528; position_embedding (896/14)² = 4096 rows
//   · 1152 = 4,718,592;
//   a block: two LayerNorms 4·1152 = 4,608, q/k/v/out 4·(1152² + 1152) = 5,313,024,
//   fc1 + fc2 2·1152·4304 + 4304 + 1152 = 9,921,872 → 15,239,504; · 27 = 411,466,608;
//   post_layernorm 2,304 → 416,866,032.
// The projector: 1152·5376 + 1152 = 6,194,304.
// Published total 27,432,406,640 = language model 27,009,346,304 + 423,060,336.
TEST(VisionTowers, Gemma3CountsSiglipAndItsProjector) {
  const ModelArch arch = MustParseModel(Gemma3_27b());
  const std::int64_t block =
      4 * 1152 + 4 * (1152LL * 1152 + 1152) + 2LL * 1152 * 4304 + 4304 + 1152;
  const std::int64_t siglip = (3LL * 14 * 14 * 1152 + 1152) + 4096LL * 1152 + 27 * block + 2304;
  EXPECT_EQ(siglip, 416866032);  // SigLIP So400m as Gemma 3 stores it
  EXPECT_EQ(arch.vision_params, siglip + 1152LL * 5376 + 1152);
  const ParamCounts stored = CountParams(arch, true);
  EXPECT_EQ(stored.total, 27432406640);  // google/gemma-3-27b-it safetensors total
  EXPECT_EQ(stored.vision, 423060336);
  EXPECT_EQ(stored.active, 27009346304);  // per text token: the tower is not active
  // The estimator trains the language model only.
  EXPECT_EQ(CountParams(arch, false).total, 27009346304);
  EXPECT_TRUE(
      HasWarningWith(arch, "SigLIP vision tower and its projector (423,060,336 parameters"));
  // A page link or `trainmem import` carries the count through ModelArchToJson.
  const ModelArch again = MustParseModel(ModelArchToJson(arch));
  EXPECT_EQ(again.vision_params, 423060336);
  EXPECT_EQ(CountParams(again, true).total, 27432406640);
}

// llava-hf/llava-1.5-7b-hf: Vicuna-7B (LlamaConfig defaults, vocab 32064) and CLIP ViT-L/14
// at 336 px (h 1024, MLP 4096, 24 layers):
//   class_embedding 1024; patch_embedding 3·14²·1024 = 602,112 (no bias); position_embedding
//   (24² + 1)·1024 = 590,848; pre/post LayerNorms 4·1024 = 4,096;
//   a block: 4·1024 + 4·(1024² + 1024) + 2·1024·4096 + 4096 + 1024 = 12,596,224; · 24 =
//   302,309,376 → CLIP 303,507,456;
//   projector linear_1 1024·4096 + 4096, linear_2 4096² + 4096 = 20,979,712.
// 6,738,939,904 + 324,487,168 = 7,063,427,072, the published total.
TEST(VisionTowers, LlavaCountsClipAndTwoLinears) {
  const json llava = {{"architectures", {"LlavaForConditionalGeneration"}},
                      {"model_type", "llava"},
                      {"text_config",
                       {{"architectures", {"LlamaForCausalLM"}},
                        {"max_position_embeddings", 4096},
                        {"model_type", "llama"},
                        {"rms_norm_eps", 1e-05},
                        {"vocab_size", 32064}}},
                      {"vision_config",
                       {{"hidden_size", 1024},
                        {"image_size", 336},
                        {"intermediate_size", 4096},
                        {"model_type", "clip_vision_model"},
                        {"num_attention_heads", 16},
                        {"num_hidden_layers", 24},
                        {"patch_size", 14},
                        {"projection_dim", 768}}},
                      {"vision_feature_layer", -2}};
  const ModelArch arch = MustParseModel(llava);
  const std::int64_t block =
      4 * 1024 + 4 * (1024LL * 1024 + 1024) + 2LL * 1024 * 4096 + 4096 + 1024;
  const std::int64_t clip = 1024 + 602112 + 577LL * 1024 + 4096 + 24 * block;
  EXPECT_EQ(clip, 303507456);
  EXPECT_EQ(arch.vision_params, clip + 20979712);
  EXPECT_EQ(CountParams(arch, true).total, 7063427072);
  EXPECT_EQ(CountParams(arch, false).total, 6738939904);
  // Two feature layers concatenated double linear_1's input; no projector bias drops 2·4096.
  json two = llava;
  two["vision_feature_layer"] = {-2, -5};
  two["multimodal_projector_bias"] = false;
  EXPECT_EQ(MustParseModel(two).vision_params, clip + 2048LL * 4096 + 4096LL * 4096);
}

// A small language model under text_config, so that a test reads the tower alone: its
// projector writes `text_hidden`.
json WithTextModel(const std::string& model_type, std::int64_t text_hidden, json vision) {
  return {{"model_type", model_type},
          {"text_config",
           {{"model_type", "llama"},
            {"hidden_size", text_hidden},
            {"intermediate_size", 64},
            {"num_hidden_layers", 1},
            {"num_attention_heads", 1},
            {"num_key_value_heads", 1},
            {"vocab_size", 16}}},
          {"vision_config", std::move(vision)}};
}

std::int64_t VisionOf(const json& config) { return MustParseModel(config).vision_params; }

// Qwen3-VL-8B-Instruct's vision_config (E 1152, MLP 4304, depth 27, patch 16, 2 frames,
// merge 2, 2304 positions, out 4096, deepstack at layers 8, 16, 24):
//   patch_embed (Conv3d with bias) 3·2·16²·1152 + 1152 = 1,770,624; pos_embed 2304·1152 =
//   2,654,208; a block as SigLIP's, 15,239,504, · 27 = 411,466,608;
//   merger: LayerNorm 2·1152 + merged width H = 1152·4 = 4608: H² + H = 21,238,272 and
//   4608·4096 + 4096 = 18,878,464 → 40,119,040;
//   each deepstack merger: LayerNorm over H, 2·4608, + the same two linears → 40,125,952, · 3.
// 576,388,336; with the language model the published 8,767,123,696.
TEST(VisionTowers, Qwen3VlCountsDeepstackMergersAndQwen35HasNone) {
  const json vision = {{"deepstack_visual_indexes", {8, 16, 24}},
                       {"depth", 27},
                       {"hidden_size", 1152},
                       {"in_channels", 3},
                       {"intermediate_size", 4304},
                       {"model_type", "qwen3_vl"},
                       {"num_heads", 16},
                       {"num_position_embeddings", 2304},
                       {"out_hidden_size", 4096},
                       {"patch_size", 16},
                       {"spatial_merge_size", 2},
                       {"temporal_patch_size", 2}};
  const std::int64_t body = 1770624 + 2654208 + 27LL * 15239504;
  const std::int64_t merger = 2 * 1152 + (4608LL * 4608 + 4608) + (4608LL * 4096 + 4096);
  const std::int64_t deepstack = 2 * 4608 + (4608LL * 4608 + 4608) + (4608LL * 4096 + 4096);
  EXPECT_EQ(VisionOf(WithTextModel("qwen3_vl", 4096, vision)), body + merger + 3 * deepstack);
  EXPECT_EQ(body + merger + 3 * deepstack, 576388336);
  const json qwen3_vl_8b = {{"model_type", "qwen3_vl"},
                            {"tie_word_embeddings", false},
                            {"text_config",
                             {{"head_dim", 128},
                              {"hidden_size", 4096},
                              {"intermediate_size", 12288},
                              {"model_type", "qwen3_vl_text"},
                              {"num_attention_heads", 32},
                              {"num_hidden_layers", 36},
                              {"num_key_value_heads", 8},
                              {"vocab_size", 151936}}},
                            {"vision_config", vision}};
  EXPECT_EQ(CountParams(MustParseModel(qwen3_vl_8b), true).total, 8767123696);
  // Qwen3.5-27B: the same tower without deepstack mergers, out 5120: the merger's second linear
  // 4608·5120 + 5120 → 460,730,096.
  json qwen35 = vision;
  qwen35["deepstack_visual_indexes"] = json::array();
  qwen35["model_type"] = "qwen3_5";
  qwen35["out_hidden_size"] = 5120;
  EXPECT_EQ(VisionOf(WithTextModel("qwen3_5", 5120, qwen35)),
            body + 2 * 1152 + (4608LL * 4608 + 4608) + (4608LL * 5120 + 5120));
  EXPECT_EQ(VisionOf(WithTextModel("qwen3_5", 5120, qwen35)), 460730096);
  // A list that is not one is named.
  json bad = vision;
  bad["deepstack_visual_indexes"] = 3;
  EXPECT_TRUE(HasWarningWith(MustParseModel(WithTextModel("qwen3_vl", 4096, bad)),
                             "vision_config.deepstack_visual_indexes: expected a list"));
}

// Qwen2-VL-2B (the language model's fields at the top; vision E 1280, mlp_ratio 4, depth 32,
// in_chans 3, merger into hidden_size 1536):
//   patch_embed (Conv3d, no bias) 3·2·14²·1280 = 1,505,280;
//   a block: LayerNorms 4·1280 + qkv 3·1280² + 3·1280 + proj 1280² + 1280 + fc1 1280·5120 + 5120
//   + fc2 5120·1280 + 1280 = 19,677,440; · 32 = 629,678,080;
//   merger: ln_q 2·1280, 5120² + 5120, 5120·1536 + 1536 → 34,087,936.
// 665,271,296 (published 2,208,985,600 − the language model's 1,543,714,304).
// Qwen2.5-VL-3B: RMSNorms (2·1280 a block), gated MLP of 3420 with biases
//   2·(1280·3420 + 3420) + 3420·1280 + 1280: a block 1280·2 + 4,919,040 + 1,639,680
//   + 8,762,040 + 4,378,880 = 19,702,200, · 32 = 630,470,400; merger ln_q 1280 + 26,219,520
//   + 5120·2048 + 2048 → 36,708,608; with the patch embedding 668,684,288.
TEST(VisionTowers, Qwen2VlAndQwen25VlMergeIntoTheLanguageModel) {
  json qwen2_vl = {{"model_type", "qwen2_vl"},
                   {"hidden_size", 1536},
                   {"intermediate_size", 8960},
                   {"num_attention_heads", 12},
                   {"num_hidden_layers", 28},
                   {"num_key_value_heads", 2},
                   {"tie_word_embeddings", true},
                   {"vocab_size", 151936},
                   {"vision_config",
                    {{"depth", 32},
                     {"embed_dim", 1280},
                     {"mlp_ratio", 4},
                     {"num_heads", 16},
                     {"in_chans", 3},
                     {"hidden_size", 1536},
                     {"patch_size", 14},
                     {"spatial_merge_size", 2},
                     {"spatial_patch_size", 14},
                     {"temporal_patch_size", 2}}}};
  const ModelArch arch = MustParseModel(qwen2_vl);
  EXPECT_EQ(arch.vision_params, 1505280 + 32LL * 19677440 + 34087936);
  EXPECT_EQ(CountParams(arch, true).total, 2208985600);
  json qwen25 = qwen2_vl;
  qwen25["model_type"] = "qwen2_5_vl";
  qwen25["hidden_size"] = 2048;
  qwen25["intermediate_size"] = 11008;
  qwen25["num_attention_heads"] = 16;
  qwen25["num_hidden_layers"] = 36;
  qwen25["vision_config"] = {{"depth", 32},
                             {"hidden_size", 1280},
                             {"intermediate_size", 3420},
                             {"num_heads", 16},
                             {"in_chans", 3},
                             {"out_hidden_size", 2048},
                             {"patch_size", 14},
                             {"spatial_merge_size", 2},
                             {"window_size", 112},
                             {"fullatt_block_indexes", {7, 15, 23, 31}},
                             {"temporal_patch_size", 2}};
  const ModelArch q25 = MustParseModel(qwen25);
  EXPECT_EQ(q25.vision_params, 1505280 + 32LL * 19702200 + 36708608);
  EXPECT_EQ(CountParams(q25, true).total, 3754622976);  // Qwen2.5-VL-3B-Instruct
}

// Llama-4-Scout / Maverick (h 1408, MLP 5632, 34 layers, 336 px, patch 14, adapter 4096 → 4096,
// vision_output_dim 4096, text h 5120):
//   unfold linear 3·14²·1408 = 827,904; class_embedding 1,408; positions (24² + 1)·1408 =
//   812,416; layernorm_pre/post 4·1408 = 5,632;
//   a block 4·1408 + 4·(1408² + 1408) + 2·1408·5632 + 5632 + 1408 = 23,807,872, · 34;
//   pixel-shuffle MLP 5632·4096 + 4096·4096; projector 4096·5120.
// 871,932,416 (published 108,641,793,536 − the language model's 107,769,861,120).
TEST(VisionTowers, Llama4CountsTheAdapterAndProjector) {
  const json vision = {{"hidden_size", 1408},
                       {"image_size", 336},
                       {"intermediate_size", 5632},
                       {"model_type", "llama4_vision_model"},
                       {"multi_modal_projector_bias", false},
                       {"num_attention_heads", 16},
                       {"num_channels", 3},
                       {"num_hidden_layers", 34},
                       {"patch_size", 14},
                       {"pixel_shuffle_ratio", 0.5},
                       {"projector_input_dim", 4096},
                       {"projector_output_dim", 4096},
                       {"vision_output_dim", 4096}};
  const std::int64_t expected = 827904 + 1408 + 812416 + 5632 + 34LL * 23807872 + 5632LL * 4096 +
                                4096LL * 4096 + 4096LL * 5120;
  EXPECT_EQ(expected, 871932416);
  EXPECT_EQ(VisionOf(WithTextModel("llama4", 5120, vision)), expected);
}

// Mistral-Small-3.2-24B (Pixtral h 1024, MLP 4096, 24 layers, patch 14; text h 5120):
//   patch_conv 3·14²·1024 = 602,112; ln_pre 1,024; a block 4·1024² + 3·1024·4096 + 2·1024 =
//   16,779,264, · 24 = 402,702,336;
//   projector: norm 1,024, patch_merger 1024·4·1024 = 4,194,304, linear_1 1024·5120,
//   linear_2 5120² (no biases) → 35,652,608.
// 438,958,080 (published 24,011,361,280 − the language model's 23,572,403,200).
TEST(VisionTowers, Mistral3CountsPixtralAndThePatchMerger) {
  json config = WithTextModel("mistral3", 5120,
                              {{"head_dim", 64},
                               {"hidden_size", 1024},
                               {"image_size", 1540},
                               {"intermediate_size", 4096},
                               {"model_type", "pixtral"},
                               {"num_attention_heads", 16},
                               {"num_channels", 3},
                               {"num_hidden_layers", 24},
                               {"patch_size", 14}});
  config["spatial_merge_size"] = 2;
  config["vision_feature_layer"] = -1;
  EXPECT_EQ(VisionOf(config), 602112 + 1024 + 24LL * 16779264 + 35652608);
  EXPECT_EQ(VisionOf(config), 438958080);
  config["multimodal_projector_bias"] = true;  // two biases of the text width
  EXPECT_EQ(VisionOf(config), 438958080 + 2 * 5120);
}

// InternVL2.5-2B (internvl_chat; InternViT-300M: h 1024, MLP 4096, 24 layers, 448 px, patch 14,
// qkv_bias, no qk_normalization, layer_norm; downsample_ratio 0.5; text h 2048):
//   class_embedding 1,024; patch Conv2d 3·14²·1024 + 1024 = 603,136; positions (32² + 1)·1024
//   = 1,049,600;
//   a block: LayerNorms 4·1024, qkv 3·1024² + 3·1024, proj 1024² + 1024, ls1/ls2 2·1024,
//   fc1 1024·4096 + 4096, fc2 4096·1024 + 1024 → 12,598,272, · 24 = 302,358,528;
//   mlp1: LayerNorm 2·4096, 4096·2048 + 2048, 2048² + 2048 → 12,595,200.
// 316,607,488 (published 2,205,754,368 − the language model's 1,889,146,880).
TEST(VisionTowers, InternVlChatCountsInternVitAndMlp1) {
  json config = WithTextModel("internvl_chat", 2048,
                              {{"hidden_size", 1024},
                               {"image_size", 448},
                               {"intermediate_size", 4096},
                               {"model_type", "intern_vit_6b"},
                               {"norm_type", "layer_norm"},
                               {"num_attention_heads", 16},
                               {"num_channels", 3},
                               {"num_hidden_layers", 24},
                               {"patch_size", 14},
                               {"qk_normalization", false},
                               {"qkv_bias", true}});
  config["llm_config"] = config["text_config"];
  config.erase("text_config");
  config["downsample_ratio"] = 0.5;
  EXPECT_EQ(VisionOf(config), 1024 + 603136 + 1049600 + 24LL * 12598272 + 12595200);
  EXPECT_EQ(VisionOf(config), 316607488);
  config["vision_config"]["norm_type"] = "batch_norm";
  EXPECT_TRUE(HasWarningWith(MustParseModel(config), "vision_config.norm_type: unknown value"));
}

// SmolVLM-256M (idefics3; h 768, MLP 3072, 12 layers, 512 px, patch 16, scale_factor 4, text
// h 576): patch Conv2d 3·16²·768 + 768 = 590,592; positions 32²·768 = 786,432; a block
// 4·768 + 4·(768² + 768) + 2·768·3072 + 3072 + 768 = 7,087,872, · 12; post_layernorm 1,536;
// connector 768·16·576 = 7,077,888 (no bias). 93,510,912.
TEST(VisionTowers, Idefics3CountsTheConnector) {
  json config = WithTextModel("idefics3", 576,
                              {{"hidden_size", 768},
                               {"image_size", 512},
                               {"intermediate_size", 3072},
                               {"model_type", "idefics3_vision"},
                               {"num_attention_heads", 12},
                               {"num_hidden_layers", 12},
                               {"patch_size", 16}});
  config["scale_factor"] = 4;
  EXPECT_EQ(VisionOf(config), 590592 + 786432 + 12LL * 7087872 + 1536 + 7077888);
  EXPECT_EQ(VisionOf(config), 93510912);
}

// Gemma 3 4B's text_config gives only hidden 2560, MLP 10240 and 34 layers: the rest are
// Gemma3TextConfig's defaults (8 heads, 4 KV heads, head_dim 256, vocab 262,208), as
// transformers builds it. Published total 4,300,079,472 = 3,880,263,168 + the SigLIP tower
// 416,866,032 + projector 1152·2560 + 1152.
TEST(VisionTowers, Gemma3TextConfigDefaultsFillTheSmallModels) {
  json config = Gemma3_27b();
  config["text_config"] = {{"hidden_size", 2560},
                           {"intermediate_size", 10240},
                           {"model_type", "gemma3_text"},
                           {"num_hidden_layers", 34},
                           {"sliding_window", 1024}};
  const ModelArch arch = MustParseModel(config);
  EXPECT_EQ(arch.num_heads, 8);
  EXPECT_EQ(arch.num_kv_heads, 4);
  EXPECT_EQ(arch.head_dim, 256);
  EXPECT_EQ(arch.vocab_size, 262208);
  EXPECT_EQ(arch.vision_params, 416866032 + 1152LL * 2560 + 1152);
  EXPECT_EQ(CountParams(arch, true).total, 4300079472);
  EXPECT_TRUE(HasWarningWith(arch, "Gemma3TextConfig's defaults"));
}

// Kimi-K2.5's vision_config (MoonViT 3-D: vt_hidden_size 1152, MLP 4304, 27 layers, patch 14,
// a 64 × 64 position table, merge kernel 2 × 2, projector width 1152 into text_hidden_size
// 7168):
//   patch Conv2d 3·14²·1152 + 1152 = 678,528; positions 64·64·1152 = 4,718,592; blocks
//   27 · 15,239,504 (SigLIP's shape) = 411,466,608; final LayerNorm 2,304 → 416,866,032;
//   patch merger: LayerNorm 2·1152, 4608² + 4608 = 21,238,272, 4608·7168 + 7168 = 33,037,312.
// 471,143,920: the published K2.5 total (logical parameters) less Kimi K2's 1,026,408,232,448.
// GLM-4.5V's tower (E 1536, depth 24, out 4096, merger MLP 10,944, 336 px, patch 14, 2 frames):
//   Conv3d 3·2·14²·1536 + 1536 = 1,807,872; post_conv_layernorm 1,536; positions 24²·1536 =
//   884,736; a block: RMSNorms 2·1536, qkv 3·1536², proj 1536², gated MLP 3·1536·4096 =
//   28,314,624, · 24; post_layernorm 1,536; downsample 1536·4096·2² + 4096 = 25,169,920; merger
//   4096² + LayerNorm 2·4096 + 3·4096·10,944 = 151,265,280 → 858,681,856 (published
//   107,710,933,120 − the language model's 106,852,251,264).
TEST(VisionTowers, MoonVitAndGlm4vTowers) {
  const json kimi = {{"init_pos_emb_height", 64},
                     {"init_pos_emb_time", 4},
                     {"init_pos_emb_width", 64},
                     {"merge_kernel_size", {2, 2}},
                     {"mm_hidden_size", 1152},
                     {"mm_projector_type", "patchmerger"},
                     {"patch_size", 14},
                     {"text_hidden_size", 7168},
                     {"vt_hidden_size", 1152},
                     {"vt_intermediate_size", 4304},
                     {"vt_num_attention_heads", 16},
                     {"vt_num_hidden_layers", 27}};
  const std::int64_t moonvit = 678528 + 4718592 + 411466608 + 2304;
  EXPECT_EQ(moonvit, 416866032);
  EXPECT_EQ(VisionOf(WithTextModel("kimi_k25", 7168, kimi)), moonvit + 2304 + 21238272 + 33037312);
  EXPECT_EQ(VisionOf(WithTextModel("kimi_k25", 7168, kimi)), 471143920);
  const json glm = {{"attention_bias", false},
                    {"depth", 24},
                    {"hidden_size", 1536},
                    {"image_size", 336},
                    {"in_channels", 3},
                    {"intermediate_size", 10944},
                    {"model_type", "glm4v_moe_vision"},
                    {"num_heads", 12},
                    {"out_hidden_size", 4096},
                    {"patch_size", 14},
                    {"spatial_merge_size", 2},
                    {"temporal_patch_size", 2}};
  const std::int64_t block = 2 * 1536 + 3LL * 1536 * 1536 + 1536LL * 1536 + 3LL * 1536 * 4096;
  EXPECT_EQ(block, 28314624);
  EXPECT_EQ(VisionOf(WithTextModel("glm4v_moe", 4096, glm)),
            1807872 + 1536 + 884736 + 24 * block + 1536 + 25169920 + 151265280);
  EXPECT_EQ(VisionOf(WithTextModel("glm4v_moe", 4096, glm)), 858681856);
  json square = glm;
  square["image_size"] = {336, 336};  // the same square written as a pair
  EXPECT_EQ(VisionOf(WithTextModel("glm4v_moe", 4096, square)), 858681856);
  square["image_size"] = {336, 448};
  EXPECT_TRUE(HasWarningWith(MustParseModel(WithTextModel("glm4v_moe", 4096, square)),
                             "vision_config.image_size: expected one side or a square"));
}

// ERNIE-4.5-VL-28B-A3B (ernie4_5_moe_vl; fields as the PT checkpoint's config writes them,
// reconstructed: no verbatim copy was found, and the published total is only "29.4B"): h 2560,
// 28 layers, 20 heads and 4 KV heads of 128, tied vocab 103,424, layer 0 a dense MLP of 12,288,
// layers 1–27 MoE with [64, 64] experts of [1536, 512] (text, vision), 2 shared experts:
//   embedding 103,424·2560 = 264,765,440; attention 28·15,728,640; norms 28·5120 + 2560;
//   dense MLP 3·2560·12,288 = 94,371,840;
//   MoE layer: text 64·3·2560·1536 = 754,974,720, vision 64·3·2560·512 = 251,658,240, shared
//   3·2560·3072 = 23,592,960, two routers 2·64·2560, the (2, 64) correction bias → 1,030,553,728.
//   → 28,624,635,776.
// The DFNRope ViT (1280 wide, 32 blocks, MLP 5120): patch 3·14²·1280 = 752,640, blocks
// 32·19,677,440, final LayerNorm 2560 → 630,433,280; the resampler over sd = 1280·4 = 5120:
// spatial 2·(5120² + 5120) + 2·5120 = 52,449,280, temporal 10,240·5120 + 5120 + 5120² + 5120 +
// 2·5120 = 78,663,680, mlp 5120·2560 + 2560, after_norm 2560 → 144,225,280.
TEST(VisionTowers, ErnieVlHasTwoExpertPoolsAndAResampler) {
  const json ernie = {{"architectures", {"Ernie4_5_VLMoeForConditionalGeneration"}},
                      {"model_type", "ernie4_5_moe_vl"},
                      {"hidden_size", 2560},
                      {"intermediate_size", 12288},
                      {"moe_intermediate_size", {1536, 512}},
                      {"moe_k", 6},
                      {"moe_layer_end_index", {29, 28}},
                      {"moe_layer_interval", 1},
                      {"moe_layer_start_index", {1, 1}},
                      {"moe_num_experts", {64, 64}},
                      {"moe_num_shared_experts", 2},
                      {"moe_use_aux_free", true},
                      {"num_attention_heads", 20},
                      {"num_hidden_layers", 28},
                      {"num_key_value_heads", 4},
                      {"pixel_hidden_size", 1280},
                      {"spatial_conv_size", 2},
                      {"temporal_conv_size", 2},
                      {"use_temporal_conv", true},
                      {"tie_word_embeddings", true},
                      {"use_bias", false},
                      {"vocab_size", 103424},
                      {"vision_config",
                       {{"depth", 32},
                        {"embed_dim", 1280},
                        {"hidden_size", 1280},
                        {"mlp_ratio", 4},
                        {"num_heads", 16},
                        {"in_channels", 3},
                        {"patch_size", 14},
                        {"spatial_merge_size", 2}}}};
  const ModelArch arch = MustParseModel(ernie);
  const std::int64_t moe_layer = 754974720 + 251658240 + 23592960 + 2 * 64 * 2560 + 128;
  EXPECT_EQ(moe_layer, 1030553728);
  const std::int64_t lm =
      264765440 + 28LL * 15728640 + 28 * 5120 + 2560 + 94371840 + 27LL * moe_layer;
  EXPECT_EQ(CountParams(arch, false).total, lm);
  EXPECT_EQ(lm, 28624635776);
  EXPECT_EQ(arch.vision_params, 630433280 + 144225280);
  EXPECT_EQ(CountParams(arch, true).total, 29399294336);
  // A text token reaches its 6 text experts and the shared ones, never the vision pool.
  const ParamCounts counts = CountParams(arch, false);
  EXPECT_EQ(counts.active, counts.dense + 27LL * 6 * 3 * 2560 * 1536);
  ExpectRoundTripAndShapes(ernie);
  // Pools on different layers are named, not approximated.
  json apart = ernie;
  apart["moe_layer_start_index"] = {1, 3};
  Result<ModelArch> bad = ParseModelArch(apart, "model");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors().front().path, "model.moe_layer_start_index");
}

// Phi-3.5-vision (phi3_v; the tower is under img_processor and hard-coded CLIP ViT-L/14-336):
// CLIP 303,507,456 (as LLaVA-1.5's), glb_GN and sub_GN 8·1024, img_projection with the HD
// transform and projection_cls "mlp": 4096·3072 + 3072 and 3072² + 3072 → 325,541,888; with the
// Phi-3 language model (3,821,079,552) the published 4,146,621,440.
// DeepSeek-VL2-tiny (deepseek_vl_v2; language_config deepseek_v2 with use_mla false: plain
// multi-head attention, 4·1280² a layer): the SigLIP-SO400M tower (width 1152, 27 layers,
// mlp_ratio 3.7362 → 4304, 384 px, patch 14) 678,528 + 27²·1152 = 839,808 + 27·15,239,504 +
// 2,304, the attention-pooling latent 1152 + q 1152² + 1152 + kv 1152·2304 + 2304 + proj
// 1152² + 1152 + LayerNorm 2304 + MLP 2·1152·4304 + 4304 + 1152 = 15,238,352; the projector
// 4608·1280 + 1280 + 1280² + 1280 = 7,539,200; image_newline and view_seperator 2·1280 →
// 435,767,360; the published total 3,370,501,440.
TEST(VisionTowers, Phi3VisionAndDeepseekVl2) {
  const json phi = {
      {"model_type", "phi3_v"},
      {"embd_layer",
       {{"projection_cls", "mlp"}, {"use_hd_transform", true}, {"with_learnable_separator", true}}},
      {"img_processor", {{"image_dim_out", 1024}, {"num_img_tokens", 144}}},
      {"hidden_size", 3072},
      {"intermediate_size", 8192},
      {"num_attention_heads", 32},
      {"num_hidden_layers", 32},
      {"num_key_value_heads", 32},
      {"tie_word_embeddings", false},
      {"vocab_size", 32064}};
  const ModelArch p = MustParseModel(phi);
  EXPECT_EQ(p.vision_params,
            303507456 + 8 * 1024 + (4096LL * 3072 + 3072) + (3072LL * 3072 + 3072));
  EXPECT_EQ(CountParams(p, true).total, 4146621440);
  const json vl2 = {{"model_type", "deepseek_vl_v2"},
                    {"tile_tag", "2D"},
                    {"language_config",
                     {{"model_type", "deepseek_v2"},
                      {"hidden_size", 1280},
                      {"intermediate_size", 6848},
                      {"moe_intermediate_size", 896},
                      {"num_hidden_layers", 12},
                      {"num_attention_heads", 10},
                      {"num_key_value_heads", 10},
                      {"n_routed_experts", 64},
                      {"n_shared_experts", 2},
                      {"num_experts_per_tok", 6},
                      {"first_k_dense_replace", 1},
                      {"kv_lora_rank", 512},
                      {"q_lora_rank", nullptr},
                      {"qk_nope_head_dim", 128},
                      {"qk_rope_head_dim", 64},
                      {"v_head_dim", 128},
                      {"use_mla", false},
                      {"topk_method", "greedy"},
                      {"vocab_size", 129280},
                      {"tie_word_embeddings", false}}},
                    {"projector_config",
                     {{"projector_type", "downsample_mlp_gelu"},
                      {"input_dim", 1152},
                      {"n_embed", 1280},
                      {"depth", 2},
                      {"mlp_ratio", 1},
                      {"downsample_ratio", 2}}},
                    {"vision_config",
                     {{"image_size", 384},
                      {"patch_size", 14},
                      {"width", 1152},
                      {"layers", 27},
                      {"mlp_ratio", 3.7362},
                      {"global_pool", "map"},
                      {"class_token", false}}}};
  const ModelArch d = MustParseModel(vl2);
  const std::int64_t pool = 1152 + (1152LL * 1152 + 1152) + (1152LL * 2304 + 2304) +
                            (1152LL * 1152 + 1152) + 2304 + (2LL * 1152 * 4304 + 4304 + 1152);
  EXPECT_EQ(pool, 15238352);
  EXPECT_EQ(d.vision_params, 678528 + 839808 + 27LL * 15239504 + 2304 + pool + 7539200 + 2 * 1280);
  EXPECT_EQ(CountParams(d, true).total, 3370501440);
  EXPECT_EQ(d.attention, AttentionKind::kGqa);  // use_mla false
}

// MiniCPM-V 2.6 (minicpmv, version 2.6: a Qwen2-7B language model with q/k/v biases, vocab
// 151,666, untied): navit-SigLIP at 980 px (27 layers, 70² position rows) 678,528 + 5,644,800 +
// 411,466,608 + 2,304 = 417,792,240; the resampler: 64 queries · 3584, kv_proj 1152·3584,
// attention 3·3584² + 3·3584 + 3584² + 3584, three LayerNorms 6·3584, proj 3584² = 68,619,264
// → 486,411,504; the published total 8,099,175,152.
TEST(VisionTowers, MiniCpmVReadsItsLanguageModelByVersion) {
  const json minicpm = {{"model_type", "minicpmv"},
                        {"version", 2.6},
                        {"hidden_size", 3584},
                        {"intermediate_size", 18944},
                        {"num_attention_heads", 28},
                        {"num_hidden_layers", 28},
                        {"num_key_value_heads", 4},
                        {"tie_word_embeddings", false},
                        {"vocab_size", 151666},
                        {"query_num", 64},
                        {"drop_vision_last_layer", false},
                        {"vision_config",
                         {{"hidden_size", 1152},
                          {"image_size", 980},
                          {"intermediate_size", 4304},
                          {"model_type", "siglip"},
                          {"num_hidden_layers", 27},
                          {"patch_size", 14}}}};
  const ModelArch arch = MustParseModel(minicpm);
  EXPECT_TRUE(arch.qkv_bias);  // Qwen2's
  const std::int64_t resampler = 64 * 3584 + 1152LL * 3584 + (3LL * 3584 * 3584 + 3 * 3584) +
                                 (3584LL * 3584 + 3584) + 6 * 3584 + 3584LL * 3584;
  EXPECT_EQ(resampler, 68619264);
  EXPECT_EQ(arch.vision_params, 417792240 + resampler);
  EXPECT_EQ(CountParams(arch, true).total, 8099175152);
  EXPECT_TRUE(HasWarningWith(arch, "MiniCPM-V 2.6: its language model is read as qwen2"));
}

// The multimodal presets count the published totals of their whole checkpoints (the towers as
// derived above: Qwen3-VL-8B 576,388,336; Qwen2.5-VL-7B's tower is the 3B's with out 3584).
TEST(VisionTowers, MultimodalPresetsCountTheirCheckpoints) {
  const std::pair<const char*, std::int64_t> published[] = {
      {"qwen3-vl-4b", 4437815808},       {"qwen3-vl-8b", 8767123696},
      {"qwen3-vl-30b-a3b", 31070754032}, {"qwen2.5-vl-3b", 3754622976},
      {"qwen2.5-vl-7b", 8292166656},     {"gemma3-27b", 27432406640},
      {"llama4-scout", 108641793536}};
  for (const auto& [id, total] : published) {
    const ModelPreset* preset = testing::TestPresets().FindModel(id);
    ASSERT_NE(preset, nullptr) << id;
    EXPECT_GT(preset->arch.vision_params, 0) << id;
    EXPECT_EQ(CountParams(preset->arch, true).total, total) << id;
  }
}

// Gemma 4 26B-A4B's vision_config (h 1152, MLP 4304, 27 layers, 16 heads and KV heads of 72,
// patch 16, 10,240 positions, standardize; text h 2816):
//   a block: q/k/v/o 1152·72·(2·16 + 2·16) = 5,308,416, q/k norms 2·72, gated MLP 3·1152·4304 =
//   14,874,624, four norms 4·1152 → 20,187,792; · 27 = 545,070,384;
//   input_proj 3·16²·1152 = 884,736; position table 2·10,240·1152 = 23,592,960; std_bias and
//   std_scale 2·1152; embed_vision 1152·2816 = 3,244,032 → 572,794,416 (published 26B-A4B
//   25,805,936,206 − the language model's 25,233,141,790).
TEST(VisionTowers, Gemma4CountsItsTowerAndEmbedder) {
  const json vision = {{"head_dim", 72},
                       {"hidden_size", 1152},
                       {"intermediate_size", 4304},
                       {"model_type", "gemma4_vision"},
                       {"num_attention_heads", 16},
                       {"num_hidden_layers", 27},
                       {"num_key_value_heads", 16},
                       {"patch_size", 16},
                       {"position_embedding_size", 10240},
                       {"standardize", true},
                       {"use_clipped_linears", false}};
  const std::int64_t block = 1152LL * 72 * 64 + 2 * 72 + 3LL * 1152 * 4304 + 4 * 1152;
  EXPECT_EQ(block, 20187792);
  const std::int64_t expected =
      27 * block + 3LL * 256 * 1152 + 2LL * 10240 * 1152 + 2 * 1152 + 1152LL * 2816;
  EXPECT_EQ(expected, 572794416);
  EXPECT_EQ(VisionOf(WithTextModel("gemma4", 2816, vision)), expected);
  json clipped = vision;
  // 4 bounds on each of 7 linears a block, stored as 0-dimensional tensors, which the hub's
  // total counts as none (E2B's dump: 928 such scalars, its published total without them).
  clipped["use_clipped_linears"] = true;
  EXPECT_EQ(VisionOf(WithTextModel("gemma4", 2816, clipped)), expected);
}

// Gemma 4 E2B / E4B also store an audio tower (Gemma4AudioModel; audio_config D 1,024, 12
// layers, 8 heads, kernel 5, channels [128, 32], output 1,536): subsampling 1·128·9 + 128 +
// 128·32·9 + 32 + (128 / 4)·32·1,024 = 1,086,752; per layer 24·1,024² + 9·1,024 + 5·1,024 +
// 128 = 25,180,288, × 12 = 302,163,456; output_proj 1,024·1,536 + 1,536 = 1,574,400: the
// tower 304,824,608 (E2B's tensor dump: 304,825,088 with its 480 zero-dimensional clip bounds,
// which the hub counts as none); embed_audio 1,536 × text h. Their vision tower is the default
// one (768 wide, 16 layers, MLP 3,072, 12 heads × 64): 16 × 9,440,384 + 589,824 + 15,728,640 =
// 167,364,608, embed_vision 768 × text h. The language models' KV-shared layers store k/v the
// model does not build (Gemma4SmallModelsShareKvAndEmbedPerLayer). E2B (text h 1,536):
// 4,628,569,379 + 18,880,512 + 167,364,608 + 1,179,648 + 304,824,608 + 2,359,296 =
// 5,123,178,051; E4B (text h 2,560, 42 layers, 18 shared): 7,463,013,418 + 55,055,616 +
// 167,364,608 + 1,966,080 + 304,824,608 + 3,932,160 = 7,996,156,490, both the published totals.
TEST(VisionTowers, Gemma4SmallModelsCountTheirAudioTower) {
  const ModelArch e2b = MustParseModel(PublishedConfig("gemma-4-e2b-it.json"));
  EXPECT_EQ(e2b.vision_params, 167364608 + 1179648 + 304824608 + 2359296);
  EXPECT_EQ(CountParams(e2b, true).total, 5123178051);
  EXPECT_EQ(CountParams(e2b, false).total, 4628569379);
  EXPECT_TRUE(HasWarningWith(e2b,
                             "includes the audio tower (a conformer) and its embedder, "
                             "307,183,904 parameters"));
  const ModelArch e4b = MustParseModel(PublishedConfig("gemma-4-e4b-it.json"));
  EXPECT_EQ(CountParams(e4b, true).total, 7996156490);
  EXPECT_EQ(CountParams(e4b, true).stored_unused, 55055616);
  // 26B and 31B write audio_config null: no audio tower (their totals in
  // Gemma4CountsItsTowerAndEmbedder's figures).
  json no_audio = PublishedConfig("gemma-4-e2b-it.json");
  no_audio["audio_config"] = nullptr;
  EXPECT_EQ(VisionOf(no_audio), 167364608 + 1179648);
}

// Gemma 3n E2B / E4B (Gemma3nForConditionalGeneration): the language model as before, the
// MobileNet-V5-300m vision tower (294,126,912, a timm architecture named in vision_config; see
// MobileNetV5Params), embed_vision (128 × 2,048 table, two norms 2 × 2,048, projection 2,048 ×
// 2,048: 4,460,544), the audio encoder (h 1,536, 8 heads: subsampling 1,152 + 128 + 36,864 + 32
// + 32·32·1,536 = 1,611,040; 12 conformer blocks of 24·1,536² + 9·1,536 + 5·1,536 + 192 =
// 56,644,800: 681,348,640) and embed_audio (128 × 1,536 + 2 × 1,536 + 1,536 × 2,048 =
// 3,345,408): 983,281,504 beside language models of 4,456,156,768 (E2B) and 6,866,696,688
// (E4B), totals 5,439,438,272 and 7,849,978,192, the published ones. A MobileNet-V5 of another
// name is not guessed.
TEST(VisionTowers, Gemma3nCountsMobileNetV5AndItsAudioEncoder) {
  const ModelArch e2b = MustParseModel(PublishedConfig("gemma-3n-e2b-it.json"));
  EXPECT_EQ(e2b.vision_params, 294126912 + 4460544 + 681348640 + 3345408);
  EXPECT_EQ(CountParams(e2b, true).total, 5439438272);
  EXPECT_EQ(CountParams(MustParseModel(PublishedConfig("gemma-3n-e4b-it.json")), true).total,
            7849978192);
  json other = PublishedConfig("gemma-3n-e2b-it.json");
  other["vision_config"]["architecture"] = "mobilenetv5_600m_enc";
  const ModelArch unknown = MustParseModel(other);
  EXPECT_EQ(unknown.vision_params, 0);
  EXPECT_TRUE(HasWarningWith(unknown, "mobilenetv5_600m_enc is a timm model"));
}

// Llama-3.2-11B-Vision's vision_config (h 1280, MLP 5120, 32 + 8 global layers, 560 px, patch
// 14, 4 tiles, 8 aspect ratios, output 7680; text h 4096):
//   patch_embedding 3·14²·1280 = 752,640; class_embedding 1,280; positions (40² + 1)·1280 =
//   2,049,280, the tile table 9·4·1601·1280 = 73,774,080 and its gate; pre/post tile tables
//   2·(9·4·1280 + 1) = 92,162; layernorm_pre/post 4·1280;
//   a block 4·1280² + 4·1280 + 2·1280·5120 + 5120 + 1280 = 19,672,320; · 32, and 8 global ones
//   with 2 gates each;
//   projector 7680·4096 + 4096 = 31,461,376 → 895,028,755. With the language model, 34,832 below
//   the published 10,670,220,835 (the cross layers' norms and gates, 8 embedding rows).
TEST(VisionTowers, MllamaCountsItsTiledTower) {
  const json vision = {
      {"attention_heads", 16},
      {"hidden_size", 1280},
      {"image_size", 560},
      {"intermediate_size", 5120},
      {"max_num_tiles", 4},
      {"model_type", "mllama_vision_model"},
      {"num_channels", 3},
      {"num_global_layers", 8},
      {"num_hidden_layers", 32},
      {"patch_size", 14},
      {"supported_aspect_ratios", {{1, 1}, {1, 2}, {1, 3}, {1, 4}, {2, 1}, {2, 2}, {3, 1}, {4, 1}}},
      {"vision_output_dim", 7680}};
  const std::int64_t block = 4LL * 1280 * 1280 + 4 * 1280 + 2LL * 1280 * 5120 + 5120 + 1280;
  EXPECT_EQ(block, 19672320);
  const std::int64_t tower =
      752640 + 1280 + 2049280 + 73774080 + 1 + 92162 + 4 * 1280 + 32 * block + 8 * (block + 2);
  EXPECT_EQ(tower, 863567379);
  EXPECT_EQ(VisionOf(WithTextModel("mllama", 4096, vision)), tower + 31461376);
}

// An encoder-decoder config (T5) is refused by name, not with a missing decoder field.
TEST(VisionTowers, EncoderDecoderConfigsAreNamed) {
  Result<ModelArch> t5 = ParseModelArch({{"model_type", "t5"},
                                         {"is_encoder_decoder", true},
                                         {"d_model", 768},
                                         {"num_heads", 12},
                                         {"num_layers", 12},
                                         {"vocab_size", 32128}},
                                        "model");
  ASSERT_FALSE(t5.ok());
  EXPECT_EQ(t5.errors().front().path, "model.is_encoder_decoder");
  EXPECT_NE(t5.errors().front().message.find("t5 is an encoder-decoder model"), std::string::npos);
}

// A vision_config field trainmem cannot read leaves the tower out with a note naming the field;
// the language model is still counted. A tower it does not know says so.
TEST(VisionTowers, UnreadableOrUnknownTowersAreNamedNotGuessed) {
  json broken = Gemma3_27b();
  broken["vision_config"]["num_hidden_layers"] = -3;
  const ModelArch arch = MustParseModel(broken);
  EXPECT_EQ(arch.vision_params, 0);
  EXPECT_EQ(CountParams(arch, true).total, 27009346304);
  EXPECT_TRUE(HasWarningWith(arch, "vision_config.num_hidden_layers"));
  json other = Gemma3_27b();
  other["model_type"] = "some_vlm";
  other["vision_config"]["model_type"] = "some_vit";
  const ModelArch unknown = MustParseModel(other);
  EXPECT_EQ(unknown.vision_params, 0);
  EXPECT_TRUE(
      HasWarningWith(unknown, "this vision tower (vision_config) and its projector are not"));
}

}  // namespace
}  // namespace trainmem
