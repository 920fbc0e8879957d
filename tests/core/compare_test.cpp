// Measured beside estimated: like with like, the right pipeline stage, the sentence on the
// largest gap, the JSON schema and the calibration row.
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/compare/compare.h"
#include "core/compare/measured_link.h"
#include "core/compare/measurement.h"
#include "core/link/share_link.h"
#include "core/link/share_link_detail.h"
#include "core/report/report.h"
#include "test_support.h"

namespace trainmem::compare {
namespace {

using trainmem::testing::MustParse;

// Llama 3 8B on 8 GPUs with TP 2 × PP 4 (dp 1): two ranks per stage.
Estimate PipelineEstimate() {
  return EstimateMemory(MustParse(R"({"model": "llama3-8b", "framework": "megatron",
      "world_size": 8, "parallelism": {"tensor_parallel_degree": 2,
      "pipeline_parallel_degree": 4, "data_parallel_shard_degree": 1}})"));
}

Measurement Read(const std::string& text) {
  Result<Measurement> r = ReadMeasurement(text);
  EXPECT_TRUE(r.ok());
  return r.ok() ? r.value() : Measurement{};
}

TEST(CompareTest, MegatronRanksMapToTheirPipelineStage) {
  const Estimate e = PipelineEstimate();
  ASSERT_EQ(e.stages.size(), 4u);
  // Rank 5 → stage 5 / (8 / 4) = 2. Rank 1 → stage 0.
  const Measurement m = Read(
      "[Rank 1] (after 1 iterations) memory (MB) | allocated: 100.00 | max allocated: 20000.00 "
      "| reserved: 300.00 | max reserved: 400.00\n"
      "[Rank 5] (after 1 iterations) memory (MB) | allocated: 100.00 | max allocated: 30000.00 "
      "| reserved: 300.00 | max reserved: 400.00\n");
  const Comparison c = CompareWithEstimate(e, m);
  const MetricRow* row = nullptr;
  for (const MetricRow& r : c.metrics) {
    if (r.metric == Metric::kMaxAllocated) row = &r;
  }
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->rank, 5);  // the largest measured
  EXPECT_EQ(row->stage, 2);
  EXPECT_EQ(row->measured_bytes, 30000LL << 20);
  EXPECT_EQ(row->estimate_bytes, e.stages[2].bytes.peak_allocated);
  EXPECT_NE(row->stage_basis.find("stage 2 for rank 5"), std::string::npos) << row->stage_basis;
  ASSERT_EQ(row->per_rank.size(), 2u);
  EXPECT_EQ(row->per_rank[0].stage, 0);
  EXPECT_EQ(row->per_rank[0].estimate_bytes, e.stages[0].bytes.peak_allocated);
  // error = (estimate − measured) / measured, as bench/accuracy.cpp reports it.
  const double measured = 30000.0 * 1048576.0;
  EXPECT_NEAR(row->error, (static_cast<double>(row->estimate_bytes) - measured) / measured, 1e-12);
}

TEST(CompareTest, UnknownRankUsesTheLargestStageAndSaysSo) {
  const Estimate e = PipelineEstimate();
  const Comparison c = CompareWithEstimate(e, Read("step: 1 loss: 2 memory: 50.00GiB(60%)\n"));
  ASSERT_EQ(c.metrics.size(), 1u);
  EXPECT_EQ(c.metrics[0].metric, Metric::kReserved);
  EXPECT_EQ(c.metrics[0].stage, e.worst_stage);
  EXPECT_EQ(c.metrics[0].estimate_bytes, e.per_device.total);
  EXPECT_NE(c.metrics[0].stage_basis.find("does not name the rank"), std::string::npos);
}

TEST(CompareTest, LikeWithLike) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "world_size": 8})"));
  const MemoryBreakdown& b = e.per_device;
  const Comparison c = CompareWithEstimate(
      e,
      Read("[2024-05-01 12:00:00,123] [INFO] [utils.py:792:see_memory_usage] MA 10.00 GB  "
           "Max_MA 20.00 GB  CA 30.00 GB  Max_CA 31 GB \n"
           "| N/A   36C    P0    121W / 700W |  40000MiB / 81559MiB |     98%      Default |\n"));
  std::map<Metric, std::int64_t> estimate;
  for (const MetricRow& r : c.metrics) estimate[r.metric] = r.estimate_bytes;
  EXPECT_EQ(estimate.at(Metric::kReserved), b.total);
  EXPECT_EQ(estimate.at(Metric::kMaxAllocated), b.peak_allocated);
  EXPECT_EQ(estimate.at(Metric::kAllocated), b.parameters + b.gradients + b.optimizer_states);
  EXPECT_EQ(estimate.at(Metric::kDeviceUsed), b.total);
  for (const MetricRow& r : c.metrics) {
    if (r.metric == Metric::kDeviceUsed) {
      EXPECT_NE(r.estimate_basis.find("runtime context"), std::string::npos);
    }
  }
}

