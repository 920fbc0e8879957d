// One cost proxy (LayoutCost, search_cost.cpp) behind the Layouts tab and the advice's cheapest
// combination: its figures by hand, and the two naming the same cheapest layout.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/advice/advice.h"
#include "core/search/search.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;
using testing::TestPresets;
using testing::With;

Layout Dp(std::int64_t dp_shard, std::int64_t tp = 1, std::int64_t pp = 1) {
  Layout l;
  l.dp_shard = dp_shard;
  l.tp = tp;
  l.pp = pp;
  return l;
}

ActivationCheckpoint Ac(AcMode mode) {
  ActivationCheckpoint ac;
  ac.mode = mode;
  ac.selective_ac_option = "op";
  return ac;
}

// Llama 3 8B on 8 H100 (8 per node), torchtitan, local batch 8, microbatch 1, 1F1B. By hand from
// search_cost.cpp's terms:
//   FSDP 8:                 1 + 3 doublings × 1%                        = 1.03
//   TP 2 × FSDP 4:          1 + 4% (TP in-node) + 2 × 1%                = 1.06
//   PP 2 × FSDP 4:          (1 + (2−1)/8 microbatches) × (1 + 2 × 1%)   = 1.125 × 1.02 = 1.1475
//   FSDP 8, selective op:   1.07 × 1.03                                 = 1.1021
//   FSDP 8, full AC:        1.33 × 1.03                                 = 1.3699
//   FSDP 8, batch 4:        (1 + 50%) × 1.03                            = 1.545
//   FSDP 8, batch 2:        (1 + 2 × 50%) × 1.03                        = 2.06
// so the order is TP 2 < selective AC < PP 2 < full AC < one batch halving < two.
TEST(CostProxyTest, FiguresAndOrderByHand) {
  const Config job = With(MustParse(R"({"model": "llama3-8b", "device": "h100-80gb"})"),
                          {{"ws", "8"}, {"b", "8"}});
  const Optimizer on_device;
  auto cost = [&](const Layout& l, AcMode ac, std::int64_t batch) {
    return LayoutCost(job, l, Ac(ac), on_device, batch);
  };
  EXPECT_DOUBLE_EQ(cost(Dp(8), AcMode::kNone, 8), 1.03);
  EXPECT_DOUBLE_EQ(cost(Dp(4, 2), AcMode::kNone, 8), 1.06);
  EXPECT_DOUBLE_EQ(cost(Dp(4, 1, 2), AcMode::kNone, 8), 1.1475);
  EXPECT_DOUBLE_EQ(cost(Dp(8), AcMode::kSelective, 8), 1.1021);
  EXPECT_DOUBLE_EQ(cost(Dp(8), AcMode::kFull, 8), 1.3699);
  EXPECT_DOUBLE_EQ(cost(Dp(8), AcMode::kNone, 4), 1.545);
  EXPECT_DOUBLE_EQ(cost(Dp(8), AcMode::kNone, 2), 2.06);
}

// The layouts SearchLayouts returns that CheapestFit also considers: the job's cp, dp_replicate
// and expert degrees, TP and PP doublings of the job's (DeepSpeed: the job's own TP and PP, its
// ZeRO stage being its lever), AC at least the job's.
bool CheapestFitConsiders(const Config& job, const LayoutResult& l) {
  const Parallelism& now = job.parallelism;
  const Parallelism& p = l.config.parallelism;
  const bool deepspeed = job.framework == Framework::kDeepspeed;
  auto doubling = [deepspeed](std::int64_t from, std::int64_t to) {
    if (deepspeed) return from == to;
    for (std::int64_t d = from; d <= to; d *= 2)
      if (d == to) return true;
    return false;
  };
  return p.cp == now.cp && p.dp_replicate == now.dp_replicate && p.ep == now.ep &&
         p.etp == now.etp && doubling(now.tp, p.tp) && doubling(now.pp, p.pp) &&
         l.config.activation_checkpoint.mode >= job.activation_checkpoint.mode;
}

// Jobs that do not fit, one per framework: CheapestFit's combination (within the job's batch) is
// the first layout of the full search among the candidates both consider, at the same cost.
TEST(CostProxyTest, CheapestFitIsTheSearchsCheapestLayout) {
  const struct {
    const char* config;
    std::vector<std::pair<std::string, std::string>> settings;
  } jobs[] = {
      {R"({"model": "llama3-8b", "device": "a100-40gb"})",
       {{"ws", "8"}, {"ac", "none"}, {"b", "4"}, {"s", "4096"}}},
      {R"({"model": "llama3-8b", "device": "a100-40gb", "framework": "torchtitan-npu"})",
       {{"ws", "8"}, {"ac", "none"}, {"b", "4"}, {"s", "4096"}}},
      {R"({"model": "llama3-8b", "device": "a100-40gb", "framework": "megatron"})",
       {{"ws", "8"}, {"ac", "none"}, {"b", "4"}, {"s", "4096"}, {"zero", "1"}}},
      {R"({"model": "llama3-70b", "device": "h100-80gb", "framework": "deepspeed"})",
       {{"ws", "8"}, {"ac", "none"}, {"b", "2"}, {"s", "4096"}, {"zero", "3"}}},
  };
  for (const auto& j : jobs) {
    const Config job = With(MustParse(j.config), j.settings);
    const std::string name = FrameworkName(job.framework);
    ASSERT_FALSE(EstimateMemory(job).budget.fits) << name;
    const Recommendation cheapest = CheapestFit(job);
    ASSERT_FALSE(cheapest.changes.empty()) << name;
    Result<Config> chosen = ApplySettings(job, cheapest.changes, TestPresets());
    ASSERT_TRUE(chosen.ok()) << name;
    const Config& c = chosen.value();
    EXPECT_EQ(c.training.local_batch_size, job.training.local_batch_size) << name;

    const SearchResult all = SearchLayouts(job, SearchOptions{});
    const LayoutResult* first = nullptr;
    for (const LayoutResult& l : all.layouts) {
      if (CheapestFitConsiders(job, l)) {
        first = &l;
        break;
      }
    }
    ASSERT_NE(first, nullptr) << name;
    const Layout layout = ResolveLayout(c).value();
    EXPECT_EQ(first->cost, LayoutCost(job, layout, c.activation_checkpoint, c.optimizer,
                                      c.training.local_batch_size))
        << name;
    const Parallelism& p = first->config.parallelism;
    EXPECT_EQ(p.tp, layout.tp) << name;
    EXPECT_EQ(p.pp, layout.pp) << name;
    EXPECT_EQ(first->config.activation_checkpoint.mode, c.activation_checkpoint.mode) << name;
    EXPECT_EQ(first->config.optimizer.swap_optimizer, c.optimizer.swap_optimizer) << name;
    EXPECT_EQ(first->config.optimizer.offload, c.optimizer.offload) << name;
    EXPECT_EQ(first->per_device.total, EstimateMemory(c).per_device.total) << name;
  }
}

}  // namespace
}  // namespace trainmem
