// Megatron-LM / MindSpeed-LLM / DeepSpeed physics and rules, context parallelism, the first
// iteration, swap_optimizer, and how right an estimate says it is. Every expected value is
// derived by hand in the comment above it from the cited source's rule, using the estimate's
// own parameter counts (counting is model_test.cpp's business).
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/config/config.h"
#include "core/estimate/accuracy.h"
#include "core/estimate/estimate.h"
#include "core/link/share_link.h"
#include "core/report/report.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;

double D(std::int64_t v) { return static_cast<double>(v); }

bool HasWarning(const Estimate& e, const std::string& text) {
  for (const std::string& w : e.warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

bool Rejects(const std::string& json, const std::string& path) {
  Result<Config> r = ParseConfig(json, testing::TestPresets());
  if (r.ok()) return false;
  for (const Error& e : r.errors()) {
    if (e.path == path) return true;
  }
  return false;
}

// ---- Megatron: fewer KV heads than TP ranks -------------------------------------------------

// Megatron-Core (attention.py, NVIDIA/Megatron-LM#2565) runs tp above the KV head count when tp
// is a multiple of it: each rank gathers its group's QKV activations and keeps one KV head and
// heads / tp query heads. torchtitan shards wk / wv by head and rejects it. A Llama-shaped model
// of 32 heads × 128 with 2 KV heads at tp 4 therefore holds exactly the activations of the same
// model with 4 KV heads (one KV head a rank either way); only the k/v weights differ.
TEST(MegatronTp, MoreRanksThanKvHeadsKeepOneKvHeadARank) {
  const std::string base = R"({"model": {"model_type": "llama", "hidden_size": 4096,
      "num_hidden_layers": 8, "num_attention_heads": 32, "num_key_value_heads": KV,
      "intermediate_size": 11008, "vocab_size": 32000}, "world_size": 4,
      "framework": "FW", "training": {"local_batch_size": 1, "seq_len": 4096},
      "parallelism": {"tensor_parallel_degree": 4, "data_parallel_shard_degree": 1}})";
  auto config = [&](const std::string& kv, const std::string& fw) {
    std::string j = base;
    j.replace(j.find("KV"), 2, kv);
    j.replace(j.find("FW"), 2, fw);
    return j;
  };
  EXPECT_TRUE(Rejects(config("2", "torchtitan"), "parallelism.tensor_parallel_degree"));
  // tp 8 is not a multiple of 3 KV heads (24 query heads): rejected by Megatron too.
  EXPECT_TRUE(Rejects(R"({"model": {"model_type": "llama", "hidden_size": 3072,
      "num_hidden_layers": 8, "num_attention_heads": 24, "num_key_value_heads": 3,
      "intermediate_size": 8192, "vocab_size": 32000}, "world_size": 8, "framework": "megatron",
      "parallelism": {"tensor_parallel_degree": 8, "data_parallel_shard_degree": 1}})",
                      "parallelism.tensor_parallel_degree"));
  const Estimate two = EstimateMemory(MustParse(config("2", "megatron")));
  const Estimate four = EstimateMemory(MustParse(config("4", "megatron")));
  EXPECT_EQ(two.stages[0].bytes.activations, four.stages[0].bytes.activations);
  EXPECT_GT(two.stages[0].bytes.activations, 0);
  EXPECT_LT(two.params.total, four.params.total);
}

// ---- 1. DeepSpeed MoE: expert states over the expert-data-parallel group -------------------

