// Megatron-LM rules found by scoring trainmem on Megatron-LM's functional-test memory figures
// (tests/data/megatron_ci.jsonl, built by tools/megatron_ci_rows.py): the importer's defaults
// and the GEMM workspaces every Megatron job on a GPU allocates.
#include <gtest/gtest.h>

#include "core/estimate/estimate.h"
#include "core/report/report.h"
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
  // The embedding and the loss counted as layers make 18 slots, which 8 virtual stages cannot
  // share (Megatron refuses it): kept as 1F1B (and said so) rather than refused.
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

// The same split with 2 virtual stages per rank: each rank's count is cut into its 2 stages
// (get_num_layers_to_build), [2, 6, 6, 2] with virtual stages of up to 3 layers. Refused before.
TEST(MegatronCiRules, UnevenFirstAndLastStagesWithVirtualStages) {
  const ImportResult r = MustImport({{"run.sh", Script("--pipeline-model-parallel-size 4 "
                                                       "--num-virtual-stages-per-pipeline-rank 2 "
                                                       "--decoder-first-pipeline-num-layers 2 "
                                                       "--decoder-last-pipeline-num-layers 2")}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_layer_list"),
            nlohmann::json::array({2, 6, 6, 2}));
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_schedule"), "Interleaved1F1B");
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_layers_per_stage"), 3);
}

// Selective recompute is core attention unless --recompute-modules names the modules (as
// words or as Megatron-Bridge's "[a b]" string).
TEST(MegatronCiRules, RecomputeModulesAreRead) {
  const ImportResult core = MustImport(
      {{"run.sh", Script("--recompute-granularity selective --recompute-modules core_attn")}});
  EXPECT_EQ(At(core.config, "activation_checkpoint.mode"), "selective");
  EXPECT_EQ(At(core.config, "activation_checkpoint.recompute_modules"),
            nlohmann::json::array({"core_attn"}));
  const ImportResult other = MustImport(
      {{"run.sh", Script("--recompute-granularity selective --recompute-modules layernorm mlp")}});
  EXPECT_EQ(At(other.config, "activation_checkpoint.mode"), "selective");
  EXPECT_EQ(At(other.config, "activation_checkpoint.recompute_modules"),
            nlohmann::json::array({"layernorm", "mlp"}));
  const ImportResult listed = MustImport({{"run.sh", Script("--recompute-granularity selective "
                                                            "--recompute-modules \"[moe_act "
                                                            "mla_up_proj]\"")}});
  EXPECT_EQ(At(listed.config, "activation_checkpoint.recompute_modules"),
            nlohmann::json::array({"moe_act", "mla_up_proj"}));
}

// What each module drops per token per layer, Llama 3 8B on one GPU (h 4096, I 14336, bf16,
// flash attention, no sequence parallelism to split by): layernorm the two norms' outputs,
// 2 × 2 × 4096 = 16,384 B; mlp the fused SwiGLU's saved [gate, up] output and fc2's input,
// 3 × 2 × 14336 = 86,016 B. Listing core_attn changes nothing with flash attention (no scores).
TEST(MegatronCiRules, RecomputeModulesDropTheirSavedTensors) {
  const Config base = With(MustParse(R"({"model": "llama3-8b", "device": "h100-80gb",
      "framework": "megatron", "training": {"dropout": 0.0}})"),
                           {{"b", "1"}, {"s", "1024"}, {"ac", "selective"}});
  auto per_token = [](const Config& c) {
    return EstimateMemory(c).stages.front().activations.bytes_per_token_per_layer;
  };
  const double core = per_token(base);
  auto with_modules = [&](const char* list) {
    nlohmann::json j = ConfigToJson(base);
    j["activation_checkpoint"]["recompute_modules"] = nlohmann::json::parse(list);
    return MustParse(j.dump());
  };
  EXPECT_DOUBLE_EQ(per_token(with_modules(R"(["core_attn"])")), core);
  EXPECT_DOUBLE_EQ(core - per_token(with_modules(R"(["core_attn", "layernorm"])")), 16384.0);
  EXPECT_DOUBLE_EQ(core - per_token(with_modules(R"(["mlp"])")), 86016.0);
  EXPECT_FALSE(
      ParseConfig(R"({"activation_checkpoint": {"recompute_modules": ["attn"]}})", TestPresets())
          .ok());
}

