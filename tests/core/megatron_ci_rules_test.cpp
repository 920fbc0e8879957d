// Megatron-LM rules found by scoring trainmem on Megatron-LM's functional-test memory figures
// (tests/data/megatron_ci.jsonl, built by tools/megatron_ci_rows.py): the importer's defaults
// and the GEMM workspaces every Megatron job on a GPU allocates.
#include <gtest/gtest.h>

#include "core/estimate/estimate.h"
#include "import_test_support.h"
#include "test_support.h"

namespace trainmem::testing {
namespace {

std::string Script(const std::string& extra) {
  return "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 16 --hidden-size 512 "
         "--num-attention-heads 8 --seq-length 1024 --micro-batch-size 4 --global-batch-size 32 "
         "--vocab-size 1024 " +
         extra + "\n";
}

// arguments.py: expert_tensor_parallel_size defaults to tensor_model_parallel_size.
TEST(MegatronCiRules, ExpertTensorParallelDefaultsToTp) {
  const ImportResult r =
      MustImport({{"run.sh", Script("--tensor-model-parallel-size 2 --expert-model-parallel-size 2 "
                                    "--num-experts 8 --sequence-parallel")}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(At(r.config, "parallelism.expert_tensor_parallel_degree"), 2);
  const ImportResult given =
      MustImport({{"run.sh", Script("--tensor-model-parallel-size 2 --expert-model-parallel-size 2 "
                                    "--expert-tensor-parallel-size 1 --num-experts 8")}});
  EXPECT_EQ(At(given.config, "parallelism.expert_tensor_parallel_degree"), 1);
}

// A dense model with --expert-tensor-parallel-size: Megatron runs it (the expert groups hold no
// weights); the import leaves the flag out instead of producing a config the estimate refuses.
TEST(MegatronCiRules, ExpertTensorParallelOnADenseModelIsLeftOut) {
  const ImportResult r = MustImport(
      {{"run.sh", Script("--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 "
                         "--context-parallel-size 2 --expert-tensor-parallel-size 4")}});
  EXPECT_TRUE(r.config_valid);
  EXPECT_EQ(r.config["parallelism"].count("expert_tensor_parallel_degree"), 0u);
}

// --num-virtual-stages-per-pipeline-rank 4 with PP 2 and 16 layers: 8 chunks of 2 layers.
TEST(MegatronCiRules, VirtualStagesPerRankMeanTheInterleavedSchedule) {
  const ImportResult r =
      MustImport({{"run.sh", Script("--pipeline-model-parallel-size 2 "
                                    "--num-virtual-stages-per-pipeline-rank 4")}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_schedule"), "Interleaved1F1B");
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_layers_per_stage"), 2);
  // The embedding and the loss counted as layers make uneven virtual stages: not expressible,
  // kept as 1F1B (and said so) rather than refused.
  const ImportResult uneven =
      MustImport({{"run.sh", Script("--pipeline-model-parallel-size 4 "
                                    "--num-virtual-stages-per-pipeline-rank 2 "
                                    "--account-for-embedding-in-pipeline-split "
                                    "--account-for-loss-in-pipeline-split")}});
  EXPECT_TRUE(uneven.config_valid);
  EXPECT_EQ(uneven.config["parallelism"].count("pipeline_parallel_layers_per_stage"), 0u);
}

// --decoder-first/last-pipeline-num-layers 2 with 16 layers over PP 4: the middle ranks split
// the other 12 evenly (transformer_block.py get_num_layers_to_build): [2, 6, 6, 2].
TEST(MegatronCiRules, UnevenFirstAndLastStagesBecomeALayerList) {
  const ImportResult r = MustImport({{"run.sh", Script("--pipeline-model-parallel-size 4 "
                                                       "--decoder-first-pipeline-num-layers 2 "
                                                       "--decoder-last-pipeline-num-layers 2")}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_layer_list"),
            nlohmann::json::array({2, 6, 6, 2}));
}

// Selective recompute is core attention unless --recompute-modules leaves it out.
TEST(MegatronCiRules, RecomputeModulesWithoutCoreAttentionKeepTheScores) {
  const ImportResult core = MustImport(
      {{"run.sh", Script("--recompute-granularity selective --recompute-modules core_attn")}});
  EXPECT_EQ(At(core.config, "activation_checkpoint.mode"), "selective");
  const ImportResult other = MustImport(
      {{"run.sh", Script("--recompute-granularity selective --recompute-modules layernorm mlp")}});
  EXPECT_EQ(At(other.config, "activation_checkpoint.mode"), "none");
}

// --optimizer muon (and the deprecated dist_muon) is Muon, not the Adam assumed for unknown names.
TEST(MegatronCiRules, MuonOptimizerIsRead) {
  for (const char* name : {"muon", "dist_muon"}) {
    const ImportResult r = MustImport({{"run.sh", Script(std::string("--optimizer ") + name)}});
    EXPECT_EQ(At(r.config, "optimizer.name"), "Muon") << name;
  }
}

// GEMM workspaces on an H100: PyTorch's cuBLAS workspace for the forward thread and for the
// autograd thread, 32 MiB each (4096 KiB × 8), and Transformer Engine's 32 MiB + 1 KiB:
// 3 × 33,554,432 + 1,024 = 100,664,320 bytes, in every phase. None for torchtitan, none for
// Megatron on an Ascend NPU (MindSpeed-LLM).
TEST(MegatronCiRules, GemmWorkspacesOfAMegatronJob) {
  const std::vector<std::pair<std::string, std::string>> job = {
      {"fw", "megatron"}, {"ws", "8"}, {"tp", "8"}, {"b", "1"}};
  auto on = [](const char* device) {
    return MustParse(std::string(R"({"model": "llama3-8b", "device": ")") + device + "\"}");
  };
  const Estimate e = EstimateMemory(With(on("h100-80gb"), job));
  ASSERT_FALSE(e.stages.empty());
  EXPECT_EQ(e.stages[0].temporary.workspaces, 100'664'320);
  // Persistent: in the allocated peak whatever the phase, so in peak_allocated.
  EXPECT_GE(e.stages[0].bytes.peak_allocated,
            e.stages[0].bytes.parameters + e.stages[0].bytes.optimizer_states + 100'664'320);
  // Before Hopper: 2 × (8 MiB + 128 KiB) + 4 MiB = 21,233,664 bytes.
  EXPECT_EQ(EstimateMemory(With(on("a100-80gb"), job)).stages[0].temporary.workspaces, 21'233'664);
  EXPECT_EQ(EstimateMemory(With(on("ascend-910b"), job)).stages[0].temporary.workspaces, 0);
  EXPECT_EQ(EstimateMemory(With(on("h100-80gb"), {{"ws", "8"}, {"b", "1"}}))
                .stages[0]
                .temporary.workspaces,
            0);
}

// --moe-grouped-gemm and --cross-entropy-loss-fusion (native, the default impl) are read; the TE
// fused cross-entropy is not the case the estimate counts.
TEST(MegatronCiRules, GroupedGemmAndFusedCrossEntropyAreRead) {
  const ImportResult r = MustImport(
      {{"run.sh", Script("--num-experts 8 --moe-grouped-gemm --cross-entropy-loss-fusion")}});
  EXPECT_EQ(At(r.config, "training.moe_grouped_gemm"), true);
  EXPECT_EQ(At(r.config, "training.cross_entropy_fusion"), true);
  const ImportResult te = MustImport({{"run.sh", Script("--cross-entropy-loss-fusion "
                                                        "--cross-entropy-fusion-impl te")}});
  EXPECT_EQ(te.config["training"].count("cross_entropy_fusion"), 0u);
}

// The native fused cross-entropy's backward holds one more fp32 [tokens, V/tp] copy: Llama 3 8B,
// TP 8, one sequence of 2048: 4 × 2048 × 128256 / 8 = 131,334,144 bytes more logits and loss.
TEST(MegatronCiRules, FusedCrossEntropyHoldsOneMoreFp32Logits) {
  const Config base =
      With(MustParse(R"({"model": "llama3-8b", "device": "h100-80gb"})"),
           {{"fw", "megatron"}, {"ws", "8"}, {"tp", "8"}, {"b", "1"}, {"s", "2048"}});
  Config fused = base;
  fused.training.cross_entropy_fusion = true;
  const std::int64_t without = EstimateMemory(base).stages.back().activations.logits_and_loss;
  const std::int64_t with = EstimateMemory(fused).stages.back().activations.logits_and_loss;
  EXPECT_EQ(with - without, 131'334'144);
}

// TE's grouped GEMM for the experts adds one workspace per compute stream (4): 4 × (32 MiB +
// 1 KiB) = 134,221,824 on top of the 100,664,320 every Megatron job on an H100 has.
TEST(MegatronCiRules, GroupedGemmWorkspacesPerComputeStream) {
  Config moe = With(MustParse(R"({"model": "qwen3-30b-a3b", "device": "h100-80gb"})"),
                    {{"fw", "megatron"}, {"ws", "8"}, {"ep", "8"}, {"b", "1"}});
  EXPECT_EQ(EstimateMemory(moe).stages[0].temporary.workspaces, 100'664'320);
  moe.training.moe_grouped_gemm = true;
  EXPECT_EQ(EstimateMemory(moe).stages[0].temporary.workspaces, 100'664'320 + 134'221'824);
}

}  // namespace
}  // namespace trainmem::testing
