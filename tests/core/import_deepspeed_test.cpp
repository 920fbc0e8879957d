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

TEST(ImportDeepspeed, AutoTp) {
  const ImportResult r = MustImport(
      {{"ds.json", R"({"train_micro_batch_size_per_gpu": 1, "tensor_parallel": {"autotp_size": 4},
                       "zero_optimization": {"stage": 1}})"}});
  EXPECT_EQ(At(r.config, "parallelism.tensor_parallel_degree"), 4);
}

}  // namespace
}  // namespace trainmem::testing