TEST(CompareTest, SentenceNamesTheLargestComponentGap) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "world_size": 8})"));
  const MemoryBreakdown& b = e.per_device;
  ASSERT_GT(b.activations, b.parameters);
  Measurement m;
  m.components.present = true;
  m.components.parameters = b.parameters;
  m.components.gradients = b.gradients;
  m.components.optimizer_states = b.optimizer_states;
  m.components.activations = static_cast<std::int64_t>(std::llround(b.activations * 1.4));
  m.components.temporary = b.temporary;
  m.components.source = "test";
  const Comparison c = CompareWithEstimate(e, m);
  ASSERT_EQ(c.components.size(), 5u);
  EXPECT_EQ(c.sentence.rfind("Activations measured 1.4\xC3\x97 the estimate", 0), 0u) << c.sentence;
  EXPECT_NE(c.sentence.find("activation checkpointing"), std::string::npos);
}

TEST(CompareTest, SentenceOnTotalsWhenNoBreakdown) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "world_size": 8})"));
  // A measured reserved peak 1.25× the estimate.
  Measurement m;
  Peak p;
  p.metric = Metric::kReserved;
  p.bytes = e.per_device.total + e.per_device.total / 4;
  m.peaks.push_back(p);
  const Comparison c = CompareWithEstimate(e, m);
  EXPECT_EQ(c.sentence.rfind("Max reserved measured 1.25\xC3\x97 the estimate", 0), 0u)
      << c.sentence;
  EXPECT_NE(c.sentence.find("misses " + FormatGiB(e.per_device.total / 4)), std::string::npos)
      << c.sentence;
}

