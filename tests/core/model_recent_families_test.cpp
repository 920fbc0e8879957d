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

}  // namespace
}  // namespace trainmem
