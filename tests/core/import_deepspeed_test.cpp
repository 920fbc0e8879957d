// DeepSpeed JSON.
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

TEST(ImportDeepspeed, ZeroStageOffloadAndBatch) {
  const ImportResult r = MustImport({Fixture("ds_zero3_offload.json")});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(r.config["framework"], "deepspeed");
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 3);
  EXPECT_EQ(At(r.config, "optimizer.offload"), true);
  EXPECT_EQ(At(r.config, "training.local_batch_size"), 4);
  EXPECT_EQ(At(r.config, "training.mixed_precision_param"), "bfloat16");
  EXPECT_EQ(At(r.config, "activation_checkpoint.mode"), "full");
  // train_batch_size 512 = 4 × 8 × DP → DP 16.
  EXPECT_EQ(r.config["world_size"], 16);
  EXPECT_TRUE(Missing(r, "model"));  // a DeepSpeed JSON names no model
}

TEST(ImportDeepspeed, AutoStaysUnknown) {
  const ImportResult r = MustImport({Fixture("ds_hf_auto.json")});
  EXPECT_TRUE(Missing(r, "training.local_batch_size"));
  EXPECT_TRUE(Missing(r, "training.mixed_precision_param"));
  EXPECT_EQ(At(r.config, "parallelism.zero_stage"), 2);
  EXPECT_EQ(At(r.config, "optimizer.offload"), true);  // legacy cpu_offload
  for (const ImportRead& x : r.report.read) EXPECT_NE(x.value, "auto") << x.key;
}

TEST(ImportDeepspeed, WithConfigJsonForTheModel) {
  const std::string hf = R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "vocab_size": 128256, "tie_word_embeddings": false})";
  const ImportResult r = MustImport({Fixture("ds_zero3_offload.json"), {"config.json", hf}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_FALSE(Missing(r, "model"));
  EXPECT_EQ(At(r.config, "model.num_hidden_layers"), 32);
  EXPECT_EQ(At(r.config, "tensor_parallel.autotp_size"), nullptr);
}

// A config.json with exactly one preset's architecture is that preset (its name, a short link).
// Meta-Llama-3-8B's published config.json (32 layers of 4096, 8 KV heads, MLP 14336, vocab
// 128256, 8192 positions) is the llama3-8b preset; one field off, it is the user's own model;
// with 131072 positions it is Llama 3.1 8B's architecture, which the DeepSeek-R1 Llama 8B
// distillation shares, so the file names neither.
TEST(ImportConfigJson, OnePresetsArchitectureIsThatPreset) {
  const std::string llama3 = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama",
    "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
    "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
    "max_position_embeddings": 8192, "rms_norm_eps": 1e-05, "rope_theta": 500000.0,
    "tie_word_embeddings": false, "hidden_act": "silu"})";
  EXPECT_EQ(MustImport({{"config.json", llama3}}).config["model"], "llama3-8b");
  std::string other = llama3;
  other.replace(other.find("128256"), 6, "128257");
  EXPECT_TRUE(MustImport({{"config.json", other}}).config["model"].is_object());
  std::string shared = llama3;
  shared.replace(shared.find("8192"), 4, "131072");
  EXPECT_TRUE(MustImport({{"config.json", shared}}).config["model"].is_object());
}

TEST(ImportDeepspeed, AutoTp) {
  const ImportResult r = MustImport(
      {{"ds.json", R"({"train_micro_batch_size_per_gpu": 1, "tensor_parallel": {"autotp_size": 4},
                       "zero_optimization": {"stage": 1}})"}});
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 4);
}

}  // namespace
}  // namespace trainmem::testing
