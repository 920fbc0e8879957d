// Layout search and heatmaps (core/search/search.h): the search returns exactly what a brute force
// over every 7-tuple of divisors accepts, ranks deterministically by its cost proxy, explains empty
// results, and every returned config reproduces its bytes; heatmap cells are plain estimates.
#include "core/search/search.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/report/report.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;
using testing::TestPresets;
using testing::With;

// A layout as the tests compare them: the seven degrees, AC mode and optimizer placement.
using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                       std::int64_t, std::int64_t, AcMode, bool, bool>;

Key KeyOf(const Config& c) {
  const Parallelism& p = c.parallelism;
  return {p.dp_replicate,
          p.dp_shard,
          p.tp,
          p.pp,
          p.cp,
          p.ep,
          p.etp,
          c.activation_checkpoint.mode,
          c.optimizer.swap_optimizer,
          c.optimizer.offload};
}

// The reference, written plainly: every 7-tuple of divisors of world_size × {no AC, selective
// "op", full} × {optimizer on the device, off it}, kept when ValidateConfig accepts it and
// EstimateMemory says it fits. Off the device means swap_optimizer on torchtitan-npu and
// Megatron, optimizer.offload on DeepSpeed and torchtune; torchtitan has neither, so it gets
// no off-device variant. Three restrictions mirror the search's definition: tp ≤ max_tp; a
// dense model only gets ep = etp = 1 (ValidateConfig accepts any etp there, which would list
// the same layout under several names); Megatron and DeepSpeed have one data-parallel group,
// listed as dp_shard (dp_replicate = 1), for the same reason.
// Every 7-tuple (dp_replicate, dp_shard, tp, pp, cp, ep, etp) of divisors of world_size.
std::vector<std::array<std::int64_t, 7>> AllDivisorTuples(std::int64_t world) {
  std::vector<std::int64_t> d;
  for (std::int64_t i = 1; i <= world; ++i) {
    if (world % i == 0) d.push_back(i);
  }
  std::vector<std::array<std::int64_t, 7>> tuples;
  std::array<std::size_t, 7> digit{};  // an odometer over indices into d
  while (true) {
    std::array<std::int64_t, 7> t;
    for (std::size_t k = 0; k < 7; ++k) t[k] = d[digit[k]];
    tuples.push_back(t);
    std::size_t k = 0;
    while (k < 7 && ++digit[k] == d.size()) digit[k++] = 0;
    if (k == 7) return tuples;
  }
}

std::map<Key, std::int64_t> BruteForce(const Config& base, std::int64_t max_tp) {
  const bool dense = base.model.num_experts == 0;
  // MindSpeed (Megatron on Ascend) and torchtitan-npu swap; Megatron-LM on a GPU, DeepSpeed and
  // torchtune offload.
  const bool megatron_lm = base.framework == Framework::kMegatron && !DeviceIsAscend(base.device);
  const bool swaps = base.framework == Framework::kTorchtitanNpu ||
                     (base.framework == Framework::kMegatron && !megatron_lm);
  const bool offloads = base.framework == Framework::kDeepspeed ||
                        base.framework == Framework::kTorchtune || megatron_lm;
  std::map<Key, std::int64_t> accepted;
  const bool one_dp_group =
      base.framework == Framework::kMegatron || base.framework == Framework::kDeepspeed;
  for (const auto& [dpr, dps, tp, pp, cp, ep, etp] : AllDivisorTuples(base.world_size)) {
    if (tp > max_tp || (dense && (ep != 1 || etp != 1))) continue;
    if (one_dp_group && dpr != 1) continue;
    for (AcMode ac : {AcMode::kNone, AcMode::kSelective, AcMode::kFull}) {
      for (bool host : {false, true}) {
        if (host && !swaps && !offloads) continue;
        Config c = base;
        c.parallelism.dp_replicate = dpr;
        c.parallelism.dp_shard = dps;
        c.parallelism.tp = tp;
        c.parallelism.pp = pp;
        c.parallelism.cp = cp;
        c.parallelism.ep = ep;
        c.parallelism.etp = etp;
        c.activation_checkpoint.mode = ac;
        if (ac == AcMode::kSelective) c.activation_checkpoint.selective_ac_option = "op";
        c.optimizer.swap_optimizer = host && swaps;
        c.optimizer.offload = host && !swaps;
        if (!ValidateConfig(c).empty()) continue;
        const Estimate e = EstimateMemory(c);
        if (e.budget.fits) accepted[KeyOf(c)] = e.per_device.total;
      }
    }
  }
  return accepted;
}

