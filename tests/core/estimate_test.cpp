// Detailed mode, component by component, against figures derived by hand in the comments.
// Llama 3 8B: P = 8,030,261,248; h = 4096, L = 32, V = 128256, I = 14336, 8 KV heads.
#include "core/estimate/estimate.h"

#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/report/report.h"

#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;
using testing::With;

constexpr std::int64_t kLlama8B = 8'030'261'248;

Config Llama(const std::vector<std::pair<std::string, std::string>>& settings) {
  return With(MustParse(R"({"model": "llama3-8b", "device": "h100-80gb"})"), settings);
}

// torchtitan FSDP2 over 8 ranks: fp32 master params and fp32 grads, 4 B × P / 8 each; AdamW
// m + v in fp32, 8 B × P / 8.
TEST(EstimateTest, TorchtitanFsdpShardsFp32State) {
  Estimate e = EstimateMemory(Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}}));
  EXPECT_EQ(e.layout.dp_shard, 8);
  EXPECT_EQ(e.per_device.parameters, kLlama8B * 4 / 8);
  EXPECT_EQ(e.per_device.gradients, kLlama8B * 4 / 8);
  EXPECT_EQ(e.per_device.optimizer_states, kLlama8B * 8 / 8);
}

// A multimodal model's vision tower (Gemma 3 27B: 423,060,336 parameters of SigLIP and its
// projector) under training.vision_tower. Not loaded: nothing. Frozen (DeepSpeed ZeRO-3 over 8):
// bf16 weights 2 B × 423,060,336 / 8 and nothing else. Trained: also 2 B of gradients and
// 12 B of fp32 master, m and v a parameter, sharded likewise; "Parameters, total" grows by it.
TEST(EstimateTest, VisionTowerFrozenOrTrained) {
  const double tower = 423060336.0;
  const Config none = With(MustParse(R"({"model": "gemma3-27b", "device": "h100-80gb"})"),
                           {{"fw", "deepspeed"}, {"ws", "8"}, {"zero", "3"}, {"b", "1"}});
  ASSERT_EQ(none.model.vision_params, 423060336);
  const Estimate a = EstimateMemory(none);
  const Estimate frozen = EstimateMemory(With(none, {{"vt", "frozen"}}));
  const Estimate trained = EstimateMemory(With(none, {{"vt", "trained"}}));
  EXPECT_NEAR(static_cast<double>(frozen.per_device.parameters - a.per_device.parameters),
              2 * tower / 8, 2);
  EXPECT_EQ(frozen.per_device.gradients, a.per_device.gradients);
  EXPECT_EQ(frozen.per_device.optimizer_states, a.per_device.optimizer_states);
  EXPECT_EQ(frozen.params.total, a.params.total);
  EXPECT_NEAR(static_cast<double>(trained.per_device.parameters - a.per_device.parameters),
              2 * tower / 8, 2);
  EXPECT_NEAR(static_cast<double>(trained.per_device.gradients - a.per_device.gradients),
              2 * tower / 8, 2);
  EXPECT_NEAR(
      static_cast<double>(trained.per_device.optimizer_states - a.per_device.optimizer_states),
      12 * tower / 8, 2);
  EXPECT_EQ(trained.params.total - a.params.total, 423060336);
  // A text-only model with the setting on says nothing was added.
  const Estimate text = EstimateMemory(Llama({{"vt", "trained"}}));
  bool said = false;
  for (const std::string& w : text.warnings)
    said = said || w.find("counts no vision tower") != std::string::npos;
  EXPECT_TRUE(said);
}

// Megatron, TP 4 × DP 2, distributed optimizer (zero_stage 1): bf16 params and fp32 main grads
// per TP shard, fp32 master + m + v (12 B) sharded over DP 2.
TEST(EstimateTest, MegatronDistributedOptimizer) {
  Config c = Llama({{"fw", "megatron"}, {"ws", "8"}, {"tp", "4"}, {"zero", "1"}, {"b", "1"}});
  Estimate e = EstimateMemory(c);
  // Per TP shard: attention and MLP matrices / 4, norms replicated, embedding and head / 4.
  const std::int64_t norms = 32 * 2 * 4096 + 4096;
  const std::int64_t sharded = kLlama8B - norms;
  const double local = static_cast<double>(sharded) / 4 + static_cast<double>(norms);
  EXPECT_NEAR(static_cast<double>(e.per_device.parameters), local * 2, 2);
  EXPECT_NEAR(static_cast<double>(e.per_device.gradients), local * 4, 2);
  EXPECT_NEAR(static_cast<double>(e.per_device.optimizer_states), local * 12 / 2, 2);
}