// Mixtral 8x7B, ZeRO-1, 8 ranks, ep = 8 (deepspeed/utils/groups.py: expert-DP = dp / ep = 1).
// Each rank holds 1/8 of the routed experts and all their optimizer state (nobody else has a
// copy to shard with); dense states are sharded over all 8. Mixed-precision Adam keeps 12 bytes
// per parameter in the optimizer (fp32 master + m + v), so
//   optimizer_states = 12 · (dense / 8 + (expert / 8) / 1).
TEST(DeepspeedMoe, ExpertStatesShardOverExpertDataParallel) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "mixtral-8x7b", "world_size": 8,
      "framework": "deepspeed", "training": {"local_batch_size": 1, "seq_len": 1024},
      "parallelism": {"expert_parallel_degree": 8, "zero_stage": 1}})"));
  ASSERT_EQ(e.stages.size(), 1u);
  const double expected = 12.0 * (D(e.params.dense) / 8 + D(e.params.expert) / 8);
  EXPECT_NEAR(D(e.stages[0].bytes.optimizer_states), expected, 4.0);
  // ZeRO-3 shards the bf16 parameters the same way: 2 · (dense / 8 + expert / 8).
  const Estimate z3 = EstimateMemory(MustParse(R"({"model": "mixtral-8x7b", "world_size": 8,
      "framework": "deepspeed", "training": {"local_batch_size": 1, "seq_len": 1024},
      "parallelism": {"expert_parallel_degree": 8, "zero_stage": 3}})"));
  EXPECT_NEAR(D(z3.stages[0].bytes.parameters),
              2.0 * (D(z3.params.dense) / 8 + D(z3.params.expert) / 8), 4.0);
}

// ---- 2. Megatron selective recompute = core attention --------------------------------------

// Megatron with unfused attention, dropout 0, one device. Selective recompute drops exactly
// the softmax output per layer: heads · seq (bf16, 2 bytes) per token, whatever
// selective_ac_option says (a torchtitan key). llama3.2-1b: 32 heads, 16 layers; b = 1,
// s = 1024, so saved_layers(none) − saved_layers(selective) = 16 · 1024 · 32 · 1024 · 2.
TEST(MegatronSelective, RecomputesCoreAttentionWhateverTheOption) {
  const std::string base = R"({"model": "llama3.2-1b", "framework": "megatron",
      "training": {"local_batch_size": 1, "seq_len": 1024, "attention": "eager",
                   "dropout": 0},
      "activation_checkpoint": {"mode": ")";
  const Estimate none = EstimateMemory(MustParse(base + R"(none"}})"));
  const Estimate every2 =
      EstimateMemory(MustParse(base + R"(selective", "selective_ac_option": "2"}})"));
  const Estimate op =
      EstimateMemory(MustParse(base + R"(selective", "selective_ac_option": "op"}})"));
  const double scores = 16.0 * 1024 * 32 * 1024 * 2;
  EXPECT_NEAR(
      D(none.stages[0].activations.saved_layers - every2.stages[0].activations.saved_layers),
      scores, 16.0);
  EXPECT_EQ(every2.stages[0].activations.saved_layers, op.stages[0].activations.saved_layers);
}

// ---- 3. Context parallelism ----------------------------------------------------------------

// DeepSpeed-Ulysses (cp = 2, full recompute off): the attention output is kept both before the
// reverse all-to-all (flash backward) and after it (o_proj input): one more q-sized bf16 tensor
// per token per layer. llama3-8b: 32 heads × 128 = 4096 → +8192 bytes per token per layer.
// With cp = 16 > 8 key/value heads, k and v are repeated up to 16 heads: (16 − 8) · 2 · 128
// more elements per token, 4096 bytes.
TEST(ContextParallel, UlyssesKeepsOutputsOnBothSidesOfTheAllToAll) {
  auto per_token = [](int cp) {
    const Estimate e = EstimateMemory(MustParse(
        R"({"model": "llama3-8b", "framework": "deepspeed", "world_size": )" + std::to_string(cp) +
        R"(, "training": {"local_batch_size": 1, "seq_len": 8192},
             "activation_checkpoint": {"mode": "none"},
             "parallelism": {"context_parallel_degree": )" +
        std::to_string(cp) + "}}"));
    return e.stages[0].activations.bytes_per_token_per_layer;
  };
  EXPECT_NEAR(per_token(2) - per_token(1), 8192.0, 0.01);
  EXPECT_NEAR(per_token(16) - per_token(1), 8192.0 + 4096.0, 0.01);
}

