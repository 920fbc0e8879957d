// torchtitan / FSDP2 physics, each figure derived by hand from the framework's source.
// Llama 3 8B: h = 4096, L = 32, V = 128256, I = 14336, 8 KV heads of 128.
//   one block  = 4096² × 2 (wq, wo) + 4096 × 1024 × 2 (wk, wv) + 3 × 4096 × 14336 + 2 × 4096
//              = 218,112,000 parameters
//   embedding  = head = 128256 × 4096 = 525,336,576; final norm 4,096
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/model/presets.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;
using testing::TestPresets;
using testing::With;

constexpr std::int64_t kBlock = 218'112'000;
constexpr std::int64_t kHead = 525'336'576;

Config Llama(const std::vector<std::pair<std::string, std::string>>& settings) {
  return With(MustParse(R"({"model": "llama3-8b", "device": "h100-80gb"})"), settings);
}

// TP only (no dp_shard): torchtitan applies fully_shard at degree 1 to install the
// MixedPrecisionPolicy (parallelize.py "Always run apply_fsdp_to_decoder"): fp32 params on the
// device, bf16 gathered units at the start of backward. Per TP rank a block has
// (218,112,000 − 8,192) / 2 + 8,192 = 109,060,096 parameters; the head 262,668,288.
TEST(TorchtitanTest, TensorParallelOnlyKeepsFp32ParamsAndGathersBf16Units) {
  Estimate e = EstimateMemory(Llama({{"ws", "2"}, {"tp", "2"}, {"b", "1"}, {"s", "2048"}}));
  const std::int64_t block = 109'060'096;
  const std::int64_t head = 262'668'288;
  const std::int64_t local = 32 * block + 2 * head + 4096;
  EXPECT_EQ(e.per_device.parameters, local * 4);
  EXPECT_EQ(e.per_device.gradients, local * 4);
  // Two blocks (current + prefetch) and the [norm, lm_head] unit, in bf16.
  EXPECT_EQ(e.stages[0].temporary.gathered_params, (2 * block + head + 4096) * 2);
  // Vocab-parallel loss (_LossParallelCrossEntropy backward: saved fp32 log_probs, grad_input,
  // exp(log_probs) and their sum): 16 B × V/2 = 1,026,048 per token, plus the final norm's
  // saved tensors split by sequence parallel (torch's fused RMSNorm keeps the bf16 input and
  // the fp32 rstd: (2 × 4096 + 4) / 2 = 4,098) and the head's gathered bf16 input (8,192):
  // 1,038,338 B per token × 2048 tokens.
  EXPECT_EQ(e.stages[0].activations.logits_and_loss, 1'038'338LL * 2048);
}

// Pipeline parallel, reshard policy "default" = not pp: each stage's blocks and its embedding
// stay gathered in bf16, and gradient sync waits for the last microbatch, so FSDP2 accumulates
// the stage's unsharded gradients upcast to fp32, plus one block's fresh bf16 gradients.
// Stage 0 of 2: 16 blocks + embedding = 16 × 218,112,000 + 525,336,576 = 4,015,128,576.
TEST(TorchtitanTest, PipelineStageKeepsParamsGatheredAndFp32UnshardedGrads) {
  Config c = Llama({{"ws", "2"}, {"pp", "2"}, {"b", "4"}, {"mbs", "1"}, {"s", "2048"}});
  Estimate e = EstimateMemory(c);
  ASSERT_EQ(e.stages.size(), 2u);
  const std::int64_t stage0 = 16 * kBlock + kHead;
  EXPECT_EQ(e.stages[0].temporary.gathered_params, stage0 * 2);
  EXPECT_EQ(e.stages[0].temporary.unsharded_grads, stage0 * 4 + kBlock * 2);
  // "always" reshards every unit after forward, PP or not: two blocks; the embedding unit is
  // resharded too (stage 0 has no head unit).
  Estimate always = EstimateMemory(With(c, {{"reshard", "always"}}));
  EXPECT_EQ(always.stages[0].temporary.gathered_params, 2 * kBlock * 2);
}