// DeepSpeed ZeRO (paper §3): 2Ψ params, 2Ψ grads, 12Ψ optimizer; stage 1 shards the optimizer,
// stage 2 also the gradients, stage 3 also the parameters.
TEST(EstimateTest, ZeroStagesShardProgressively) {
  const double p = static_cast<double>(kLlama8B);
  for (int stage = 0; stage <= 3; ++stage) {
    Config c =
        Llama({{"fw", "deepspeed"}, {"ws", "8"}, {"zero", std::to_string(stage)}, {"b", "1"}});
    Estimate e = EstimateMemory(c);
    EXPECT_NEAR(static_cast<double>(e.per_device.parameters), 2 * p / (stage >= 3 ? 8 : 1), 2)
        << stage;
    EXPECT_NEAR(static_cast<double>(e.per_device.gradients), 2 * p / (stage >= 2 ? 8 : 1), 2)
        << stage;
    EXPECT_NEAR(static_cast<double>(e.per_device.optimizer_states), 12 * p / (stage >= 1 ? 8 : 1),
                2)
        << stage;
  }
}

// Full AC keeps only each block's input: L × (B·S) × h × 2 B = 32 × 2048 × 4096 × 2.
TEST(EstimateTest, FullCheckpointingKeepsBlockInputs) {
  Estimate e = EstimateMemory(Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "full"}}));
  const ActivationBreakdown& a = e.stages[0].activations;
  EXPECT_EQ(a.saved_layers, 32LL * 2048 * 4096 * 2);
  EXPECT_DOUBLE_EQ(a.k_equivalent, 1.0);  // one h-sized bf16 tensor per token per layer
}