// Ring attention (Megatron, TransformerEngine p2p), llama3-8b, cp = 8, no recompute: the largest
// per-token transient is the attention layer's forward. Its plain part is bf16 q, k, v
// (4096 + 1024 + 1024) plus two hidden-sized gradients, 2 · (6144 + 2 · 4096) = 28672 bytes;
// the ring adds two KV blocks in flight, 2 · 2 · 2048 = 8192, and every step's partial output
// and LSE, 8 · (2 · 4096 + 4 · 32) = 66560 (backward's 2 · (KV + dKV) + dQ = 24576 is smaller).
// Total 103424 bytes per token, over b · s / cp = 1024 local tokens; the gated MLP's working
// set (2 · (3 · 14336 + 2 · 4096) = 102400) is smaller.
TEST(ContextParallel, RingKeepsEveryStepsPartialOutput) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework": "megatron",
      "world_size": 8, "training": {"local_batch_size": 1, "seq_len": 8192, "dropout": 0},
      "activation_checkpoint": {"mode": "none"},
      "parallelism": {"context_parallel_degree": 8}})"));
  EXPECT_EQ(e.stages[0].activations.recompute_layer, 103424LL * 1024);
}

// ---- 4. swap_optimizer ---------------------------------------------------------------------

// MindSpeed's SwapDistributedOptimizer keeps the fp32 master shard, exp_avg and exp_avg_sq on
// the host: 12 bytes per parameter of the rank's shard (dp = 8, zero_stage 1 → P / 8). None
// stay on the device; one 1/16 slice comes back during the step.
TEST(SwapOptimizer, MegatronMovesMasterAndMoments) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework": "megatron",
      "world_size": 8, "training": {"local_batch_size": 1, "seq_len": 1024},
      "parallelism": {"zero_stage": 1},
      "optimizer": {"swap_optimizer": true, "swap_optimizer_times": 16}})"));
  const double shard = D(e.params.total) / 8;
  EXPECT_NEAR(D(e.host_optimizer_bytes), 12.0 * shard, 16.0);
  EXPECT_EQ(e.stages[0].bytes.optimizer_states, 0);
}

// torchtitan-npu's swap optimizer moves exp_avg and exp_avg_sq only: 8 bytes per parameter of
// the FSDP shard (dp_shard = 8); the fp32 sharded parameters stay on the device.
TEST(SwapOptimizer, TorchtitanNpuMovesMomentsOnly) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b",
      "framework": "torchtitan-npu", "device": "ascend-910b", "world_size": 8,
      "training": {"local_batch_size": 1, "seq_len": 1024},
      "optimizer": {"swap_optimizer": true}})"));
  EXPECT_NEAR(D(e.host_optimizer_bytes), 8.0 * D(e.params.total) / 8, 16.0);
  EXPECT_NEAR(D(e.stages[0].bytes.parameters), 4.0 * D(e.params.total) / 8, 16.0);
}

// DeepSpeed and torchtune have no swap_optimizer: the estimate says so and is unchanged.
TEST(SwapOptimizer, DeepspeedAndTorchtuneWarnInsteadOfIgnoring) {
  for (const char* fw : {"deepspeed", "torchtune"}) {
    const std::string base = std::string(R"({"model": "llama3.2-1b", "framework": ")") + fw +
                             R"(", "training": {"local_batch_size": 1, "seq_len": 1024},
                              "optimizer": {"swap_optimizer": )";
    const Estimate on = EstimateMemory(MustParse(base + "true}}"));
    const Estimate off = EstimateMemory(MustParse(base + "false}}"));
    EXPECT_TRUE(HasWarning(on, "swap_optimizer has no effect")) << fw;
    EXPECT_FALSE(HasWarning(off, "swap_optimizer has no effect")) << fw;
    EXPECT_EQ(on.per_device.total, off.per_device.total) << fw;
    EXPECT_EQ(on.host_optimizer_bytes, 0) << fw;
  }
}

