// Config.json files of 2025 families whose blocks are not Llama's. Each count is derived by hand
// from the family's transformers modeling file; the configs are the published config.json
// fields.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/estimate/estimate.h"
#include "core/model/model.h"
#include "test_support.h"

namespace trainmem {
namespace {

using nlohmann::json;
using testing::ExpectRoundTripAndShapes;
using testing::HasWarningWith;
using testing::MustParseModel;

std::int64_t Total(const json& config) { return CountParams(MustParseModel(config), true).total; }

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
// "unknown model_type" warning, and says the vision tower is not counted.
TEST(RecentFamilies, GlmVisionModelsCountTheirTextFamily) {
  const json air = {{"model_type", "glm4_moe"},       {"hidden_size", 4096},
                    {"intermediate_size", 10944},     {"moe_intermediate_size", 1408},
                    {"n_routed_experts", 128},        {"n_shared_experts", 1},
                    {"num_experts_per_tok", 8},       {"first_k_dense_replace", 1},
                    {"num_attention_heads", 96},      {"num_key_value_heads", 8},
                    {"head_dim", 128},                {"num_hidden_layers", 46},
                    {"vocab_size", 151424},           {"attention_bias", true},
                    {"tie_word_embeddings", false}};
  json text = air;
  text["model_type"] = "glm4v_moe_text";
  const json glm45v = {{"architectures", {"Glm4vMoeForConditionalGeneration"}},
                       {"model_type", "glm4v_moe"},
                       {"text_config", text},
                       {"vision_config", {{"hidden_size", 1536}, {"depth", 24}}}};
  const ModelArch v = MustParseModel(glm45v);
  EXPECT_EQ(CountParams(v, true).total, Total(air));
  EXPECT_TRUE(v.router_bias);
  EXPECT_FALSE(v.o_bias);
  EXPECT_FALSE(HasWarningWith(v, "not one trainmem knows"));
  EXPECT_TRUE(HasWarningWith(v, "vision tower"));

  json dense = {{"model_type", "glm4"},       {"hidden_size", 4096},
                {"intermediate_size", 13696}, {"num_attention_heads", 32},
                {"num_key_value_heads", 2},   {"num_hidden_layers", 40},
                {"vocab_size", 151552},       {"attention_bias", true},
                {"tie_word_embeddings", false}};
  json dense_text = dense;
  dense_text["model_type"] = "glm4v_text";
  const ModelArch d = MustParseModel(
      {{"model_type", "glm4v"}, {"text_config", dense_text}, {"vision_config", json::object()}});
  EXPECT_EQ(d.norms_per_layer, 4);
  EXPECT_EQ(CountParams(d, true).total, Total(dense));
  // DeepSeek-VL2 keeps its language model under language_config.
  const ModelArch vl2 = MustParseModel(
      {{"model_type", "deepseek_vl_v2"}, {"language_config", air}, {"vision_config", json::object()}});
  EXPECT_EQ(CountParams(vl2, true).total, Total(air));
  ExpectRoundTripAndShapes(glm45v);
}

}  // namespace
}  // namespace trainmem
