// The advice ladder follows the seed's order and stops at the first step that fits.
#include <gtest/gtest.h>

#include "core/estimate.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;
using testing::With;

TEST(AdviseTest, LadderOrderFromTheSeed) {
  // Llama 3 8B, one A100 40GB, no checkpointing, batch 4 × 4096: far over budget.
  Config c = With(
      MustParse(R"({"model": "llama3-8b", "device": "a100-40gb", "framework": "torchtitan-npu"})"),
      {{"ws", "8"}, {"ac", "none"}, {"b", "4"}, {"s", "4096"}});
  Estimate e = EstimateWithAdvice(c);
  ASSERT_FALSE(e.budget.fits);
  ASSERT_GE(e.recommendations.size(), 3u);
  EXPECT_EQ(e.recommendations[0].action, "enable selective activation checkpointing");
  EXPECT_EQ(e.recommendations[1].action, "enable full activation checkpointing");
  EXPECT_EQ(e.recommendations[2].action, "enable swap_optimizer");
  // Each step is cumulative and lowers the total.
  EXPECT_LT(e.recommendations[1].total_bytes, e.recommendations[0].total_bytes);
  EXPECT_LT(e.recommendations[0].total_bytes, e.per_device.total);
  // The ladder stops at the first that fits; the last entry is the cheapest combination.
  std::size_t first_fit = 0;
  while (first_fit < e.recommendations.size() && !e.recommendations[first_fit].fits) ++first_fit;
  ASSERT_LT(first_fit, e.recommendations.size());
  EXPECT_EQ(e.recommendations.back().action, "cheapest combination that fits");
  EXPECT_TRUE(e.recommendations.back().fits);
  EXPECT_LE(first_fit + 2, e.recommendations.size());
}

// Applying a recommendation's changes reproduces its total.
TEST(AdviseTest, ChangesReproduceTheTotal) {
  Config c = With(MustParse(R"({"model": "llama3-70b", "device": "h100-80gb"})"),
                  {{"ws", "16"}, {"ac", "none"}, {"b", "2"}, {"s", "8192"}});
  Estimate e = EstimateWithAdvice(c);
  ASSERT_FALSE(e.recommendations.empty());
  for (const Recommendation& r : e.recommendations) {
    std::vector<std::pair<std::string, std::string>> settings(r.changes.begin(), r.changes.end());
    Result<Config> applied = ApplySettings(c, settings, testing::TestPresets());
    ASSERT_TRUE(applied.ok()) << r.action;
    EXPECT_EQ(EstimateMemory(applied.value()).per_device.total, r.total_bytes) << r.action;
  }
}

// Degrees are only raised to valid values: TP never exceeds the 8 KV heads of Llama 3.
TEST(AdviseTest, RaisesOnlyToValidDegrees) {
  Config c = With(MustParse(R"({"model": "llama3-405b", "device": "a100-80gb"})"),
                  {{"ws", "64"}, {"ac", "full"}, {"b", "1"}, {"s", "8192"}});
  Estimate e = EstimateWithAdvice(c);
  for (const Recommendation& r : e.recommendations) {
    for (const auto& [key, value] : r.changes) {
      if (key == "parallelism.tensor_parallel_degree") EXPECT_LE(std::stoi(value), 8);
    }
  }
}

// A config that fits gets no advice.
TEST(AdviseTest, NoAdviceWhenItFits) {
  Config c = With(MustParse(R"({"model": "llama3.2-1b", "device": "h100-80gb"})"), {{"b", "1"}});
  Estimate e = EstimateWithAdvice(c);
  EXPECT_TRUE(e.budget.fits);
  EXPECT_TRUE(e.recommendations.empty());
}

}  // namespace
}  // namespace trainmem