void ExpectMatchesBruteForce(const Config& base, std::int64_t max_tp) {
  SearchOptions options;
  options.max_tp = max_tp;
  const SearchResult r = SearchLayouts(base, options);
  const std::map<Key, std::int64_t> expected = BruteForce(base, max_tp);
  std::map<Key, std::int64_t> found;
  for (const LayoutResult& l : r.layouts) {
    EXPECT_TRUE(l.fits);
    EXPECT_TRUE(found.emplace(KeyOf(l.config), l.per_device.total).second) << "listed twice";
  }
  EXPECT_EQ(found, expected) << r.message;
  // Meaningful only if some valid layouts fit and some do not.
  EXPECT_FALSE(expected.empty()) << r.message;
  EXPECT_LT(expected.size(), r.valid) << r.message;
  EXPECT_EQ(r.evaluated, r.valid);  // no limit: every valid candidate is estimated
  EXPECT_GE(r.valid, r.layouts.size());
}

Config Job(const std::string& model, const std::string& device, std::int64_t world,
           const std::string& framework = "torchtitan") {
  return MustParse(R"({"model": ")" + model + R"(", "device": ")" + device +
                   R"(", "framework": ")" + framework + R"(", "world_size": )" +
                   std::to_string(world) +
                   R"(, "training": {"local_batch_size": 4, "seq_len": 4096}})");
}

// A sequence that sequence parallelism would have to pad (8191 over TP 2, 4, 8) is a valid job
// but not a layout the search offers: every layout it lists keeps TP 1.
TEST(SearchTest, LayoutsThatWouldPadTheSequenceAreNotOffered) {
  Config base = Job("llama3-8b", "h100-80gb", 8, "megatron");
  base.training.seq_len = 8191;
  base.training.local_batch_size = 1;
  const SearchResult r = SearchLayouts(base, {});
  ASSERT_FALSE(r.layouts.empty()) << r.message;
  for (const LayoutResult& l : r.layouts) EXPECT_EQ(l.config.parallelism.tp, 1);
}

TEST(SearchTest, DenseWorld8MatchesBruteForce) {
  ExpectMatchesBruteForce(Job("llama3-8b", "a100-40gb", 8), 8);
}

TEST(SearchTest, DenseWorld16MatchesBruteForceIncludingCrossNodeTp) {
  ExpectMatchesBruteForce(Job("llama3-8b", "a100-40gb", 16), 16);
}

TEST(SearchTest, MoeWorld8MatchesBruteForceWithSwapOptimizer) {
  ExpectMatchesBruteForce(Job("qwen3-30b-a3b", "ascend-910b", 8, "torchtitan-npu"), 8);
}

TEST(SearchTest, MoeWorld16MatchesBruteForceWithOptimizerOffload) {
  const Config base = Job("mixtral-8x7b", "h100-80gb", 16);
  ExpectMatchesBruteForce(base, 16);
  const SearchResult r = SearchLayouts(base, {});
  EXPECT_TRUE(std::any_of(r.layouts.begin(), r.layouts.end(),
                          [](const LayoutResult& l) { return l.config.parallelism.ep > 1; }));
}

