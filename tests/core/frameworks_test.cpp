// Which framework has swap_optimizer and which an optimizer offload (frameworks.cpp), and that
// the estimator, the advice, the exporters and the importers all follow that one answer.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/advice/advice.h"
#include "core/estimate/estimate.h"
#include "import_test_support.h"

namespace trainmem::testing {
namespace {

constexpr Framework kAll[] = {Framework::kTorchtitan, Framework::kTorchtitanNpu,
                              Framework::kMegatron, Framework::kDeepspeed, Framework::kTorchtune};

// From the frameworks' sources (frameworks.cpp cites each file): MindSpeed's --swap-optimizer
// (Megatron on Ascend) and torchtitan-npu's [optimizer] swap_optimizer; DeepSpeed's
// offload_optimizer, Megatron-Core's --optimizer-cpu-offload, torchtune's CPUOffloadOptimizer.
// torchtitan has neither (enable_cpu_offload is FSDP2's CPUOffloadPolicy).
TEST(FrameworksTest, EachFrameworksOptions) {
  EXPECT_FALSE(FrameworkHasSwapOptimizer(Framework::kTorchtitan));
  EXPECT_FALSE(FrameworkHasOptimizerOffload(Framework::kTorchtitan));
  EXPECT_TRUE(FrameworkHasSwapOptimizer(Framework::kTorchtitanNpu));
  EXPECT_FALSE(FrameworkHasOptimizerOffload(Framework::kTorchtitanNpu));
  EXPECT_TRUE(FrameworkHasSwapOptimizer(Framework::kMegatron));
  EXPECT_TRUE(FrameworkHasOptimizerOffload(Framework::kMegatron));
  EXPECT_FALSE(FrameworkHasSwapOptimizer(Framework::kDeepspeed));
  EXPECT_TRUE(FrameworkHasOptimizerOffload(Framework::kDeepspeed));
  EXPECT_FALSE(FrameworkHasSwapOptimizer(Framework::kTorchtune));
  EXPECT_TRUE(FrameworkHasOptimizerOffload(Framework::kTorchtune));

  EXPECT_STREQ(FrameworkOptimizerOptions(Framework::kMegatron).swap_optimizer, "--swap-optimizer");
  EXPECT_STREQ(FrameworkOptimizerOptions(Framework::kMegatron).offload, "--optimizer-cpu-offload");
  EXPECT_STREQ(FrameworkOptimizerOptions(Framework::kDeepspeed).offload,
               "zero_optimization.offload_optimizer");
  // The advice's one move prefers the swap (the step stays on the device) where the framework
  // has it: MindSpeed on Ascend; Megatron-LM on a GPU offloads (--optimizer-cpu-offload).
  const Device gpu = MustParse(R"({"model": "llama3-8b", "device": "h100-80gb"})").device;
  const Device npu = MustParse(R"({"model": "llama3-8b", "device": "ascend-910b"})").device;
  EXPECT_EQ(OptimizerOffDeviceKey(Framework::kTorchtitan, gpu), nullptr);
  EXPECT_STREQ(OptimizerOffDeviceKey(Framework::kMegatron, npu), "optimizer.swap_optimizer");
  EXPECT_STREQ(OptimizerOffDeviceKey(Framework::kMegatron, gpu), "optimizer.offload");
  EXPECT_STREQ(OptimizerOffDeviceKey(Framework::kTorchtune, gpu), "optimizer.offload");
}

// Megatron without the distributed optimizer: the advice shards the optimizer states first
// (zero_stage 1, kept when data parallelism lowers the total), then moves them to the host as
// the device's Megatron does it, with the distributed optimizer both moves need.
TEST(FrameworksTest, MegatronAdviceShardsTheOptimizerBeforeMovingIt) {
  for (const char* device : {"h100-80gb", "ascend-910b"}) {
    Config c =
        With(MustParse(std::string(R"({"model": "llama3-70b", "device": ")") + device + R"("})"),
             {{"fw", "megatron"}, {"ws", "8"}, {"b", "1"}, {"s", "4096"}, {"zero", "0"}});
    const Estimate e = EstimateWithAdvice(c);
    ASSERT_GE(e.recommendations.size(), 1u) << device;
    int distributed = -1, moved = -1;
    for (std::size_t i = 0; i < e.recommendations.size(); ++i) {
      const Recommendation& r = e.recommendations[i];
      if (r.kind == AdviceKind::kDistributedOptimizer && distributed < 0)
        distributed = static_cast<int>(i);
      if ((r.kind == AdviceKind::kSwapOptimizer || r.kind == AdviceKind::kOffloadOptimizer) &&
          moved < 0) {
        moved = static_cast<int>(i);
        EXPECT_EQ(r.kind, std::string(device) == "h100-80gb" ? AdviceKind::kOffloadOptimizer
                                                             : AdviceKind::kSwapOptimizer)
            << device;
        bool zero1 = false;
        for (const auto& [key, value] : r.changes) zero1 |= key == "parallelism.zero_stage";
        EXPECT_TRUE(zero1) << device;
      }
    }
    ASSERT_GE(distributed, 0) << device;
    if (moved >= 0) EXPECT_LT(distributed, moved) << device;
  }
}

Config Job(Framework f, bool swap, bool offload) {
  Config c = With(MustParse(R"({"model": "llama3-8b", "device": "h100-80gb"})"),
                  {{"ws", "8"}, {"zero", "1"}, {"ac", "full"}});
  c.framework = f;
  c.optimizer.swap_optimizer = swap;
  c.optimizer.offload = offload;
  return c;
}

bool Warns(const Estimate& e, const std::string& words) {
  for (const std::string& w : e.warnings)
    if (w.find(words) != std::string::npos) return true;
  return false;
}

// An option the framework lacks changes nothing and the estimate says so; an option it has moves
// bytes to the host. (torchtitan with swap_optimizer or offload, torchtitan-npu with offload:
// each used to move the states off the device.)
TEST(FrameworksTest, OptionsTheFrameworkLacksHaveNoEffect) {
  for (Framework f : kAll) {
    const Estimate plain = EstimateMemory(Job(f, false, false));
    for (const bool swap : {true, false}) {
      const Estimate e = EstimateMemory(Job(f, swap, !swap));
      const bool has = swap ? FrameworkHasSwapOptimizer(f) : FrameworkHasOptimizerOffload(f);
      const std::string option = swap ? "optimizer.swap_optimizer" : "optimizer.offload";
      if (has) {
        EXPECT_GT(e.host_optimizer_bytes, 0) << FrameworkName(f) << " " << option;
        EXPECT_LT(e.per_device.optimizer_states, plain.per_device.optimizer_states)
            << FrameworkName(f) << " " << option;
        EXPECT_FALSE(Warns(e, option + " has no effect")) << FrameworkName(f);
      } else {
        EXPECT_EQ(e.host_optimizer_bytes, 0) << FrameworkName(f) << " " << option;
        EXPECT_EQ(e.per_device.total, plain.per_device.total) << FrameworkName(f) << " " << option;
        EXPECT_TRUE(Warns(e, option + " has no effect with " + FrameworkName(f)))
            << FrameworkName(f);
      }
    }
  }
}

// Advice rows, ladders and combinations set only options the framework has, and a framework
// that has one gets it offered when the states are what does not fit.
TEST(FrameworksTest, AdviceNeverSuggestsAnOptionTheFrameworkLacks) {
  for (Framework f : kAll) {
    Config c = With(MustParse(R"({"model": "llama3-70b", "device": "a100-40gb"})"),
                    {{"ws", "8"}, {"ac", "none"}, {"b", "2"}, {"s", "4096"}, {"zero", "1"}});
    c.framework = f;
    const Estimate e = EstimateWithAdvice(c);
    ASSERT_FALSE(e.recommendations.empty()) << FrameworkName(f);
    bool offered = false;
    for (const Recommendation& r : e.recommendations) {
      for (const auto& [key, value] : r.changes) {
        if (key == "optimizer.swap_optimizer") {
          EXPECT_TRUE(FrameworkHasSwapOptimizer(f)) << FrameworkName(f) << ": " << r.action;
          offered = true;
        }
        if (key == "optimizer.offload") {
          EXPECT_TRUE(FrameworkHasOptimizerOffload(f)) << FrameworkName(f) << ": " << r.action;
          offered = true;
        }
      }
    }
    EXPECT_EQ(offered, OptimizerOffDeviceKey(f, c.device) != nullptr) << FrameworkName(f);
  }
}

std::string Unmapped(const ExportResult& e) {
  std::string all;
  for (const std::string& u : e.unmapped) all += u + "\n";
  return all;
}

// Each export writes the option in the target framework's own words where it has it, and lists
// it as not mapped where it has none; what is written is read back by the importer.
TEST(FrameworksTest, ExportWritesOnlyTheFrameworksOwnOptions) {
  // torchtitan: no optimizer offload (enable_cpu_offload would offload parameters too).
  for (ExportFormat format : {ExportFormat::kTorchtitanToml, ExportFormat::kTorchtitanPython}) {
    const ExportResult e = ExportConfig(Job(Framework::kTorchtitan, true, true), format);
    EXPECT_EQ(e.text.find("enable_cpu_offload"), std::string::npos) << e.text;
    EXPECT_EQ(e.text.find("swap_optimizer"), std::string::npos) << e.text;
    EXPECT_NE(Unmapped(e).find("optimizer.offload: torchtitan has no optimizer offload"),
              std::string::npos)
        << Unmapped(e);
    EXPECT_NE(Unmapped(e).find("optimizer.swap_optimizer: torchtitan has no swap_optimizer"),
              std::string::npos)
        << Unmapped(e);
  }
  // Megatron: Megatron-Core's offload (with the flag its arguments.py requires beside it).
  const ExportResult megatron =
      ExportConfig(Job(Framework::kMegatron, false, true), ExportFormat::kMegatron);
  EXPECT_NE(megatron.text.find("--optimizer-cpu-offload"), std::string::npos) << megatron.text;
  EXPECT_NE(megatron.text.find("--use-precision-aware-optimizer"), std::string::npos);
  EXPECT_EQ(Unmapped(megatron).find("optimizer.offload"), std::string::npos);
  const ImportResult back = MustImport({{"train.sh", megatron.text}});
  EXPECT_EQ(At(back.config, "optimizer.offload"), true) << ImportReportToText(back.report);
  // DeepSpeed: no swap_optimizer.
  const ExportResult ds =
      ExportConfig(Job(Framework::kDeepspeed, true, false), ExportFormat::kDeepspeed);
  EXPECT_EQ(ds.text.find("swap"), std::string::npos) << ds.text;
  EXPECT_NE(Unmapped(ds).find("optimizer.swap_optimizer: deepspeed has no swap_optimizer"),
            std::string::npos);
}

// torchtitan's enable_cpu_offload is not read as an optimizer offload: it is named as ignored.
TEST(FrameworksTest, TorchtitanCpuOffloadIsNotAnOptimizerOffload) {
  const ImportResult r = MustImport({{"job.toml", R"([model]
name = "llama3"
flavor = "8B"
[training]
enable_cpu_offload = true
)"}});
  EXPECT_NE(At(r.config, "optimizer.offload"), true);
  bool named = false;
  for (const ImportIgnored& i : r.report.ignored)
    named = named || (i.key.find("enable_cpu_offload") != std::string::npos &&
                      i.reason.find("FSDP2 CPU offload") != std::string::npos);
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace trainmem::testing