// "never" without PP: nothing is resharded after forward, the whole model is gathered in bf16
// at the start of backward (8 ranks: the masters are still sharded 8 ways).
TEST(TorchtitanTest, NeverReshardKeepsTheWholeModelGathered) {
  Estimate e =
      EstimateMemory(Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"reshard", "never"}}));
  EXPECT_EQ(e.stages[0].temporary.gathered_params, (32 * kBlock + 2 * kHead + 4096) * 2);
}

// ChunkedLossWrapper disables the lm_head's gradient sync for all chunks but the last: FSDP2
// keeps its unsharded gradient in fp32 (reduce_dtype) next to the chunk's bf16 one. Unsharded
// gradients = one block (bf16 + fp32 reduce-scatter input, 6 B) + head × (2 + 4) B.
TEST(TorchtitanTest, ChunkedLossAccumulatesTheHeadGradientInFp32) {
  Estimate e = EstimateMemory(Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"chunks", "8"}}));
  EXPECT_EQ(e.stages[0].temporary.unsharded_grads, kBlock * 6 + kHead * 6);
}

// Block-interval SAC: torchtitan bumps its counter before testing count % k == 0, so with
// k = 3 the 3rd, 6th, …, 30th blocks are checkpointed: 10 of 32 (not 11, as ids 0, 3, …, 30
// would give). Without checkpointing a block keeps 168,072 B per token (estimate_test.cpp,
// DerivedKWithoutCheckpointing); a checkpointed one keeps its 8,192 B input.
TEST(TorchtitanTest, EveryKthBlockCountsFromOne) {
  Estimate e = EstimateMemory(
      Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "selective"}, {"acopt", "3"}}));
  const double expected = (22 * 168072.0 + 10 * 8192.0) / 32;
  EXPECT_NEAR(e.stages[0].activations.bytes_per_token_per_layer, expected, 0.5);
}

// Per-op SAC keeps, per token per block: the input 2h, wq's output 2·4096, wv's 2·1024,
// flash attention's output 2·4096 + fp32 lse 4·32, w1's output 2·14336 and w2's 2·4096:
// 8,192 + 8,192 + 2,048 + 8,320 + 28,672 + 8,192 = 63,616 B. Compiled, the partitioner drops
// w2's output (only the residual add reads it, and its backward reads nothing): 55,424 B.
TEST(TorchtitanTest, OpLevelSacSavesEveryOtherMatmul) {
  Config c = Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "selective"}, {"acopt", "op"}});
  EXPECT_NEAR(EstimateMemory(c).stages[0].activations.bytes_per_token_per_layer, 63616.0, 0.5);
  EXPECT_NEAR(EstimateMemory(With(c, {{"compile", "true"}}))
                  .stages[0]
                  .activations.bytes_per_token_per_layer,
              55424.0, 0.5);
}

// The reshard policy is part of the schema: parsed, written back, and a bad value is an error
// that names the key and the valid values.
TEST(TorchtitanTest, ReshardPolicyRoundTripsAndRejectsUnknownValues) {
  Config c = MustParse(
      R"({"model": "llama3-8b", "parallelism": {"fsdp_reshard_after_forward": "never"}})");
  EXPECT_EQ(c.parallelism.fsdp_reshard_after_forward, ReshardPolicy::kNever);
  EXPECT_EQ(ConfigToJson(c)["parallelism"]["fsdp_reshard_after_forward"], "never");
  EXPECT_EQ(ConfigToJson(MustParse(
                R"({"model": "llama3-8b"})"))["parallelism"]["fsdp_reshard_after_forward"],
            "default");
  Result<Config> bad = ParseConfig(
      R"({"model": "llama3-8b", "parallelism": {"fsdp_reshard_after_forward": "sometimes"}})",
      TestPresets());
  ASSERT_FALSE(bad.ok());
  const std::string message = FormatError(bad.errors().front());
  EXPECT_NE(message.find("parallelism.fsdp_reshard_after_forward"), std::string::npos) << message;
  EXPECT_NE(message.find("default, always, never"), std::string::npos) << message;
}