// An out-of-memory error gives what the run held when it failed, a lower bound of what it
// needed: the sentence never calls the estimate too high from it. The same error (75.12 GiB
// allocated + a 1.25 GiB request = 76.37 GiB needed) read against three estimates.
TEST(CompareTest, OutOfMemorySentenceReadsTheFiguresAsLowerBounds) {
  const std::string error =
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB. GPU 0 has a total "
      "capacity of 79.11 GiB of which 1.18 GiB is free. Including non-PyTorch memory, this "
      "process has 77.91 GiB memory in use. Of the allocated memory 75.12 GiB is allocated by "
      "PyTorch, and 1.98 GiB is reserved by PyTorch but unallocated.\n";
  const Measurement m = Read(error);
  ASSERT_TRUE(m.out_of_memory);
  // format_size's 75.12 GiB and 1.25 GiB, each rounded to the byte, summed.
  EXPECT_EQ(m.oom_needed_bytes, 80659485819 + 1342177280);

  // Llama 3 8B on one 80 GB GPU at batch 8 × 2048 with no checkpointing: far over the budget.
  const Estimate over = EstimateMemory(MustParse(R"({"model": "llama3-8b", "world_size": 1,
      "device": "h100-80gb", "activation_checkpoint": {"mode": "none"}})"));
  ASSERT_EQ(over.budget.verdict, Verdict::kDoesNotFit);
  const std::string predicted = CompareWithEstimate(over, m).sentence;
  EXPECT_EQ(predicted.rfind("The run ran out of memory, as the estimate predicts", 0), 0u)
      << predicted;
  EXPECT_NE(predicted.find("at least 76.37 GiB"), std::string::npos) << predicted;

  // Full checkpointing of Llama 3.2 1B sharded over 8 GPUs fits with room: the estimate misses at
  // least needed − its peak allocated.
  const Estimate fits = EstimateMemory(MustParse(R"({"model": "llama3.2-1b",
      "world_size": 8, "device": "h100-80gb", "activation_checkpoint": {"mode": "full"}})"));
  ASSERT_EQ(fits.budget.verdict, Verdict::kFits);
  const std::string missed = CompareWithEstimate(fits, m).sentence;
  EXPECT_NE(missed.find("where the estimate says it fits"), std::string::npos) << missed;
  EXPECT_NE(missed.find(FormatGiB(m.oom_needed_bytes - fits.per_device.peak_allocated) +
                        " more than the estimate's peak allocated"),
            std::string::npos)
      << missed;
  EXPECT_EQ(missed.find("too high"), std::string::npos) << missed;

  // A measured peak that is not an out-of-memory error keeps the ordinary sentence.
  EXPECT_FALSE(Read("step: 10  loss: 2.0  memory: 40.00GiB(50.00%)\n").out_of_memory);
}

TEST(CompareTest, JsonSchema) {
  const Estimate e = PipelineEstimate();
  const Comparison c = CompareWithEstimate(
      e, Read("[Rank 7] (after 1 iterations) memory (MB) | allocated: 100.00 | max allocated: "
              "20000.00 | reserved: 300.00 | max reserved: 25000.00\n"));
  const nlohmann::json j = ComparisonToJson(c);
  EXPECT_EQ(j["schema"], "trainmem.compare/v1");
  ASSERT_TRUE(j["measured"].is_array());
  const nlohmann::json& first = j["measured"][0];
  EXPECT_EQ(first["metric"], "reserved");
  EXPECT_EQ(first["peak_bytes"], 25000LL << 20);
  EXPECT_EQ(first["rank"], 7);
  EXPECT_EQ(first["stage"], 3);
  EXPECT_EQ(first["estimate_bytes"], e.stages[3].bytes.total);
  EXPECT_TRUE(first["error"].is_number());
  EXPECT_TRUE(first["source"].is_string());
  EXPECT_TRUE(j["components"].is_array());
  EXPECT_EQ(j["formats"][0], "megatron");
}

TEST(CompareTest, CalibrationRowReproducesTheEstimate) {
  const Estimate e = PipelineEstimate();
  const Comparison c = CompareWithEstimate(
      e, Read("[Rank 7] (after 1 iterations) memory (MB) | allocated: 100.00 | max allocated: "
              "20000.00 | reserved: 300.00 | max reserved: 25000.00\n"));
  Result<nlohmann::json> row = CalibrationRow(e, c, "my-run", "job 42 log");
  ASSERT_TRUE(row.ok());
  const nlohmann::json& j = row.value();
  EXPECT_EQ(j["id"], "my-run");
  EXPECT_EQ(j["source"], "job 42 log");
  EXPECT_EQ(j["measured"]["metric"], "reserved");
  EXPECT_EQ(j["measured"]["stage"], "last");      // rank 7 holds stage 3 of 4
  EXPECT_EQ(j["measured"]["peak_gib"], 24.4141);  // 25000 / 1024 = 24.4140625
  Result<Config> again = ConfigFromJson(j["config"], trainmem::testing::TestPresets());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(EstimateMemory(again.value()).per_device.total, e.per_device.total);

  Measurement device_only =
      Read("| N/A   36C    P0    121W / 700W |  40000MiB / 81559MiB |     98%      Default |\n");
  EXPECT_FALSE(CalibrationRow(e, CompareWithEstimate(e, device_only), "x", "y").ok());
}