// ---- DeepSpeed TP has no sequence parallelism ----------------------------------------------

// Full recompute keeps each block's input only: bf16 hidden per token. Megatron with
// --sequence-parallel shards it over tp = 2 (4096 · 2 / 2 = 4096 bytes); DeepSpeed's AutoTP
// replicates it (8192 bytes), whatever sequence_parallel says.
TEST(DeepspeedTp, BlockInputsAreReplicatedOverTp) {
  auto per_token = [](const char* fw) {
    const Estimate e = EstimateMemory(
        MustParse(std::string(R"({"model": "llama3-8b", "world_size": 2, "framework": ")") + fw +
                  R"(", "training": {"local_batch_size": 1, "seq_len": 1024},
             "activation_checkpoint": {"mode": "full"},
             "parallelism": {"tensor_parallel_degree": 2, "sequence_parallel": true}})"));
    return e.stages[0].activations.bytes_per_token_per_layer;
  };
  EXPECT_NEAR(per_token("megatron"), 4096.0, 0.01);
  EXPECT_NEAR(per_token("deepspeed"), 8192.0, 0.01);
}

// ---- 5. The first iteration (MindSpeed-LLM's CI metric) ------------------------------------

// Megatron, one device, bf16, b = 1, s = 128 (activations are small next to the states). The
// first iteration's forward and backward run without exp_avg / exp_avg_sq (created by the first
// step), so its peak is the step: bf16 params 2 + fp32 main grads 4 + fp32 master 4 + m, v 8 =
// 18 bytes per parameter, plus the step's fp32 temporary of the largest tensor, llama3-8b's
// 128256 × 4096 embedding (4 bytes each), plus the GEMM workspaces on the default H100 (two
// PyTorch cuBLAS workspaces and Transformer Engine's: 3 × 32 MiB + 1 KiB = 100,664,320 bytes).
constexpr double kH100GemmWorkspaces = 3.0 * 33554432.0 + 1024.0;
TEST(FirstIteration, PeakIsTheStepWithStatesCreatedByIt) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework": "megatron",
      "training": {"local_batch_size": 1, "seq_len": 128}})"));
  const MemoryBreakdown& m = e.stages[0].bytes;
  const double expected = 18.0 * D(e.params.total) + 4.0 * 128256.0 * 4096.0 + kH100GemmWorkspaces;
  EXPECT_NEAR(D(m.first_iteration_peak_allocated), expected, 64.0);
  // Here activations are small, so every later iteration peaks at the step too.
  EXPECT_EQ(m.peak_allocated, m.first_iteration_peak_allocated);
  // With b = 8, s = 4096 the steady-state peak is backward with m and v resident, above the
  // first iteration's.
  const Estimate big = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework":
      "megatron", "training": {"local_batch_size": 8, "seq_len": 4096}})"));
  EXPECT_GT(big.stages[0].bytes.peak_allocated, big.stages[0].bytes.first_iteration_peak_allocated);
}

// fp16: Megatron keeps the gradient buffer in fp16 (accumulate_allreduce_grads_in_fp32 is forced
// for bf16 only) and gives each fp32 master its `.float()` gradient for the step: 2 + 2 + 4 + 8
// + 4 = 20 bytes per parameter, plus the largest tensor's fp32 temporary and the workspaces.
TEST(FirstIteration, Fp16KeepsHalfGradientsAndAnFp32CopyForTheStep) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework": "megatron",
      "training": {"local_batch_size": 1, "seq_len": 128, "mixed_precision_param": "float16"}})"));
  const double expected = 20.0 * D(e.params.total) + 4.0 * 128256.0 * 4096.0 + kH100GemmWorkspaces;
  EXPECT_NEAR(D(e.stages[0].bytes.first_iteration_peak_allocated), expected, 64.0);
  EXPECT_NEAR(D(e.stages[0].bytes.gradients), 2.0 * D(e.params.total), 4.0);
}

