// Template mode must reproduce the seed's reference table exactly (seed/README.md,
// "Reference values"), with GB = 10^9 bytes.
#include "core/estimate/template_mode.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace trainmem {
namespace {

using testing::kGB;
using testing::MustParse;
using testing::With;

Config SeedLlama(int world, int tp) {
  Config c = MustParse(R"({"model": "llama3-8b", "mode": "template"})");
  return With(c, {{"world_size", std::to_string(world)}, {"tp", std::to_string(tp)}});
}

// Llama3 8B, bf16, AdamW, single device: 8B × 2 B = 16 GB params, 16 GB grads,
// 8B × 4 B × 2 = 64 GB optimizer, 96 GB static.
TEST(TemplateModeTest, SeedTableSingleDevice) {
  Estimate e = EstimateMemory(SeedLlama(1, 1));
  EXPECT_EQ(e.per_device.parameters, 16'000'000'000);
  EXPECT_EQ(e.per_device.gradients, 16'000'000'000);
  EXPECT_EQ(e.per_device.optimizer_states, 64'000'000'000);
  EXPECT_EQ(e.per_device.parameters + e.per_device.gradients + e.per_device.optimizer_states,
            96'000'000'000);
}

// TP8: everything /8 → 2 / 2 / 8 → 12 GB static.
TEST(TemplateModeTest, SeedTableTp8) {
  Estimate e = EstimateMemory(SeedLlama(8, 8));
  EXPECT_EQ(e.per_device.parameters, 2'000'000'000);
  EXPECT_EQ(e.per_device.gradients, 2'000'000'000);
  EXPECT_EQ(e.per_device.optimizer_states, 8'000'000'000);
}

// The exact count (8,030,261,248) is shown beside the nominal one: 16.06 GB of bf16 params.
TEST(TemplateModeTest, ExactCountComparedWithNominal) {
  Estimate e = EstimateMemory(SeedLlama(1, 1));
  ASSERT_TRUE(e.template_comparison.available);
  EXPECT_EQ(e.template_comparison.nominal_params, 8'000'000'000);
  EXPECT_EQ(e.template_comparison.exact_params, 8'030'261'248);
  EXPECT_EQ(e.template_comparison.exact.parameters, 2 * 8'030'261'248LL);
  const std::string why = TemplateExplanation(e.template_comparison);
  EXPECT_NE(why.find("8.03B"), std::string::npos) << why;
  EXPECT_NE(why.find("+0.38%"), std::string::npos) << why;
}

// DeepSeek V3.2: experts 657B × 2 B = 1314 GB / (TP × EP × PP); dense 14B × 2 B = 28 GB / (TP ×
// PP).
TEST(TemplateModeTest, SeedDeepSeekExpertSplit) {
  Config c = MustParse(R"({"model": "deepseek-v3.2", "mode": "template"})");
  c = With(c, {{"world_size", "64"}, {"tp", "2"}, {"pp", "4"}, {"ep", "8"}});
  Estimate e = EstimateMemory(c);
  const double dense = 28e9 / (2 * 4);
  const double experts = 1314e9 / (2 * 8 * 4);
  EXPECT_NEAR(static_cast<double>(e.per_device.parameters), dense + experts, 1.0);
}

// ④ with no checkpointing: B·S·H·L·2·K, K = 12.5, divided by TP; ⑤ = 10% of the rest.
TEST(TemplateModeTest, ActivationsAndTemporaryFollowTheSeed) {
  Config c = SeedLlama(1, 1);
  c = With(c, {{"ac", "none"}, {"b", "2"}, {"s", "2048"}});
  Estimate e = EstimateMemory(c);
  const double acts = 2.0 * 2048 * 4096 * 32 * 2 * kTemplateActivationK;
  EXPECT_NEAR(static_cast<double>(e.per_device.activations), acts, 1.0);
  const double rest = 96e9 + acts;
  EXPECT_NEAR(static_cast<double>(e.per_device.temporary), 0.10 * rest, 1.0);
  EXPECT_EQ(e.per_device.total, e.per_device.parameters + e.per_device.gradients +
                                    e.per_device.optimizer_states + e.per_device.activations +
                                    e.per_device.temporary);
  c = With(c, {{"ac", "full"}});
  EXPECT_NEAR(static_cast<double>(EstimateMemory(c).per_device.activations), 2.0 * 2048 * 4096 * 2,
              1.0);
}

// ④ with pipeline microbatches: a stage holds L/PP layers of micro × min(PP, microbatches)
// samples (1F1B's first stage): batch 8 in microbatches of 1 over PP 4 → 4 samples of 8 layers.
TEST(TemplateModeTest, PipelineStagesHoldMicrobatches) {
  Config c = With(
      SeedLlama(1, 1),
      {{"world_size", "4"}, {"pp", "4"}, {"mbs", "1"}, {"ac", "none"}, {"b", "8"}, {"s", "2048"}});
  const double acts = 4.0 * 2048 * 4096 * 8 * 2 * kTemplateActivationK;
  EXPECT_NEAR(static_cast<double>(EstimateMemory(c).per_device.activations), acts, 1.0);
}

// swap_optimizer: states leave the device (seed ③) and are reported as host memory. The seed's
// swap_optimizer is torchtitan-npu's (torchtitan itself has none: frameworks.cpp).
TEST(TemplateModeTest, SwapOptimizerMovesStatesToHost) {
  Config c = With(SeedLlama(1, 1), {{"framework", "torchtitan-npu"}, {"swap", "true"}});
  Estimate e = EstimateMemory(c);
  EXPECT_EQ(e.per_device.optimizer_states, 0);
  EXPECT_EQ(e.host_optimizer_bytes, 64'000'000'000);
  (void)kGB;
}

}  // namespace
}  // namespace trainmem