// fp8 in detailed mode: the estimate says plainly that it models float8/MXFP8 like bf16 (the
// measured MXFP8 runs are within a few percent of bf16) and points NVFP4 to its own key.
TEST(TorchtitanTest, Fp8IsEstimatedLikeBf16AndSaysSo) {
  Config c = Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}});
  Estimate bf16 = EstimateMemory(c);
  Estimate fp8 = EstimateMemory(With(c, {{"fp8", "true"}}));
  EXPECT_EQ(fp8.per_device.total, bf16.per_device.total);
  bool warned = false;
  for (const std::string& w : fp8.warnings) warned = warned || w.find("NVFP4") != std::string::npos;
  EXPECT_TRUE(warned);
  for (const std::string& w : bf16.warnings) EXPECT_EQ(w.find("fp8"), std::string::npos) << w;
}

// Per-op SAC on an MoE block with EP (Qwen3-30B-A3B: h = 2048, 32 query heads and 4 KV heads
// of 128, top-8 of 128 experts, no shared experts), per token: the block input 4,096; wq's and
// wv's outputs 2 × (4096 + 512) = 9,216; attention output 8,192 + lse 128; the top-k choice
// 8 × (4 + 8) = 96; with EP the dispatch and combine all-to-all outputs 2 × 8 × 2 × 2048 =
// 65,536. The grouped GEMMs' outputs are recomputed. Total 87,264 B.
TEST(TorchtitanTest, OpLevelSacOnMoeKeepsAllToAllOutputs) {
  Config c = With(
      MustParse(R"({"model": "qwen3-30b-a3b", "device": "h100-80gb"})"),
      {{"ws", "8"}, {"ep", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "selective"}, {"acopt", "op"}});
  EXPECT_NEAR(EstimateMemory(c).stages[0].activations.bytes_per_token_per_layer, 87264.0, 0.5);
  // Without EP there is no all-to-all: 87,264 − 65,536.
  EXPECT_NEAR(
      EstimateMemory(With(c, {{"ep", "1"}})).stages[0].activations.bytes_per_token_per_layer,
      87264.0 - 65536.0, 0.5);
}

// FlexAttention (torchtitan's default backend since 2026) is a torch.compile'd region wrapped
// as one inductor_compiled_code op, which per-op SAC saves whole: its outputs include the q and
// k it reads in backward (after qk-norm and RoPE). Qwen3-30B-A3B, EP 1: 21,728 B (above) plus
// 2 × (4096 + 512) = 9,216. A compiled model partitions the block as a whole and full AC keeps
// only the block input, so neither changes.
TEST(TorchtitanTest, FlexAttentionInAnEagerModelKeepsQAndKUnderOpSac) {
  Config c = With(MustParse(R"({"model": "qwen3-30b-a3b", "device": "h100-80gb"})"),
                  {{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "selective"}, {"acopt", "op"}});
  auto per_layer = [](const Config& cfg) {
    return EstimateMemory(cfg).stages[0].activations.bytes_per_token_per_layer;
  };
  EXPECT_NEAR(per_layer(c), 21728.0, 0.5);
  EXPECT_NEAR(per_layer(With(c, {{"attn", "flex"}})), 21728.0 + 9216.0, 0.5);
  EXPECT_NEAR(per_layer(With(c, {{"attn", "flex"}, {"compile", "true"}})), 21728.0, 0.5);
  EXPECT_NEAR(per_layer(With(c, {{"attn", "flex"}, {"ac", "full"}})), 4096.0, 0.5);
  EXPECT_EQ(ConfigToJson(With(c, {{"attn", "flex"}}))["training"]["attention"], "flex");
}

