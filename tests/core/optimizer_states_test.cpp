// Optimizer states by the names people write (optimizer_states.cpp): each figure derived by hand
// for a small model whose every tensor shape is known.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/model/presets.h"
#include "data/builtin_presets.h"

namespace trainmem {
namespace {

using nlohmann::json;

// h 256, 2 layers, 4 heads × 64 (MHA), MLP 512, vocab 1000, untied. Its tensors:
//   embedding 1000×256, head 1000×256, final norm 256;
//   per layer q, k, v, o 256×256; gate, up 512×256; down 256×512; two norms 256.
// P = 2·256,000 + 256 + 2·(4·65,536 + 3·131,072 + 512) = 1,824,000.
json TinyModel() {
  return {{"model_type", "llama"},       {"hidden_size", 256},       {"num_hidden_layers", 2},
          {"num_attention_heads", 4},    {"intermediate_size", 512}, {"vocab_size", 1000},
          {"tie_word_embeddings", false}};
}

// One device, torchtitan: no sharding, so the optimizer states are the whole model's.
std::int64_t StateBytes(const std::string& optimizer, const json& extra = json::object()) {
  json config = {{"model", TinyModel()}, {"optimizer", {{"name", optimizer}}}};
  config["optimizer"].update(extra);
  static const Presets presets = BuiltinPresets();
  Result<Config> parsed = ParseConfig(config.dump(), presets);
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : FormatError(parsed.errors().front()));
  if (!parsed.ok()) return -1;
  return EstimateMemory(parsed.value()).per_device.optimizer_states;
}

// bitsandbytes' 32-bit paged AdamW keeps fp32 states even where torch.optim's would follow bf16
// parameters (torchtune's single-device recipe: AdamW's states in bf16, 4 B a parameter;
// PagedAdamW's in fp32, 8 B).
TEST(OptimizerStates, PagedAdamWKeepsFp32StatesBesideBf16Parameters) {
  auto torchtune = [](const std::string& optimizer) {
    json config = {{"model", TinyModel()},
                   {"framework", "torchtune"},
                   {"optimizer", {{"name", optimizer}, {"state_dtype", "bfloat16"}}}};
    static const Presets presets = BuiltinPresets();
    Result<Config> parsed = ParseConfig(config.dump(), presets);
    EXPECT_TRUE(parsed.ok());
    return parsed.ok() ? EstimateMemory(parsed.value()).per_device.optimizer_states : -1;
  };
  EXPECT_EQ(torchtune("AdamW"), 4 * 1824000);
  EXPECT_EQ(torchtune("PagedAdamW"), 8 * 1824000);
}

TEST(OptimizerStates, AdamFamily) {
  EXPECT_EQ(StateBytes("AdamW"), 8 * 1824000);  // exp_avg + exp_avg_sq, fp32
  EXPECT_EQ(StateBytes("Lion"), 4 * 1824000);   // exp_avg
  EXPECT_EQ(StateBytes("SGD", {{"momentum", 0}}), 0);
  // 8-bit blockwise: every matrix (≥ 4096 elements) 2·(n + 4·n/256); the 5 norms of 256
  // elements stay fp32: 1,822,720 · 2.03125 + 1280 · 8.
  EXPECT_EQ(StateBytes("AdamW8bit"), 3702400 + 10240);
  EXPECT_EQ(StateBytes("adamw_8bit"), 3702400 + 10240);  // as bitsandbytes spells it
  EXPECT_EQ(StateBytes("PagedAdamW8bit"), 3702400 + 10240);
  // torchao 4-bit: 2·(n/2 + 4·n/128) = 1.0625·n for the matrices.
  EXPECT_EQ(StateBytes("AdamW4bit"), 1936640 + 10240);
}

TEST(OptimizerStates, FactoredAndMatrixOptimizers) {
  // Adafactor: rows + columns per matrix, full for 1-D: embedding and head 1256 each, final
  // norm 256, per layer 4·512 + 3·768 + 2·256 = 4864; (2512 + 256 + 9728) · 4 bytes.
  EXPECT_EQ(StateBytes("Adafactor"), 12496 * 4);
  EXPECT_EQ(StateBytes("Adafactor", {{"first_moment", true}}), 12496 * 4 + 1824000 * 4);
  // Muon: momentum for the 2-D block matrices (2·655,360), AdamW for embedding, head and norms
  // (513,280).
  EXPECT_EQ(StateBytes("Muon"), 1310720 * 4 + 513280 * 8);
  // Shampoo, one block per tensor (every dimension ≤ 1024): factor + inverse root per dimension:
  // q/k/v/o 2·(256² + 256²) each, gate/up/down 2·(512² + 256²) each → 3,014,656 per layer;
  // norms 2·256² each (5); embedding and head 2·(1000² + 256²) each; fp32; plus filtered
  // gradient and Adam grafting (2 · 4 bytes per parameter).
  const std::int64_t factors = 2 * 3014656 + 5 * 131072 + 2 * 2131072;
  EXPECT_EQ(StateBytes("Shampoo"), factors * 4 + 8 * 1824000);
  // SOAP: the same 2-D preconditioners as GG + Q, nothing for 1-D tensors, Adam's two moments.
  EXPECT_EQ(StateBytes("SOAP"), (2 * 3014656 + 2 * 2131072) * 4 + 8 * 1824000);
  // max_preconditioner_dim 128 cuts q (256×256) into 2×2 blocks: Σ_blocks (128² + 128²)·2 =
  // 262,144, as before; a 1000-row embedding becomes 8 row blocks (7·128 + 104), each with the
  // 256 columns cut in two: Σ = 2·(7·128² + 104²) + 8·(2·128²) per factor set.
  const std::int64_t embedding_128 = 2 * (2 * (7 * 128 * 128 + 104 * 104) + 8 * (2 * 128 * 128));
  const std::int64_t layer_128 = 4 * 262144 + 3 * (2 * (2 * (4 * 128 * 128) + 4 * (2 * 128 * 128)));
  const std::int64_t norms_128 = 5 * 2 * (2 * 128 * 128);
  EXPECT_EQ(StateBytes("Shampoo", {{"max_preconditioner_dim", 128}}),
            (2 * embedding_128 + 2 * layer_128 + norms_128) * 4 + 8 * 1824000);
}

TEST(OptimizerStates, UnknownNameListsTheKnownOnes) {
  json config = {{"model", "llama3-8b"}, {"optimizer", {{"name", "Sophia"}}}};
  Result<Config> parsed = ParseConfig(config.dump(), BuiltinPresets());
  ASSERT_FALSE(parsed.ok());
  const Error& e = parsed.errors().front();
  EXPECT_EQ(e.path, "optimizer.name");
  for (const char* known : {"AdamW8bit", "PagedAdamW8bit", "AdamW4bit", "Adafactor", "Muon", "Lion",
                            "SGD", "SOAP", "Shampoo"}) {
    EXPECT_NE(e.message.find(known), std::string::npos) << known;
  }
}

TEST(OptimizerStates, WarningsSayWhatIsAssumed) {
  const Presets presets = BuiltinPresets();
  Result<Config> paged =
      ParseConfig(R"({"model": "llama3-8b", "optimizer": {"name": "PagedAdamW8bit"}})", presets);
  ASSERT_TRUE(paged.ok());
  bool said = false;
  for (const std::string& w : EstimateMemory(paged.value()).warnings) {
    said = said || w.find("unified memory") != std::string::npos;
  }
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace trainmem