// --recompute-method block --recompute-num-layers N (transformer_block.py _checkpointed_forward):
// the first N blocks of each stage's chunk keep only their input, the others keep everything.
// Llama 3 8B (32 blocks) on PP 2 with 2 virtual stages: chunks of 8 blocks; N = 2 recomputes 2
// of every 8, so the blocks average 2/8 of full recompute's bytes and 6/8 of no recompute's.
TEST(MegatronCiRules, BlockRecomputeOfTheFirstBlocksOfEachChunk) {
  const Config base =
      With(MustParse(R"({"model": "llama3-8b", "device": "h100-80gb", "framework": "megatron",
          "parallelism": {"pipeline_parallel_schedule": "Interleaved1F1B",
                          "pipeline_parallel_layers_per_stage": 8}})"),
           {{"ws", "2"}, {"pp", "2"}, {"b", "4"}, {"mbs", "1"}, {"s", "1024"}, {"ac", "full"}});
  auto per_token = [](const Config& c) {
    return EstimateMemory(c).stages.front().activations.bytes_per_token_per_layer;
  };
  const double full = per_token(base);
  const double none = per_token(With(base, {{"ac", "none"}}));
  EXPECT_NEAR(per_token(With(base, {{"rnl", "2"}})), (2 * full + 6 * none) / 8, 1e-6);
  EXPECT_NEAR(per_token(With(base, {{"rnl", "8"}})), full, 1e-6);  // all of a chunk's blocks
  nlohmann::json too_many = ConfigToJson(base);
  too_many["activation_checkpoint"]["recompute_num_layers"] = 33;
  EXPECT_FALSE(ParseConfig(too_many.dump(), TestPresets()).ok());
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

// MindSpeed's --noop-layers: the listed slots hold no weights but keep their place in the split.
// 16 slots, PP 2, virtual stages of 2: chunk c (slots 2c, 2c + 1) is on rank c mod 2, so slot 1
// is on rank 0 and slot 15 on rank 1: 7 real layers each, 14 in the model.
TEST(MegatronCiRules, NoopLayersKeepTheirPipelineSlots) {
  const ImportResult vpp =
      MustImport({{"run.sh", Script("--pipeline-model-parallel-size 2 "
                                    "--num-layers-per-virtual-pipeline-stage 2 "
                                    "--noop-layers 1,15")}});
  ASSERT_TRUE(vpp.config_valid);
  EXPECT_EQ(At(vpp.config, "model.num_hidden_layers"), 14);
  EXPECT_EQ(At(vpp.config, "parallelism.pipeline_parallel_layer_list"),
            nlohmann::json::array({7, 7}));
  EXPECT_EQ(At(vpp.config, "parallelism.pipeline_parallel_layers_per_stage"), 2);
  // Even split: rank 0 has slots 0–7, rank 1 slots 8–15; four placeholders at the end: [8, 4].
  const ImportResult even = MustImport(
      {{"run.sh", Script("--pipeline-model-parallel-size 2 --noop-layers 12,13,14,15")}});
  ASSERT_TRUE(even.config_valid);
  EXPECT_EQ(At(even.config, "parallelism.pipeline_parallel_layer_list"),
            nlohmann::json::array({8, 4}));
  // dualpipev: chunks of 4 slots in a V, rank 0 holds slots 0–3 and 12–15: [7, 8].
  const ImportResult v =
      MustImport({{"run.sh", Script("--pipeline-model-parallel-size 2 --schedules-method dualpipev "
                                    "--noop-layers 15")}});
  ASSERT_TRUE(v.config_valid);
  EXPECT_EQ(At(v.config, "parallelism.pipeline_parallel_layer_list"),
            nlohmann::json::array({7, 8}));
  // An index past the model is refused, as MindSpeed's argument check refuses it.
  const ImportResult bad = MustImport({{"run.sh", Script("--noop-layers 3,16")}});
  ASSERT_EQ(bad.report.problems.size(), 1u);
  EXPECT_NE(bad.report.problems[0].find("'16' is not a layer index"), std::string::npos);
  EXPECT_EQ(At(bad.config, "model.num_hidden_layers"), 16);
  // A model past the estimate's bounds gets no per-slot walk (the config check names the size).
  const ImportResult huge =
      MustImport({{"run.sh",
                   "torchrun pretrain_gpt.py --num-layers 9223372036854775807 --hidden-size 8 "
                   "--num-attention-heads 1 --pipeline-model-parallel-size 2 --noop-layers 5\n"}});
  EXPECT_EQ(huge.config["parallelism"].count("pipeline_parallel_layer_list"), 0u);
}