// The distributed optimizer (zero_stage 1) over 8 data-parallel ranks: each rank steps its fp32
// shards, 1/8 of every tensor, so the step's temporary is 1/8 of the embedding in fp32. Per
// parameter: bf16 params 2 + fp32 grads 4 on every rank, fp32 master 4 + m, v 8 over 8 ranks.
TEST(FirstIteration, DistributedOptimizerStepsShardsOfEachTensor) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework": "megatron",
      "world_size": 8, "parallelism": {"zero_stage": 1},
      "training": {"local_batch_size": 1, "seq_len": 128}})"));
  const double p = D(e.params.total);
  const double expected =
      6.0 * p + 12.0 * p / 8.0 + 4.0 * 128256.0 * 4096.0 / 8.0 + kH100GemmWorkspaces;
  EXPECT_NEAR(D(e.stages[0].bytes.first_iteration_peak_allocated), expected, 64.0);
}

// ---- MTP on the last stage ----------------------------------------------------------------

// Megatron MTP (multi_token_prediction.py): each of the model's MTP depths computes its own
// logits and loss with the shared head, so the last stage holds (1 + depths) of them at the
// start of backward. DeepSeek-V3 has one depth: twice the loss term of the same run without MTP.
TEST(Mtp, EachDepthAddsALossAndABlock) {
  const std::string base = R"({"model": "deepseek-v3", "framework": "megatron",
      "world_size": 64, "training": {"local_batch_size": 1, "seq_len": 1024, "mtp": )";
  const std::string rest = R"(}, "parallelism": {"pipeline_parallel_degree": 8,
      "expert_parallel_degree": 8}})";
  const Estimate with = EstimateMemory(MustParse(base + "true" + rest));
  const Estimate without = EstimateMemory(MustParse(base + "false" + rest));
  const ActivationBreakdown& a = with.stages.back().activations;
  const ActivationBreakdown& b = without.stages.back().activations;
  EXPECT_NEAR(D(a.logits_and_loss), 2.0 * D(b.logits_and_loss), 2.0);
  EXPECT_GT(a.saved_layers, b.saved_layers);  // one more block's activations
  EXPECT_EQ(with.stages.front().activations.saved_layers,
            without.stages.front().activations.saved_layers);
}

// ---- 6. Framework rules --------------------------------------------------------------------

// Megatron's MoE parallel folding: ETP = 2 with TP = 4 is a valid Megatron layout (expert layers
// use etp·ep·edp·pp = 2·2·2·1 = 8 ranks); torchtitan requires etp ∈ {1, tp}.
TEST(FrameworkRules, MegatronFoldsExpertParallelism) {
  const std::string layout = R"(, "model": "mixtral-8x7b", "world_size": 8,
      "parallelism": {"tensor_parallel_degree": 4, "expert_tensor_parallel_degree": 2,
                      "expert_parallel_degree": 2}})";
  EXPECT_TRUE(ParseConfig(R"({"framework": "megatron")" + layout, testing::TestPresets()).ok());
  EXPECT_TRUE(Rejects(R"({"framework": "torchtitan")" + layout,
                      "parallelism.expert_tensor_parallel_degree"));
  // etp·ep·pp = 4·4·1 = 16 does not divide 8 ranks.
  EXPECT_TRUE(Rejects(R"({"framework": "megatron", "model": "mixtral-8x7b", "world_size": 8,
      "parallelism": {"tensor_parallel_degree": 2, "expert_tensor_parallel_degree": 4,
                      "expert_parallel_degree": 4}})",
                      "parallelism.expert_parallel_degree"));
  // The expert shard follows etp, not tp: bf16 experts / (ep · etp). From etp = 1 to etp = 2
  // (ep = 2) a rank's routed experts go from 1/2 to 1/4: 2 · expert / 4 bytes fewer.
  auto params = [](int etp) {
    return EstimateMemory(MustParse(R"({"framework": "megatron", "model": "mixtral-8x7b",
        "world_size": 8, "parallelism": {"tensor_parallel_degree": 4,
        "expert_tensor_parallel_degree": )" +
                                    std::to_string(etp) + R"(, "expert_parallel_degree": 2}})"));
  };
  const Estimate one = params(1), two = params(2);
  EXPECT_NEAR(D(one.stages[0].bytes.parameters - two.stages[0].bytes.parameters),
              2.0 * D(one.params.expert) / 4, 4.0);
}