// A compiled MoE block fuses the combine's fp32 upcast into the score multiply: with no
// checkpointing, Qwen3-30B-A3B keeps per token per layer, compiled (fused norms keep their bf16
// input and fp32 statistics): attention 4,100 (norm) + 4,096 (QKV input) + 10,240 (q, k, v) +
// 8,192 (o_proj input) + 128 (lse) = 26,756; MoE 4,100 (norm) + 4,096 (router input) + 1,024
// (router logits and probabilities, fp32) + 8 routed copies × (2 × 2 × 2048 (permuted input and
// bf16 output) + 3 × 2 × 768 (the two up-projections and their product)) = 9,220 + 102,400 =
// 111,620: 138,376 in all. Eager keeps the fp32 output copy (+2 B a value) and four expert
// intermediates (its nn.RMSNorm is torch's fused kernel, as compiled):
// + 8 × (2 × 2048 + 2 × 768) = 183,432. Going back through the combine, eager holds per routed
// copy the fp32 product's
// gradient and two bf16 copies (4 + 2 + 2 B a value), compiled one bf16 gradient (2 B): the
// recomputed block's gradient temporaries differ by 8 × 6 × 2048 = 98,304 B a token in the MoE
// part, which is the larger of the block's two halves here.
TEST(TorchtitanTest, CompiledMoeCombineKeepsTheBf16ExpertOutput) {
  Config c = With(MustParse(R"({"model": "qwen3-30b-a3b", "device": "h100-80gb"})"),
                  {{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "none"}});
  EXPECT_NEAR(EstimateMemory(With(c, {{"compile", "true"}}))
                  .stages[0]
                  .activations.bytes_per_token_per_layer,
              138376.0, 0.5);
  EXPECT_NEAR(EstimateMemory(c).stages[0].activations.bytes_per_token_per_layer, 138376.0 + 45056.0,
              0.5);
  // The backward's transient per token: 2 × (3 × 8 × 768 + 2 × 2048) = 45,056 for the gated
  // experts' gradients plus the combine's 8 × 2048 × (8 B eager, 2 B compiled), over 2048 tokens.
  EXPECT_EQ(EstimateMemory(c).stages[0].activations.recompute_layer, 2048 * (45056 + 131072));
  EXPECT_EQ(EstimateMemory(With(c, {{"compile", "true"}})).stages[0].activations.recompute_layer,
            2048 * (45056 + 32768));
}