// A rank whose slots are all placeholders holds no blocks: the estimate has its head (and MTP)
// and the text report says "none" rather than a backwards layer range.
TEST(MegatronCiRules, RankWithOnlyPlaceholdersHasNoBlocks) {
  const ImportResult r = MustImport(
      {{"run.sh", Script("--pipeline-model-parallel-size 2 --noop-layers 8,9,10,11,12,13,14,15")}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_layer_list"),
            nlohmann::json::array({8, 0}));
  const Estimate e = EstimateMemory(MustParse(r.config.dump()));
  ASSERT_EQ(e.stages.size(), 2u);
  EXPECT_EQ(e.stages[1].num_layers, 0);
  EXPECT_TRUE(e.stages[1].has_head);
  const std::string text = EstimateToText(e);
  EXPECT_NE(text.find("stage 1   layers    none"), std::string::npos) << text;
  EXPECT_EQ(text.find("8-7"), std::string::npos) << text;
}

// MindSpeed's --num-layer-list: one count per pipeline rank, summing to --num-layers.
TEST(MegatronCiRules, NumLayerListIsThePipelineSplit) {
  const ImportResult r =
      MustImport({{"run.sh", Script("--pipeline-model-parallel-size 4 --num-layer-list 1,7,7,1")}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(At(r.config, "parallelism.pipeline_parallel_layer_list"),
            nlohmann::json::array({1, 7, 7, 1}));
  // A list that does not add up to the model is named and the even split kept.
  const ImportResult bad =
      MustImport({{"run.sh", Script("--pipeline-model-parallel-size 4 --num-layer-list 1,7,7,2")}});
  ASSERT_TRUE(bad.config_valid);
  EXPECT_EQ(bad.config["parallelism"].count("pipeline_parallel_layer_list"), 0u);
}

// Interleaved schedule whose virtual stages do not fill a rank evenly (a per-rank list, as
// placeholder layers make): 16 layers a rank in virtual stages of at most 5 are 4 chunks, the
// last one short, not 16 / 5 = 3. PP 2, 2 microbatches: the last rank warms up (4 − 1) × 2 = 6
// chunk-microbatches and runs one more. Its short stage is its last (placeholders sit at the
// model's end): chunks of 5, 5, 5, 1 layers, run in the order 0, 0, 1, 1, 2, 2, 3 (two
// microbatches per chunk, PP = 2): 31 layers kept.
TEST(MegatronCiRules, ShortVirtualStagesCountAsWholeChunks) {
  const Config c = With(MustParse(R"({"model": "llama3-8b", "device": "h100-80gb",
      "framework": "megatron"})"),
                        {{"ws", "2"},
                         {"pp", "2"},
                         {"b", "2"},
                         {"s", "1024"},
                         {"parallelism.pipeline_parallel_schedule", "Interleaved1F1B"},
                         {"parallelism.pipeline_parallel_layer_list", "[16, 16]"},
                         {"parallelism.pipeline_parallel_layers_per_stage", "5"}});
  const Estimate e = EstimateMemory(c);
  ASSERT_EQ(e.stages.size(), 2u);
  EXPECT_EQ(e.stages[1].activations.layers_kept, 31);
}

// MTP on the last pipeline stage embeds the next tokens there: Megatron builds a second word
// embedding on that stage (gpt_model.py, pre_process or mtp_process). DeepSeek-V3, bf16, TP 1:
// turning MTP on adds the MTP block to the last stage at PP 1 and the block plus the 129,280 ×
// 7,168 table at PP 2: the difference of the two differences is 2 × 926,679,040 bytes.
TEST(MegatronCiRules, MtpStageKeepsItsOwnEmbedding) {
  auto last_stage_params = [](const std::string& pp, bool mtp) {
    Config c = With(MustParse(R"({"model": "deepseek-v3", "device": "h100-80gb",
        "framework": "megatron"})"),
                    {{"ws", "64"}, {"pp", pp}, {"ep", "32"}, {"b", "1"}, {"s", "1024"}});
    c.training.mtp = mtp;
    const Estimate e = EstimateMemory(c);
    EXPECT_FALSE(e.stages.empty());
    return e.stages.empty() ? 0 : e.stages.back().bytes.parameters;
  };
  const std::int64_t at_pp1 = last_stage_params("1", true) - last_stage_params("1", false);
  const std::int64_t at_pp2 = last_stage_params("2", true) - last_stage_params("2", false);
  EXPECT_GT(at_pp1, 0);
  EXPECT_EQ(at_pp2 - at_pp1, 2 * 926'679'040LL);
}

// --microbatch-group-size-per-virtual-pipeline-stage 5 with PP 4 (Megatron's CI case
// gpt3_mcore_te_tp1_pp4_vp1_tunable_overlap, whose peak is two layers above the default
// group's estimate). Llama 3 8B, 32 one-layer virtual stages: 8 chunks a rank, 10 microbatches.
// The last rank warms up (8 − 1) × 4 = 28 chunk-microbatches with the default group (PP) and
// (8 − 1) × 5 = 35 with 5, and runs one more: 29 and 36 layers kept.
TEST(MegatronCiRules, MicrobatchGroupSizeSetsTheInterleavedWarmup) {
  const ImportResult r =
      MustImport({{"run.sh", Script("--pipeline-model-parallel-size 4 "
                                    "--num-layers-per-virtual-pipeline-stage 1 "
                                    "--microbatch-group-size-per-virtual-pipeline-stage 5")}});
  ASSERT_TRUE(r.config_valid);
  EXPECT_EQ(At(r.config, "parallelism.microbatch_group_size_per_vp_stage"), 5);
  const Config c = With(MustParse(R"({"model": "llama3-8b", "device": "h100-80gb",
      "framework": "megatron"})"),
                        {{"ws", "4"},
                         {"pp", "4"},
                         {"b", "10"},
                         {"s", "1024"},
                         {"sched", "Interleaved1F1B"},
                         {"lps", "1"}});
  EXPECT_EQ(EstimateMemory(c).stages.back().activations.layers_kept, 29);
  EXPECT_EQ(EstimateMemory(With(c, {{"mbg", "5"}})).stages.back().activations.layers_kept, 36);
}

}  // namespace
}  // namespace trainmem::testing