// DeepSpeed carves expert-parallel groups out of the data-parallel ranks: ep | dp·cp.
TEST(FrameworkRules, DeepspeedExpertGroupsComeFromDataParallel) {
  EXPECT_TRUE(Rejects(R"({"framework": "deepspeed", "model": "mixtral-8x7b", "world_size": 8,
      "parallelism": {"tensor_parallel_degree": 4, "expert_parallel_degree": 4}})",
                      "parallelism.expert_parallel_degree"));
  EXPECT_TRUE(ParseConfig(R"({"framework": "deepspeed", "model": "mixtral-8x7b", "world_size": 8,
      "parallelism": {"tensor_parallel_degree": 4, "expert_parallel_degree": 2}})",
                          testing::TestPresets())
                  .ok());
}

// Megatron / MindSpeed have one data-parallel group: written as dp_replicate or as dp_shard, the
// distributed optimizer shards over the same 8 ranks.
TEST(FrameworkRules, MegatronDataParallelIsOneGroup) {
  auto states = [](const char* key) {
    return EstimateMemory(MustParse(std::string(R"({"model": "llama3-8b", "framework":
        "megatron", "world_size": 8, "training": {"local_batch_size": 1, "seq_len": 1024},
        "parallelism": {"zero_stage": 1, "data_parallel_shard_degree": )") +
                                    (std::string(key) == "shard" ? "8" : "1") +
                                    R"(, "data_parallel_replicate_degree": )" +
                                    (std::string(key) == "shard" ? "1" : "8") + "}}"))
        .per_device.optimizer_states;
  };
  EXPECT_EQ(states("shard"), states("replicate"));
}

// --num-layer-list: uneven pipeline splits, one entry per pipeline rank, adding up to the model.
TEST(FrameworkRules, PipelineLayerList) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework": "megatron",
      "world_size": 4, "training": {"local_batch_size": 4, "seq_len": 1024},
      "parallelism": {"pipeline_parallel_degree": 4,
                      "pipeline_parallel_layer_list": [6, 10, 10, 6]}})"));
  ASSERT_EQ(e.stages.size(), 4u);
  EXPECT_EQ(e.stages[0].num_layers, 6);
  EXPECT_EQ(e.stages[1].first_layer, 6);
  EXPECT_EQ(e.stages[3].num_layers, 6);
  EXPECT_TRUE(Rejects(R"({"model": "llama3-8b", "world_size": 4,
      "parallelism": {"pipeline_parallel_degree": 4,
                      "pipeline_parallel_layer_list": [8, 8, 8]}})",
                      "parallelism.pipeline_parallel_layer_list"));
  EXPECT_TRUE(Rejects(R"({"model": "llama3-8b", "world_size": 4,
      "parallelism": {"pipeline_parallel_degree": 4,
                      "pipeline_parallel_layer_list": [8, 8, 8, 9]}})",
                      "parallelism.pipeline_parallel_layer_list"));
  EXPECT_TRUE(Rejects(R"({"model": "llama3-8b", "world_size": 4,
      "parallelism": {"pipeline_parallel_degree": 4,
                      "pipeline_parallel_layer_list": [8, -1, 8, 17]}})",
                      "parallelism.pipeline_parallel_layer_list[1]"));
  // The list survives the JSON round trip.
  const Config back = ConfigFromJson(ConfigToJson(e.config), testing::TestPresets()).value();
  EXPECT_EQ(back.parallelism.pp_layer_list, (std::vector<std::int64_t>{6, 10, 10, 6}));
}