// training.dtype bfloat16 (torchtitan config/configs.py: "all parameters, gradients, and
// optimizer states in bfloat16, without an extra copy of fp32 weights"). Qwen3-30B-A3B,
// 30,532,122,624 parameters sharded over 8 ranks: fp32 parameters and gradients are
// 4 × P / 8 = 15,266,061,312 B each and Adam's two fp32 moments 30,532,122,624 B; full bf16
// halves all three (the moments are zeros_like the bf16 parameters). The bf16 units gathered
// for compute are the same either way. Other frameworks keep their own masters and say so; a
// dtype torchtitan does not train in is an error on the key.
TEST(TorchtitanTest, FullBf16TrainingHalvesParametersGradientsAndStates) {
  const Config c = With(MustParse(R"({"model": "qwen3-30b-a3b", "device": "b200"})"),
                        {{"ws", "8"}, {"b", "1"}, {"s", "4096"}, {"ac", "full"}});
  const Config bf16 = With(c, {{"training.dtype", "bfloat16"}});
  const Estimate a = EstimateMemory(c), b = EstimateMemory(bf16);
  EXPECT_EQ(a.per_device.parameters, 15'266'061'312);
  EXPECT_EQ(a.per_device.optimizer_states, 30'532'122'624);
  EXPECT_EQ(b.per_device.parameters, 7'633'030'656);
  EXPECT_EQ(b.per_device.gradients, 7'633'030'656);
  EXPECT_EQ(b.per_device.optimizer_states, 15'266'061'312);
  EXPECT_EQ(b.stages[0].temporary.gathered_params, a.stages[0].temporary.gathered_params);
  EXPECT_EQ(ConfigToJson(bf16)["training"]["dtype"], "bfloat16");
  EXPECT_FALSE(ConfigToJson(c)["training"].contains("dtype"));  // written only when bf16

  const Config megatron = With(bf16, {{"framework", "megatron"}});
  bool warned = false;
  for (const std::string& w : EstimateMemory(megatron).warnings)
    warned = warned || w.find("training.dtype has no effect") != std::string::npos;
  EXPECT_TRUE(warned);
  const Result<Config> fp16 =
      ApplySettings(c, {{"training.dtype", "float16"}}, testing::TestPresets());
  ASSERT_FALSE(fp16.ok());
  EXPECT_EQ(fp16.errors().front().path, "training.dtype");
}

// Full checkpointing with EP: the measured EP 8 runs kept more per sample than the estimate (see
// the README's known misses); the estimate says so rather than adding an unexplained constant.
TEST(TorchtitanTest, ExpertParallelFullCheckpointingWarnsOfTheMeasuredExcess) {
  const Config c = With(MustParse(R"({"model": "qwen3-30b-a3b", "device": "b200"})"),
                        {{"ws", "8"}, {"ep", "8"}, {"b", "2"}, {"s", "4096"}, {"ac", "full"}});
  auto warns = [](const Config& cfg) {
    for (const std::string& w : EstimateMemory(cfg).warnings)
      if (w.find("expert parallelism with full checkpointing") != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(warns(c));
  EXPECT_FALSE(warns(With(c, {{"ep", "1"}})));
  // EP 4 runs (DeepSeek-V3 16B) kept no such excess.
  EXPECT_FALSE(warns(With(c, {{"ep", "4"}})));
  EXPECT_FALSE(warns(With(c, {{"ac", "selective"}, {"acopt", "op"}})));
}

// What data parallelism shrinks under torchtitan's MoE sharding (Qwen3-30B-A3B, EP 8, full AC,
// local batch 8 × 4096). Routed experts are sharded over ep × efsdp = 8 × N/8 = N ranks and the
// rest over dp_shard = N (models/common/moe_sharding.py), so each of fp32 parameters, fp32
// gradients (reduce_dtype) and Adam's two fp32 moments is 4 B × 30,532,122,624 / N:
// 15,266,061,312 B at N = 8, 954,128,832 B at N = 128. Everything else is per device and does
// not move with N: the tokens (8 × 4096), so saved block inputs, loss and recompute; the
// gathered bf16 units at the start of backward (norm + output 311,166,976 parameters, the last
// block and the prefetched one at 19,140,864 dense + 16 local experts × 3 × 2048 × 768 =
// 94,638,336 each: 500,443,648 × 2 B); the unsharded gradients of those units.
TEST(TorchtitanTest, MoeDataParallelShrinksOnlyTheShardedStates) {
  const Config c8 = With(MustParse(R"({"model": "qwen3-30b-a3b", "device": "b200"})"),
                         {{"ws", "8"}, {"ep", "8"}, {"b", "8"}, {"s", "4096"}, {"ac", "full"}});
  const Estimate e8 = EstimateMemory(c8);
  const Estimate e128 = EstimateMemory(With(c8, {{"ws", "128"}}));
  ASSERT_EQ(e128.layout.dp_shard, 128);
  ASSERT_EQ(e128.layout.ep, 8);
  constexpr std::int64_t kParams = 30'532'122'624;
  for (const auto& [n, e] : {std::pair<std::int64_t, const Estimate*>{8, &e8}, {128, &e128}}) {
    EXPECT_EQ(e->per_device.parameters, 4 * kParams / n) << n;
    EXPECT_EQ(e->per_device.gradients, 4 * kParams / n) << n;
    EXPECT_EQ(e->per_device.optimizer_states, 8 * kParams / n) << n;
  }
  EXPECT_EQ(e8.stages[0].temporary.gathered_params, 2 * 500'443'648LL);
  EXPECT_EQ(e128.stages[0].temporary.gathered_params, e8.stages[0].temporary.gathered_params);
  EXPECT_EQ(e128.stages[0].temporary.unsharded_grads, e8.stages[0].temporary.unsharded_grads);
  EXPECT_EQ(e128.per_device.activations, e8.per_device.activations);
  EXPECT_EQ(e128.stages[0].activations.logits_and_loss, e8.stages[0].activations.logits_and_loss);
}

// With EP the estimate says which token dispatcher it models (torchtitan's standard all-to-all);
// without EP, or for Megatron's own dispatchers, it does not.
TEST(TorchtitanTest, ExpertParallelNamesTheModelledDispatcher) {
  const Config c = With(MustParse(R"({"model": "qwen3-30b-a3b", "device": "h100-80gb"})"),
                        {{"ws", "8"}, {"ep", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "full"}});
  auto names_dispatcher = [](const Estimate& e) {
    for (const std::string& w : e.warnings)
      if (w.find("DeepEP") != std::string::npos) return true;
    return false;
  };
  // The standard dispatcher is what the activations count: nothing to say.
  EXPECT_FALSE(names_dispatcher(EstimateMemory(c)));
  const Config deepep = With(c, {{"epcomm", "deepep"}});
  EXPECT_TRUE(names_dispatcher(EstimateMemory(deepep)));
  // torchtitan refuses DeepEP at EP 1 (update_ep_token_dispatcher_config).
  Config at_ep1 = deepep;
  at_ep1.parallelism.ep = 1;
  const std::vector<Error> refused = ValidateConfig(at_ep1);
  ASSERT_FALSE(refused.empty());
  EXPECT_EQ(refused.front().path, "parallelism.expert_parallel_comm_backend");
  // Megatron has its own dispatchers: the key is said to be torchtitan's.
  const Estimate megatron = EstimateMemory(With(deepep, {{"fw", "megatron"}}));
  ASSERT_FALSE(megatron.stages.empty());
  EXPECT_FALSE(names_dispatcher(megatron));
  bool said = false;
  for (const std::string& w : megatron.warnings)
    said = said || w.find("is torchtitan's switch") != std::string::npos;
  EXPECT_TRUE(said);
}

// MinimalAsyncEP (torchtitan distributed/minimal_async_ep/api.py init_buffer): two bf16
// receive buffers of ep · tokens per rank · min(top_k, local experts) rows × dim from
// symm_mem.empty, outside the caching allocator. DeepSeek-V2-Lite (dim 2048, 64 experts, top-6)
// at EP 4, 16 × 4096 tokens, TP = CP = 1: 2 × (4 × 65,536 × min(6, 16)) × 2048 × 2 B =
// 12,884,901,888 B (12 GiB), outside the total and taken from the usable memory.
TEST(TorchtitanTest, MinimalAsyncEpBuffersComeOutOfTheUsableMemory) {
  const Config c = With(MustParse(R"({"model": "deepseek-v2-lite", "device": "h100-80gb"})"),
                        {{"ws", "8"}, {"ep", "4"}, {"b", "16"}, {"s", "4096"}, {"ac", "full"}});
  const Estimate standard = EstimateMemory(c);
  const Estimate minimal = EstimateMemory(With(c, {{"epcomm", "minimal_async_ep"}}));
  EXPECT_EQ(standard.budget.outside_allocator_bytes, 0);
  EXPECT_EQ(minimal.budget.outside_allocator_bytes, 12884901888LL);
  EXPECT_EQ(minimal.per_device.total, standard.per_device.total);
  EXPECT_EQ(minimal.budget.usable_bytes, standard.budget.usable_bytes - 12884901888LL);
  // TP 2 halves the tokens each rank dispatches.
  EXPECT_EQ(EstimateMemory(With(c, {{"epcomm", "minimal_async_ep"}, {"tp", "2"}}))
                .budget.outside_allocator_bytes,
            6442450944LL);
}

// A torchtitan estimate whose unchunked loss is a large share of the total says so and names
// the setting that models torchtitan's ChunkedLossWrapper; with chunks set it does not.
// Llama 3 8B, 8 ranks, b 2 × 8192: 12 B × 128256 × 16384 tokens ≈ 23.5 GiB of ~81 GiB.
TEST(TorchtitanTest, LargeUnchunkedLossPointsAtLossChunks) {
  Config c = Llama({{"ws", "8"}, {"b", "2"}, {"s", "8192"}, {"ac", "selective"}, {"acopt", "op"}});
  auto mentions_chunks = [](const Estimate& e) {
    for (const std::string& w : e.warnings)
      if (w.find("training.loss_chunks") != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(mentions_chunks(EstimateMemory(c)));
  EXPECT_FALSE(mentions_chunks(EstimateMemory(With(c, {{"chunks", "8"}}))));
  EXPECT_FALSE(mentions_chunks(EstimateMemory(With(c, {{"fw", "megatron"}}))));
}

}  // namespace
}  // namespace trainmem