// The share link carries the measurement as `m=name:size[@rN],…` in GiB (3 decimals).
TEST(CompareTest, MeasuredLinkRoundTrip) {
  Measurement m;
  Peak reserved;
  reserved.metric = Metric::kReserved;
  reserved.bytes = 78189879624;  // 72.82 GiB
  reserved.rank = 3;
  m.peaks.push_back(reserved);
  m.components.present = true;
  m.components.activations = 20LL << 30;
  m.components.parameters = 3LL << 29;  // 1.5 GiB
  const std::string value = EncodeMeasuredLinkValue(m);
  EXPECT_EQ(value, "reserved:72.82GiB@r3,params:1.5GiB,grads:0GiB,optim:0GiB,act:20GiB,temp:0GiB");
  // Through a whole link: the page key survives the fragment's encoding and decoding.
  const std::string fragment = "v1&model=llama3-8b&m=" + detail::PercentEncodePageValue(value);
  EXPECT_NE(fragment.find("&m=reserved:72.82GiB@r3,params:"), std::string::npos) << fragment;
  const DecodedLink link = DecodeShareFragment(fragment, trainmem::testing::TestPresets());
  EXPECT_TRUE(link.errors.empty());
  ASSERT_EQ(link.page_keys.size(), 1u);
  Result<Measurement> back = DecodeMeasuredLinkValue(link.page_keys[0].second);
  ASSERT_TRUE(back.ok());
  const Peak* p = LargestPeak(back.value(), Metric::kReserved);
  ASSERT_NE(p, nullptr);
  // 72.82 GiB to the byte: the link keeps three decimals of GiB.
  EXPECT_EQ(p->bytes, 78189879624);
  EXPECT_EQ(p->rank, 3);
  EXPECT_EQ(back.value().components.activations, 20LL << 30);
  EXPECT_EQ(back.value().components.total, (20LL << 30) + (3LL << 29));
}

TEST(CompareTest, MeasuredLinkBadItemsAreNamedAndTheRestKept) {
  Result<Measurement> r =
      DecodeMeasuredLinkValue("reserved:84.3GiB,bogus:1GiB,max_allocated:-2GiB");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().peaks.size(), 1u);
  EXPECT_EQ(r.value().peaks[0].bytes, 90516435763);  // 84.3 × 2^30 = 90516435763.2
  ASSERT_EQ(r.value().skipped.size(), 2u);
  EXPECT_NE(r.value().skipped[0].message.find("'bogus'"), std::string::npos);
  EXPECT_NE(r.value().skipped[1].message.find("max_allocated:-2GiB"), std::string::npos);
  EXPECT_FALSE(DecodeMeasuredLinkValue("nonsense").ok());
  EXPECT_FALSE(DecodeMeasuredLinkValue("reserved:nanGiB").ok());
}

}  // namespace
// A run that stopped before its first step logged only what model init held: that is set
// beside the estimate's parameters, and the sentence does not call the total too high.
TEST(CompareTest, AnInitFigureAloneIsComparedWithParameters) {
  const Estimate e = EstimateMemory(MustParse(R"({"model": "llama3-8b", "world_size": 8})"));
  const Comparison c =
      CompareWithEstimate(e, Read("[titan] CUDA memory usage for model: 54.24GiB(19.62%)\n"));
  ASSERT_EQ(c.metrics.size(), 1u);
  EXPECT_TRUE(c.metrics[0].at_init);
  EXPECT_EQ(c.metrics[0].estimate_bytes, e.per_device.parameters);
  EXPECT_EQ(c.sentence.rfind("The run logged no training step", 0), 0u) << c.sentence;
  EXPECT_EQ(c.sentence.find("too high"), std::string::npos) << c.sentence;
}

}  // namespace trainmem::compare