// Megatron asserts num_layers % pp == 0 without a stated first/last stage
// (transformer_block.py get_num_layers_to_build): 32 layers over 3 stages is said, 32 over 4
// is not, a layer list silences it, and torchtitan (which splits unevenly itself) is not told.
TEST(FrameworkRules, MegatronUnevenPipelineSplitIsSaid) {
  const auto warned = [](const std::string& fw, const std::string& pp, const std::string& list) {
    const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework": ")" + fw +
                                                R"(", "world_size": 12, "parallelism": {
        "pipeline_parallel_degree": )" + pp + list +
                                                "}}"));
    EXPECT_GT(e.per_device.total, 0);
    return HasWarning(e, "layers do not divide into");
  };
  EXPECT_TRUE(warned("megatron", "3", ""));
  EXPECT_FALSE(warned("megatron", "4", ""));
  EXPECT_FALSE(warned("megatron", "3", R"(, "pipeline_parallel_layer_list": [10, 11, 11])"));
  EXPECT_FALSE(warned("torchtitan", "3", ""));
}

// ---- 7. Say how right it is ----------------------------------------------------------------

// total · (1 + band) ≤ usable fits; within the band on either side is close to the limit.
TEST(Verdict, CloseToTheLimitWithinTheBand) {
  EXPECT_EQ(VerdictFor(90, 100, 0.10, 0.10), Verdict::kFits);           // 99 ≤ 100
  EXPECT_EQ(VerdictFor(95, 100, 0.10, 0.10), Verdict::kCloseToLimit);   // 104.5 > 100 ≥ 95
  EXPECT_EQ(VerdictFor(105, 100, 0.10, 0.10), Verdict::kCloseToLimit);  // 94.5 ≤ 100 < 105
  EXPECT_EQ(VerdictFor(120, 100, 0.10, 0.10), Verdict::kDoesNotFit);    // 108 > 100
  EXPECT_EQ(VerdictFor(100, 100, 0, 0), Verdict::kFits);
  EXPECT_EQ(VerdictFor(101, 100, 0, 0), Verdict::kDoesNotFit);
  // One-sided bands: runs that came in up to 2% above and 30% below their estimates.
  EXPECT_EQ(VerdictFor(97, 100, 0.02, 0.30), Verdict::kFits);           // 98.94 ≤ 100
  EXPECT_EQ(VerdictFor(99, 100, 0.02, 0.30), Verdict::kCloseToLimit);   // 100.98 > 100
  EXPECT_EQ(VerdictFor(140, 100, 0.02, 0.30), Verdict::kCloseToLimit);  // 98 ≤ 100
  EXPECT_EQ(VerdictFor(145, 100, 0.02, 0.30), Verdict::kDoesNotFit);    // 101.5 > 100
  EXPECT_STREQ(VerdictName(Verdict::kCloseToLimit), "close to the limit");
}

TEST(ErrorBand, FollowsTheFamilyAndSaysHowManyRuns) {
  const Estimate mg = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework": "megatron",
      "device": "h100-80gb"})"));
  EXPECT_STREQ(mg.accuracy.family, "megatron");
  const Estimate ms = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework": "megatron",
      "device": "ascend-910b"})"));
  EXPECT_STREQ(ms.accuracy.family, "mindspeed");
  const Estimate ds = EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework":
      "deepspeed"})"));
  EXPECT_STREQ(ds.accuracy.family, "deepspeed");
  for (const Estimate* e : {&mg, &ms, &ds}) {
    const std::string text = ErrorBandText(e->accuracy);
    if (e->accuracy.runs > 0) {
      EXPECT_NE(text.find("measured peaks within"), std::string::npos) << text;
      EXPECT_GE(e->accuracy.band, e->accuracy.median);  // never below the median |error|
      EXPECT_GE(e->accuracy.below, e->accuracy.median);
      EXPECT_NE(text.find(std::to_string(e->accuracy.runs)), std::string::npos) << text;
      EXPECT_GT(e->accuracy.band, 0);
    } else {
      EXPECT_NE(text.find("no measured"), std::string::npos) << text;
      EXPECT_EQ(e->budget.error_band, 0);
    }
    EXPECT_EQ(e->budget.verdict, VerdictFor(e->per_device.total, e->budget.usable_bytes,
                                            e->accuracy.band, e->accuracy.below));
  }
  // The report carries the band and the verdict.
  const nlohmann::json j = EstimateToJson(ms);
  EXPECT_EQ(j["accuracy"]["family"], "mindspeed");
  EXPECT_EQ(j["accuracy"]["runs"], ms.accuracy.runs);
  EXPECT_TRUE(j["budget"]["verdict"].is_string());
  EXPECT_TRUE(j["per_device_bytes"]["first_iteration_peak_allocated"].is_number_integer());
}