// The loss at the start of backward: 12 B per fp32 logit element (saved log-softmax, its
// gradient, the upcast gradient), plus the final norm's saved tensors and the head's bf16 input
// 2h, per token. torchtitan's nn.RMSNorm is torch's fused kernel (input 2h + fp32 rstd 4 B);
// torchtune's RMSNorm module computes in fp32 step by step (fp32 copy 4h + bf16 normalised 2h +
// rstd 4 B).
TEST(EstimateTest, LogitsAndLossPerToken) {
  Estimate e = EstimateMemory(Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}}));
  const double per_token = 128256.0 * 12 + (2.0 * 4096 + 4) + 2.0 * 4096;
  EXPECT_NEAR(static_cast<double>(e.stages[0].activations.logits_and_loss), per_token * 2048, 2);
  // torchtitan's ChunkedLossWrapper runs lm_head + loss one chunk of T/8 tokens at a time:
  // (2 B chunk logits + 12 B) / 8 per logit, plus the fp32 GradAccumulator [T, h] = 4h.
  Estimate chunked =
      EstimateMemory(Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"chunks", "8"}}));
  const double chunked_token =
      128256.0 * (2 + 12.0) / 8 + 4.0 * 4096 + (2.0 * 4096 + 4) + 2.0 * 4096;
  EXPECT_NEAR(static_cast<double>(chunked.stages[0].activations.logits_and_loss),
              chunked_token * 2048, 2);
  // torchtune's chunked CE keeps the bf16 logits and one fp32 chunk at a time: 2 + 12/8 B.
  Estimate tune = EstimateMemory(
      Llama({{"fw", "torchtune"}, {"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"chunks", "8"}}));
  const double tune_token = 128256.0 * (2 + 12.0 / 8) + (6.0 * 4096 + 4) + 2.0 * 4096;
  EXPECT_NEAR(static_cast<double>(tune.stages[0].activations.logits_and_loss), tune_token * 2048,
              2);
}

// No checkpointing, eager, per token per layer (bf16, flash attention), torchtune:
//   2 RMSNorms: (4 + 2)·h + 4 each            = 2 × 24,580
//   QKV input h, MLP input h (2 B)            = 2 × 8,192
//   q + k + v = (4096 + 1024 + 1024) × 2      = 12,288
//   attention output 4096 × 2 + lse 32 × 4    = 8,320
//   SwiGLU: 4 × 14336 × 2                     = 114,688
//   total                                     = 200,840 bytes → K = 200,840 / 8192 ≈ 24.52
// torchtitan's nn.RMSNorm runs torch's fused kernel (aten._fused_rms_norm, torch 2.9+), which
// keeps the bf16 input and the fp32 rstd: 2 × (2·h + 4) = 16,392 for the norms, 168,072 in all.
TEST(EstimateTest, DerivedKWithoutCheckpointing) {
  Estimate tune = EstimateMemory(
      Llama({{"fw", "torchtune"}, {"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "none"}}));
  EXPECT_NEAR(tune.stages[0].activations.bytes_per_token_per_layer, 200840.0, 0.5);
  Estimate e = EstimateMemory(Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "none"}}));
  const ActivationBreakdown& a = e.stages[0].activations;
  EXPECT_NEAR(a.bytes_per_token_per_layer, 168072.0, 0.5);
  EXPECT_NEAR(a.k_equivalent, 168072.0 / 8192.0, 1e-6);
  // torch.compile saves three SwiGLU tensors (the up-projections and their product), not four.
  Estimate compiled = EstimateMemory(
      Llama({{"ws", "8"}, {"b", "1"}, {"s", "2048"}, {"ac", "none"}, {"compile", "true"}}));
  const double fused = 2 * (8192.0 + 4) + 2 * 8192.0 + 12288 + 8320 + 3 * 14336 * 2;
  EXPECT_NEAR(compiled.stages[0].activations.bytes_per_token_per_layer, fused, 0.5);
}

// 1F1B keeps pp − stage microbatches in flight; the last stage holds the loss. torchtitan
// weighs the embedding and the output as a layer each: 32 + 2 = 34 slots over 4 stages are
// 9, 9, 8, 8, and the first and last stage give one slot up: 8, 9, 8, 7 layers. Megatron splits
// the 32 layers evenly.
TEST(EstimateTest, PipelineStagesHoldDifferentMicrobatches) {
  Config c =
      Llama({{"ws", "4"}, {"pp", "4"}, {"b", "8"}, {"mbs", "1"}, {"s", "2048"}, {"ac", "full"}});
  Estimate e = EstimateMemory(c);
  ASSERT_EQ(e.stages.size(), 4u);
  const std::int64_t torchtitan_layers[] = {8, 9, 8, 7};
  const Estimate megatron = EstimateMemory(With(c, {{"framework", "megatron"}}));
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(e.stages[static_cast<std::size_t>(s)].activations.microbatches_in_flight, 4 - s);
    EXPECT_EQ(e.stages[static_cast<std::size_t>(s)].num_layers, torchtitan_layers[s]);
    EXPECT_EQ(megatron.stages[static_cast<std::size_t>(s)].num_layers, 8);
  }
  EXPECT_GT(e.stages[3].activations.logits_and_loss, 0);
  EXPECT_EQ(e.stages[0].activations.logits_and_loss, 0);
  // GPipe keeps all 8 microbatches on every stage.
  Estimate g = EstimateMemory(With(c, {{"sched", "GPipe"}}));
  EXPECT_EQ(g.stages[0].activations.microbatches_in_flight, 8);
  // The reported per-device figure is the worst stage.
  std::int64_t worst = 0;
  for (const StageEstimate& s : e.stages) worst = std::max(worst, s.bytes.total);
  EXPECT_EQ(e.per_device.total, worst);
}

// Interleaved 1F1B, v = 2 chunks per rank, pp = 4, 8 microbatches: rank 0 warms up with
// (4 − 0 − 1)·2 + (2 − 1)·4 = 10 chunk-microbatches, +1 in flight = 11 chunks of 4 blocks.
TEST(EstimateTest, InterleavedWarmup) {
  Config c = Llama({{"ws", "4"},
                    {"pp", "4"},
                    {"b", "8"},
                    {"mbs", "1"},
                    {"sched", "Interleaved1F1B"},
                    {"ac", "full"}});
  Estimate e = EstimateMemory(c);
  EXPECT_EQ(e.stages[0].activations.layers_kept, 11 * 4);
}

// swap_optimizer (torchtitan-npu): m and v go to the host; one 1/16 slice comes back at the step.
TEST(EstimateTest, SwapOptimizerKeepsASliceOnDevice) {
  Config c = Llama({{"fw", "torchtitan-npu"}, {"ws", "8"}, {"b", "1"}, {"swap", "true"}});
  Estimate e = EstimateMemory(c);
  EXPECT_EQ(e.per_device.optimizer_states, 0);
  EXPECT_EQ(e.host_optimizer_bytes, kLlama8B * 8 / 8);
}

// The verdict: fits iff total ≤ device bytes × 0.95, headroom = usable − total.
TEST(EstimateTest, BudgetUsesTheUsableFraction) {
  Estimate e = EstimateMemory(Llama({{"ws", "8"}, {"b", "1"}}));
  EXPECT_EQ(e.budget.device_bytes,
            static_cast<std::int64_t>(std::floor(e.config.device.memory_gib * 1073741824.0)));
  EXPECT_EQ(e.budget.usable_bytes, std::llround(static_cast<double>(e.budget.device_bytes) * 0.95));
  EXPECT_EQ(e.budget.headroom_bytes, e.budget.usable_bytes - e.per_device.total);
  EXPECT_EQ(e.budget.fits, e.per_device.total <= e.budget.usable_bytes);
}

// Components sum to the total; peak_allocated never exceeds it; nothing is negative.
TEST(EstimateTest, ComponentsSumToTotal) {
  for (const char* model : {"llama3-8b", "qwen3-30b-a3b", "deepseek-v3", "gpt-oss-120b", "gpt2"}) {
    Config c =
        With(MustParse(std::string(R"({"model": ")") + model + R"("})"), {{"ws", "8"}, {"b", "1"}});
    Estimate e = EstimateMemory(c);
    const MemoryBreakdown& m = e.per_device;
    EXPECT_EQ(m.total,
              m.parameters + m.gradients + m.optimizer_states + m.activations + m.temporary)
        << model;
    EXPECT_LE(m.peak_allocated, m.total) << model;
    EXPECT_GT(m.peak_allocated, 0) << model;
  }
}

// Every term of a stage's temporary breakdown is one the estimator computes: the allocated terms
// add up to the stage's "temporary" figure, and the JSON lists no term that is always zero
// (there is no communication-buffer term; those buffers live outside the caching allocator).
TEST(EstimateTest, TemporaryBreakdownListsOnlyComputedTerms) {
  const std::vector<std::pair<std::string, std::string>> framework_settings[] = {
      {{"ws", "8"}},
      {{"framework", "megatron"}, {"ws", "8"}, {"tp", "2"}, {"zero", "1"}},
      {{"framework", "deepspeed"}, {"ws", "8"}, {"zero", "3"}},
      {{"framework", "torchtune"}, {"ws", "1"}, {"model", "llama3.2-1b"}}};
  for (const auto& settings : framework_settings) {
    const Estimate e = EstimateMemory(Llama(settings));
    const nlohmann::json j = EstimateToJson(e);
    for (const nlohmann::json& stage : j["pipeline_stages"]) {
      const nlohmann::json& t = stage["temporary_breakdown"];
      std::vector<std::string> keys;
      for (const auto& item : t.items()) keys.push_back(item.key());
      EXPECT_EQ(keys, (std::vector<std::string>{"allocator_reserve", "fraction", "gathered_params",
                                                "grad_buckets", "optimizer_step", "unsharded_grads",
                                                "workspaces"}))
          << settings[0].second;
      const std::int64_t allocated_terms =
          t["gathered_params"].get<std::int64_t>() + t["unsharded_grads"].get<std::int64_t>() +
          t["grad_buckets"].get<std::int64_t>() + t["workspaces"].get<std::int64_t>() +
          t["optimizer_step"].get<std::int64_t>() + t["fraction"].get<std::int64_t>();
      EXPECT_EQ(allocated_terms, stage["temporary"].get<std::int64_t>()) << settings[0].second;
    }
  }
}

// With activations tiny, the allocated peak is where every gradient is live: torchtune on one
// device (pure bf16, fused AdamW: no step temporaries) holds params + grads + states, and at the
// end of backward also the first block's few activations; the optimizer step holds no more.
TEST(EstimateTest, AllGradientsLiveIsTheAllocatedPeak) {
  Config c = With(MustParse(R"({"model": "llama3.2-1b", "framework": "torchtune"})"),
                  {{"b", "1"}, {"s", "16"}, {"ac", "full"}});
  Estimate e = EstimateMemory(c);
  const MemoryBreakdown& m = e.per_device;
  EXPECT_EQ(m.parameters, 1'235'814'400LL * 2);
  EXPECT_EQ(m.optimizer_states, 1'235'814'400LL * 2 * 2);  // m and v in bf16, like the params
  // Allocated: all state plus the end of backward's activations, which are fewer than the
  // start's (the breakdown shows the reserved peak: backward start, freed gradients cached).
  const std::int64_t state = m.parameters + m.gradients + m.optimizer_states;
  EXPECT_GT(m.peak_allocated, state);
  EXPECT_LT(m.peak_allocated, state + m.activations);
}

// One device: current torchtitan applies fully_shard even at dp_shard = 1 (#2900, trainer
// no longer uses autocast), so bf16 copies exist only for the gathered FSDP units at the start
// of backward: two blocks (current + prefetched) and the [norm, lm_head] unit, which is not
// resharded after forward; the embedding unit is. Block: 4h² + 2·1024·h + 3·h·I + 2h norms =
// 218,112,000; head 525,336,576; final norm 4,096. Gathered = 2 × 218,112,000 + 525,340,672
// elements × 2 B. Unsharded gradients: one block in bf16 + its fp32 reduce-scatter input
// (6 B × 218,112,000) and the head's bf16 gradient (2 B × 525,336,576).
TEST(EstimateTest, SingleDeviceTorchtitanUsesFsdpMixedPrecision) {
  Estimate e = EstimateMemory(Llama({{"b", "1"}, {"s", "2048"}}));
  ASSERT_EQ(e.stages[0].peak_phase, "backward start");
  EXPECT_EQ(e.stages[0].temporary.gathered_params, (2 * 218'112'000LL + 525'340'672LL) * 2);
  EXPECT_EQ(e.stages[0].temporary.unsharded_grads, 218'112'000LL * 6 + 525'336'576LL * 2);
}

// The search's fast path gives exactly EstimateMemory's figures and verdict.
TEST(EstimateTest, TotalsEqualTheFullEstimate) {
  for (const char* model : {"llama3-8b", "deepseek-v3", "gpt2", "mixtral-8x7b"}) {
    for (const char* mode : {"detailed", "template"}) {
      Config c = With(MustParse(std::string(R"({"model": ")") + model + R"("})"),
                      {{"ws", "16"}, {"pp", "2"}, {"b", "4"}, {"mode", mode}});
      Estimate full = EstimateMemory(c);
      TotalsEstimate fast = EstimateTotals(c);
      ASSERT_TRUE(fast.valid) << model;
      EXPECT_EQ(fast.per_device.total, full.per_device.total) << model << " " << mode;
      EXPECT_EQ(fast.per_device.peak_allocated, full.per_device.peak_allocated) << model;
      EXPECT_EQ(fast.per_device.activations, full.per_device.activations) << model;
      EXPECT_EQ(fast.budget.fits, full.budget.fits) << model;
      EXPECT_EQ(fast.budget.headroom_bytes, full.budget.headroom_bytes) << model;
    }
  }
}

// An invalid config never yields NaN or a wrapped number: zeros and a warning naming the key.
TEST(EstimateTest, InvalidConfigGivesZerosAndAWarning) {
  Config c = Llama({{"ws", "8"}});
  c.parallelism.tp = 3;  // bypassing the parser on purpose
  Estimate e = EstimateMemory(c);
  EXPECT_EQ(e.per_device.total, 0);
  ASSERT_FALSE(e.warnings.empty());
  EXPECT_NE(e.warnings[0].find("invalid config"), std::string::npos);
}

}  // namespace
}  // namespace trainmem

namespace trainmem {
namespace {

// Figures stay short enough for a table cell: GiB below 100,000 GiB, then TiB and PiB (an
// absurd sequence length on the page gave "4029288.57 GiB", cut to "4029288.57 Gi").
TEST(EstimateTest, HugeFiguresChangeUnit) {
  constexpr std::int64_t kGiB = 1LL << 30;
  EXPECT_EQ(FormatGiB(98 * kGiB + kGiB / 2), "98.50 GiB");
  EXPECT_EQ(FormatGiB(99'999 * kGiB), "99999.00 GiB");
  EXPECT_EQ(FormatGiB(4'029'288LL * kGiB), "3934.85 TiB");
  EXPECT_EQ(FormatGiB(200'000LL * 1024 * kGiB), "195.31 PiB");
  EXPECT_EQ(FormatGB(99'999'000'000'000LL), "99999.00 GB");
  EXPECT_EQ(FormatGB(4'326'415'660'000'000LL), "4326.42 TB");
}

}  // namespace
}  // namespace trainmem