// Megatron's MoE parallel folding: etp need not be 1 or tp (etp·ep·pp | world), and the one
// data-parallel group is listed once. The brute force checks every layout ValidateConfig takes.
TEST(SearchTest, MegatronMoeWorld8MatchesBruteForceWithFoldedExperts) {
  const Config base = Job("mixtral-8x7b", "h100-80gb", 8, "megatron");
  ExpectMatchesBruteForce(base, 8);
  SearchOptions options;
  options.vary_ac = false;
  options.vary_swap = false;
  bool folded = false;  // some layout with etp ∉ {1, tp} is valid (whether or not it fits)
  for (std::int64_t tp : {1, 2, 4, 8}) {
    for (std::int64_t etp : {1, 2, 4, 8}) {
      Config c = base;
      c.parallelism.tp = tp;
      c.parallelism.etp = etp;
      c.parallelism.ep = 2;
      c.parallelism.dp_shard = 8 / tp;
      if (etp != 1 && etp != tp && ValidateConfig(c).empty()) folded = true;
    }
  }
  EXPECT_TRUE(folded);
}

TEST(SearchTest, DeepspeedMoeWorld8MatchesBruteForce) {
  ExpectMatchesBruteForce(Job("mixtral-8x7b", "h100-80gb", 8, "deepspeed"), 8);
}

TEST(SearchTest, DefaultMaxTpIsDevicesPerNode) {
  const Config base = Job("llama3-8b", "a100-40gb", 16);
  ExpectMatchesBruteForce(base, base.device.devices_per_node);
  for (const LayoutResult& l : SearchLayouts(base, {}).layouts)
    EXPECT_LE(l.config.parallelism.tp, 8);
}

TEST(SearchTest, RankingIsDeterministicAndSortedByCost) {
  const Config base = Job("mixtral-8x7b", "h100-80gb", 16);
  const SearchResult a = SearchLayouts(base, {});
  const SearchResult b = SearchLayouts(base, {});
  ASSERT_EQ(a.layouts.size(), b.layouts.size());
  for (std::size_t i = 0; i < a.layouts.size(); ++i) {
    EXPECT_EQ(KeyOf(a.layouts[i].config), KeyOf(b.layouts[i].config)) << "rank " << i;
  }
  for (std::size_t i = 1; i < a.layouts.size(); ++i) {
    const LayoutResult& prev = a.layouts[i - 1];
    const LayoutResult& next = a.layouts[i];
    ASSERT_LE(prev.cost, next.cost) << "rank " << i;
    if (prev.cost == next.cost)
      EXPECT_LE(prev.per_device.total, next.per_device.total) << "rank " << i;
  }
}

TEST(SearchTest, LimitReturnsTheCheapestPrefixWithFewerEstimates) {
  const Config base = Job("llama3-70b", "h100-80gb", 64);
  const SearchResult all = SearchLayouts(base, {});
  SearchOptions options;
  options.limit = 5;
  const SearchResult top = SearchLayouts(base, options);
  ASSERT_EQ(top.layouts.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(KeyOf(top.layouts[i].config), KeyOf(all.layouts[i].config)) << "rank " << i;
  }
  EXPECT_EQ(top.valid, all.valid);
  EXPECT_LT(top.evaluated, all.evaluated);
}