// torchtitan's pipeline split (distributed/pipeline_parallel.py): the embedding and the output
// weigh one layer each. A 6-layer model on PP 4 with Interleaved1F1B runs 8 virtual stages of
// (6 + 2) / 8 = 1 slot: stage 0 is the embedding alone, stage 7 the output alone, so ranks hold
// stages {0, 4}, {1, 5}, {2, 6}, {3, 7}: 1, 2, 2, 1 layers. Valid in torchtitan (its
// debugmodel runs so); refused before as "6 layers cannot fill 8 stages".
TEST(FrameworkRules, TorchtitanStagesMayHoldOnlyTheEmbeddingOrTheOutput) {
  const PipelineSplit split = TorchtitanPipelineSplit(6, 4, PpSchedule::kInterleaved1F1B, 0);
  EXPECT_TRUE(split.error.empty()) << split.error;
  EXPECT_EQ(split.stage_layers, (std::vector<std::int64_t>{0, 1, 1, 1, 1, 1, 1, 0}));
  EXPECT_EQ(split.rank_layers, (std::vector<std::int64_t>{1, 2, 2, 1}));
  const Estimate e = EstimateMemory(MustParse(R"({"framework": "torchtitan", "world_size": 4,
      "model": {"hidden_size": 256, "num_hidden_layers": 6, "num_attention_heads": 16,
                "num_key_value_heads": 16, "intermediate_size": 768, "vocab_size": 2000,
                "model_type": "llama"},
      "training": {"local_batch_size": 8, "seq_len": 2048},
      "parallelism": {"pipeline_parallel_degree": 4,
                      "pipeline_parallel_schedule": "Interleaved1F1B"}})"));
  ASSERT_EQ(e.stages.size(), 4u);
  EXPECT_EQ(e.stages[0].num_layers, 1);
  EXPECT_EQ(e.stages[1].num_layers, 2);
  EXPECT_EQ(e.stages[3].num_layers, 1);
  // ZBVZeroBubble's V: rank r holds stages r and 7 − r: {0, 7}, {1, 6}, {2, 5}, {3, 4}.
  EXPECT_EQ(TorchtitanPipelineSplit(6, 4, PpSchedule::kZeroBubble, 0).rank_layers,
            (std::vector<std::int64_t>{0, 2, 2, 2}));
  // layers_per_stage counts the embedding and output too: Llama 3 8B at 4 per stage is
  // ceil(34 / 4) = 9 stages, which 4 ranks cannot share (torchtitan refuses it); at 17, 2 stages
  // of 1F1B over PP 2.
  EXPECT_TRUE(Rejects(R"({"model": "llama3-8b", "world_size": 4,
      "parallelism": {"pipeline_parallel_degree": 4, "pipeline_parallel_schedule": "Interleaved1F1B",
                      "pipeline_parallel_layers_per_stage": 4}})",
                      "parallelism.pipeline_parallel_layers_per_stage"));
  EXPECT_TRUE(TorchtitanPipelineSplit(32, 2, PpSchedule::k1F1B, 17).error.empty());
}

}  // namespace
}  // namespace trainmem