TEST(SearchTest, NoValidLayoutGivesAnEmptyListAndTheReason) {
  Config base = Job("llama3-8b", "h100-80gb", 8);
  base.world_size = kMaxWorldSize * 2;
  SearchResult r = SearchLayouts(base, {});
  EXPECT_TRUE(r.layouts.empty());
  EXPECT_EQ(r.valid, 0u);
  EXPECT_NE(r.message.find("no valid layout"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("at most 1048576"), std::string::npos) << r.message;

  // A rule no layout can satisfy: every candidate is rejected for the same reason.
  base = Job("llama3-8b", "h100-80gb", 8);
  base.training.mtp = true;  // llama has no MTP modules
  r = SearchLayouts(base, {});
  EXPECT_TRUE(r.layouts.empty());
  EXPECT_EQ(r.message.rfind("world_size 8: no valid layout", 0), 0u) << r.message;
  EXPECT_NE(r.message.find("training.mtp"), std::string::npos) << r.message;
}

TEST(SearchTest, NothingFitsNamesTheSmallest) {
  const SearchResult r = SearchLayouts(Job("llama3-70b", "h100-80gb", 8), {});
  EXPECT_TRUE(r.layouts.empty());
  EXPECT_GT(r.valid, 0u);
  EXPECT_NE(r.message.find("valid layouts, none fits: the smallest needs"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find(" GiB"), std::string::npos) << r.message;
}

TEST(SearchTest, EveryConfigReproducesItsBytes) {
  SearchOptions options;
  options.limit = 40;
  const SearchResult r =
      SearchLayouts(Job("qwen3-30b-a3b", "ascend-910b", 16, "torchtitan-npu"), options);
  ASSERT_FALSE(r.layouts.empty());
  const nlohmann::json j = SearchToJson(r);
  ASSERT_EQ(j["layouts"].size(), r.layouts.size());
  for (std::size_t i = 0; i < r.layouts.size(); ++i) {
    const nlohmann::json& row = j["layouts"][i];
    Result<Config> back = ConfigFromJson(row["config"], TestPresets());
    ASSERT_TRUE(back.ok()) << FormatError(back.errors().front());
    const Estimate e = EstimateMemory(back.value());
    EXPECT_EQ(EstimateToJson(e)["per_device_bytes"], row["per_device_bytes"]) << "rank " << i;
    EXPECT_EQ(e.per_device.total, r.layouts[i].per_device.total) << "rank " << i;
    EXPECT_TRUE(e.budget.fits);
  }
}

TEST(SearchTest, JsonFollowsTheSchema) {
  SearchOptions options;
  options.limit = 3;
  const SearchResult r = SearchLayouts(Job("llama3-8b", "h100-80gb", 8), options);
  const nlohmann::json j = SearchToJson(r);
  EXPECT_EQ(j["schema"], "trainmem.search/v1");
  EXPECT_EQ(j["evaluated"], r.evaluated);
  EXPECT_EQ(j["valid"], r.valid);
  EXPECT_EQ(j["message"], r.message);
  ASSERT_EQ(j["layouts"].size(), 3u);
  EXPECT_EQ(j["layouts"][0]["fits"], true);
  EXPECT_EQ(j["layouts"][0]["cost"], r.layouts[0].cost);
  EXPECT_EQ(j["layouts"][0]["cost_note"], r.layouts[0].cost_note);
}

TEST(SearchTest, OptimizerPlacementFollowsTheFramework) {
  auto host_placements = [](const Config& base, SearchOptions options) {
    std::set<std::pair<bool, bool>> seen;  // (swap_optimizer, offload)
    for (const LayoutResult& l : SearchLayouts(base, options).layouts)
      seen.emplace(l.config.optimizer.swap_optimizer, l.config.optimizer.offload);
    return seen;
  };
  const Config npu = Job("qwen3-30b-a3b", "ascend-910b", 16, "torchtitan-npu");
  EXPECT_EQ(host_placements(npu, {}),
            (std::set<std::pair<bool, bool>>{{false, false}, {true, false}}));
  // torchtitan has no optimizer offload (frameworks.cpp): the states stay on the device.
  const Config cuda = Job("llama3-8b", "a100-40gb", 8);
  EXPECT_EQ(host_placements(cuda, {}), (std::set<std::pair<bool, bool>>{{false, false}}));
  const Config deepspeed = Job("llama3-8b", "a100-40gb", 8, "deepspeed");
  EXPECT_EQ(host_placements(deepspeed, {}),
            (std::set<std::pair<bool, bool>>{{false, false}, {false, true}}));
  SearchOptions fixed;
  fixed.vary_swap = false;
  fixed.vary_ac = false;
  const SearchResult r = SearchLayouts(cuda, fixed);
  ASSERT_FALSE(r.layouts.empty());
  for (const LayoutResult& l : r.layouts) {
    EXPECT_EQ(l.config.activation_checkpoint.mode, cuda.activation_checkpoint.mode);
    EXPECT_EQ(l.config.activation_checkpoint.selective_ac_option,
              cuda.activation_checkpoint.selective_ac_option);
    EXPECT_FALSE(l.config.optimizer.offload);
  }
}

// The proxy's terms (search_cost.cpp), derived by hand for layouts that llama3-8b on 16 × H100
// (local_batch_size 4, one-sample microbatches) can run, on nodes of 4 devices so that tp 8
// crosses nodes. torchtune, because it has an optimizer offload (torchtitan has none).
TEST(SearchTest, CostProxyTermsByHand) {
  Config base = Job("llama3-8b", "h100-80gb", 16, "torchtune");
  base.device.devices_per_node = 4;
  SearchOptions options;
  options.max_tp = 16;
  const SearchResult r = SearchLayouts(base, options);
  auto cost_of = [&r](std::int64_t dps, std::int64_t tp, std::int64_t pp, AcMode ac, bool offload) {
    for (const LayoutResult& l : r.layouts) {
      if (KeyOf(l.config) == Key{1, dps, tp, pp, 1, 1, 1, ac, false, offload}) return l.cost;
    }
    ADD_FAILURE() << "layout dp_shard " << dps << " tp " << tp << " pp " << pp << " not found";
    return 0.0;
  };
  // FSDP 16: 1 + 0.01·log2(16); full AC ×1.33.
  EXPECT_NEAR(cost_of(16, 1, 1, AcMode::kFull, false), 1.33 * 1.04, 1e-6);
  // TP 2 in-node, FSDP 8, selective op AC, offload: 1.07 × (1 + 0.04 + 0.03) × 1.15.
  EXPECT_NEAR(cost_of(8, 2, 1, AcMode::kSelective, true), 1.07 * 1.07 * 1.15, 1e-6);
  // PP 2 with 4 microbatches: bubble time × (1 + 1/4); FSDP 8 +3%.
  EXPECT_NEAR(cost_of(8, 1, 2, AcMode::kFull, false), 1.33 * 1.25 * 1.03, 1e-6);
  // TP 8 on 4-device nodes: 2 in-node doublings, one across; FSDP 2: 1 + 0.08 + 0.5 + 0.01.
  EXPECT_NEAR(cost_of(2, 8, 1, AcMode::kFull, false), 1.33 * 1.59, 1e-6);
}

// --- heatmaps ------------------------------------------------------------------------------

void ExpectCellsAreEstimates(const Config& base, const HeatmapAxis& x, const HeatmapAxis& y) {
  const Heatmap map = ComputeHeatmap(base, x, y);
  ASSERT_TRUE(map.error.empty()) << map.error;
  ASSERT_EQ(map.cells.size(), x.values.size() * y.values.size());
  const bool degree = HeatmapKeyMovesRanks(x.key) || HeatmapKeyMovesRanks(y.key);
  for (std::size_t j = 0; j < y.values.size(); ++j) {
    for (std::size_t i = 0; i < x.values.size(); ++i) {
      std::vector<std::pair<std::string, std::string>> settings = {
          {x.key, std::to_string(x.values[i])}, {y.key, std::to_string(y.values[j])}};
      if (degree) settings.emplace_back("dp", "-1");
      Result<Config> c = ApplySettings(base, settings, TestPresets());
      const HeatmapCell& cell = map.at(i, j);
      EXPECT_EQ(cell.valid, c.ok())
          << x.key << "=" << x.values[i] << " " << y.key << "=" << y.values[j];
      if (!c.ok()) {
        EXPECT_EQ(cell.total_bytes, 0);
        EXPECT_FALSE(cell.fits);
        EXPECT_FALSE(cell.reason.empty());
        continue;
      }
      const Estimate e = EstimateMemory(c.value());
      EXPECT_EQ(cell.total_bytes, e.per_device.total);
      EXPECT_EQ(cell.per_device.activations, e.per_device.activations);
      EXPECT_EQ(cell.per_device.peak_allocated, e.per_device.peak_allocated);
      EXPECT_EQ(cell.fits, e.budget.fits);
      EXPECT_EQ(map.usable_bytes, e.budget.usable_bytes);
    }
  }
}

TEST(SearchHeatmapTest, BatchBySeqCellsAreEstimates) {
  ExpectCellsAreEstimates(Job("llama3-8b", "h100-80gb", 8), {"b", {1, 2, 4, 8, 16}},
                          {"s", {1024, 2048, 8192, 32768}});
}

TEST(SearchHeatmapTest, TpByPpCellsAreEstimatesAndInvalidOnesAreMarked) {
  const Config base = Job("llama3-8b", "h100-80gb", 16);
  ExpectCellsAreEstimates(base, {"tp", {1, 2, 3, 4, 8}}, {"pp", {1, 2, 4, 32}});
  // 24 ranks split by tp 3, but 32 heads do not.
  const Heatmap map = ComputeHeatmap(Job("llama3-8b", "h100-80gb", 24), {"tp", {3}}, {"pp", {1}});
  EXPECT_FALSE(map.at(0, 0).valid);
  EXPECT_NE(map.at(0, 0).reason.find("not divisible by tensor_parallel_degree 3"),
            std::string::npos)
      << map.at(0, 0).reason;
}

TEST(SearchHeatmapTest, EpByEtpOnMoeAndDottedKeys) {
  const Config base = With(Job("qwen3-30b-a3b", "h100-80gb", 16), {{"tp", "2"}});
  ExpectCellsAreEstimates(base, {"ep", {1, 2, 4, 8, 16}}, {"etp", {1, 2, 4}});
  const Heatmap dotted =
      ComputeHeatmap(base, {"parallelism.expert_parallel_degree", {2}}, {"etp", {1}});
  ASSERT_TRUE(dotted.error.empty()) << dotted.error;
  EXPECT_EQ(dotted.at(0, 0).total_bytes,
            ComputeHeatmap(base, {"ep", {2}}, {"etp", {1}}).at(0, 0).total_bytes);
}

TEST(SearchHeatmapTest, DegreeAxesAreTheOnesThatMoveRanks) {
  for (const char* key :
       {"tp", "pp", "cp", "ep", "etp", "dpr", "ws", "parallelism.tensor_parallel_degree"}) {
    EXPECT_TRUE(HeatmapKeyMovesRanks(key)) << key;
  }
  for (const char* key : {"b", "s", "dp", "mbs", "hidden"})
    EXPECT_FALSE(HeatmapKeyMovesRanks(key)) << key;
  EXPECT_EQ(HeatmapKeys().size(), 11u);
}

TEST(SearchHeatmapTest, UnknownKeyIsAnErrorNotAGrid) {
  const Heatmap map = ComputeHeatmap(Job("llama3-8b", "h100-80gb", 8), {"hidden", {1}}, {"b", {1}});
  EXPECT_TRUE(map.cells.empty());
  EXPECT_NE(map.error.find("'hidden'"), std::string::npos) << map.error;
}

TEST(SearchHeatmapTest, ColourScaleSpansValidCells) {
  const Heatmap map =
      ComputeHeatmap(Job("llama3-8b", "h100-80gb", 8), {"b", {1, 2, 4}}, {"tp", {1, 3, 8}});
  std::int64_t lo = INT64_MAX, hi = 0;
  for (const HeatmapCell& c : map.cells) {
    if (!c.valid) continue;
    lo = std::min(lo, c.total_bytes);
    hi = std::max(hi, c.total_bytes);
  }
  EXPECT_EQ(map.min_total_bytes, lo);
  EXPECT_EQ(map.max_total_bytes, hi);
  EXPECT_EQ(HeatmapToJson(map)["cells"].size(), 9u);
}

}  // namespace
}  // namespace trainmem
