// The optimizer step's temporaries (estimate_params.cpp DeepspeedStepTemp and
// StepImplementationTemp), against byte counts derived by hand in the comments.
// Llama 2 7B: P = 6,738,415,616 parameters, largest tensor the 32000 × 4096 embedding
// (131,072,000 elements). Llama 3 8B: P = 8,030,261,248, largest 128256 × 4096 = 525,336,576.
#include <gtest/gtest.h>

#include "core/estimate/estimate.h"
#include "test_support.h"

namespace trainmem {
namespace {

using testing::MustParse;
using testing::With;

constexpr std::int64_t kLlama2_7B = 6'738'415'616;
constexpr std::int64_t kLlama3_8B = 8'030'261'248;

// One short sequence with full checkpointing, so that the step, not the start of backward, is
// the peak and the breakdown shows the step's temporaries.
Estimate EstimateOf(const char* model,
                    const std::vector<std::pair<std::string, std::string>>& settings) {
  Config base = MustParse(std::string(R"({"model": ")") + model + R"(", "device": "h100-80gb"})");
  auto all = settings;
  all.insert(all.begin(), {{"b", "1"}, {"s", "128"}, {"ac", "full"}});
  return EstimateMemory(With(base, all));
}

// The step's temporaries when the step is the peak; 0 when it is not (then the step holds no
// more than the start of backward).
std::int64_t StepBytes(const Estimate& e) {
  const StageEstimate& s = e.stages.at(0);
  return s.peak_phase == "optimizer step" ? s.temporary.optimizer_step : 0;
}

// ZeRO-2 over 8 ranks (stage_1_and_2.py step): the rank's gradient partition cast to fp32,
// 4 B × P / 8 = 4 × 842,301,952 = 3,369,207,808 B (3.14 GiB: the allocation LLaMA-Factory issue
// #1221's out-of-memory trace asks for inside Adam's step on the same model and layout).
// foreach adds the square root of every second moment of the partition, 4 B × P / 8 again;
// for-loop the root and the quotient of the one flat tensor, 2 × 4 B × P / 8.
TEST(OptimizerStepTest, ZeroTwoCopiesTheGradientPartitionToFp32) {
  const std::vector<std::pair<std::string, std::string>> job = {
      {"fw", "deepspeed"}, {"ws", "8"}, {"zero", "2"}};
  const std::int64_t partition = kLlama2_7B / 8;
  EXPECT_EQ(StepBytes(EstimateOf("llama2-7b", job)), 4 * partition);
  auto with = [&](const char* impl) {
    auto settings = job;
    settings.push_back({"oimpl", impl});
    return EstimateOf("llama2-7b", settings);
  };
  EXPECT_EQ(StepBytes(with("foreach")), 8 * partition);
  EXPECT_EQ(StepBytes(with("for-loop")), 12 * partition);
}

// ZeRO-1 frees the gradients outside the partition before the copy (free_grad_in_param_list):
// at 8 ranks the freed 2 B × 7P / 8 exceed the 4 B × P / 8 copy, so the step holds no more than
// the full gradients did; at 2 ranks the copy, 4 B × P / 2, exceeds the freed 2 B × P / 2 by P.
TEST(OptimizerStepTest, ZeroOneFreesOtherPartitionsFirst) {
  EXPECT_EQ(StepBytes(EstimateOf("llama2-7b", {{"fw", "deepspeed"}, {"ws", "8"}, {"zero", "1"}})),
            0);
  EXPECT_NEAR(static_cast<double>(StepBytes(
                  EstimateOf("llama2-7b", {{"fw", "deepspeed"}, {"ws", "2"}, {"zero", "1"}}))),
              static_cast<double>(kLlama2_7B), 1);
}

// ZeRO-3 steps sub-groups of at most sub_group_size = 1e9 partition elements
// (_prepare_fp32_grad_for_sub_group: a bf16 flatten, then the fp32 cast): Llama 2 7B over 2
// ranks has a 3.37e9-element partition, so one sub-group holds 1e9: (2 + 4) B × 1e9.
// foreach: the fp32 copy plus one root, 4 B × 1e9 + 4 B × 1e9.
TEST(OptimizerStepTest, ZeroThreeStepsOneSubGroupAtATime) {
  const std::vector<std::pair<std::string, std::string>> job = {
      {"fw", "deepspeed"}, {"ws", "2"}, {"zero", "3"}};
  EXPECT_EQ(StepBytes(EstimateOf("llama2-7b", job)), 6'000'000'000);
  auto foreach_job = job;
  foreach_job.push_back({"oimpl", "foreach"});
  EXPECT_EQ(StepBytes(EstimateOf("llama2-7b", foreach_job)), 8'000'000'000);
  // Over 8 ranks the partition, 842,301,952, is under the cap: (2 + 4) B each.
  EXPECT_EQ(StepBytes(EstimateOf("llama2-7b", {{"fw", "deepspeed"}, {"ws", "8"}, {"zero", "3"}})),
            6 * (kLlama2_7B / 8));
}

// ZeRO-0 in bf16 is FP16_Optimizer: every gradient cast to fp32 in a list, then flattened, 8 B a
// parameter at once. With optimizer offload the step runs on the host: nothing on the device.
TEST(OptimizerStepTest, ZeroZeroCastsEveryGradientThenFlattens) {
  EXPECT_EQ(StepBytes(EstimateOf("llama2-7b", {{"fw", "deepspeed"}, {"ws", "1"}, {"zero", "0"}})),
            8 * kLlama2_7B);
  EXPECT_EQ(StepBytes(EstimateOf(
                "llama2-7b", {{"fw", "deepspeed"}, {"ws", "8"}, {"zero", "2"}, {"ooff", "true"}})),
            0);
}

// torchtitan, FSDP over 2: foreach makes one fp32 root of every sharded second moment,
// 4 B × P / 2 = 16,060,522,496 B; fused (torchtitan's default) none. torchtune on one device
// keeps bf16 moments: foreach 2 B × P, for-loop the root and quotient of the largest tensor,
// 2 × 2 B × 525,336,576. Megatron's optimizers are its own fused kernels: the key changes nothing
// there.
TEST(OptimizerStepTest, TorchImplementationOnTheTrainedTensors) {
  EXPECT_EQ(StepBytes(EstimateOf("llama3-8b", {{"ws", "2"}})), 0);
  EXPECT_EQ(StepBytes(EstimateOf("llama3-8b", {{"ws", "2"}, {"oimpl", "foreach"}})),
            2 * kLlama3_8B);
  EXPECT_EQ(StepBytes(EstimateOf("llama3-8b", {{"fw", "torchtune"}, {"oimpl", "foreach"}})),
            2 * kLlama3_8B);
  EXPECT_EQ(StepBytes(EstimateOf("llama3-8b", {{"fw", "torchtune"}, {"oimpl", "for-loop"}})),
            2 * 2 * 525'336'576);
  const Estimate megatron = EstimateOf(
      "llama3-8b", {{"fw", "megatron"}, {"ws", "8"}, {"zero", "1"}, {"oimpl", "foreach"}});
  const Estimate megatron_fused =
      EstimateOf("llama3-8b", {{"fw", "megatron"}, {"ws", "8"}, {"zero", "1"}});
  EXPECT_EQ(megatron.per_device.total, megatron_fused.per_device.total);
  EXPECT_FALSE(megatron.warnings.empty());
}

// The key round-trips through the resolved config, and "fused" is not written.
TEST(OptimizerStepTest, ImplementationRoundTrips) {
  const Config c = With(MustParse(R"({"model": "llama3-8b"})"), {{"oimpl", "foreach"}});
  EXPECT_EQ(c.optimizer.implementation, OptimizerImpl::kForeach);
  const nlohmann::json j = ConfigToJson(c);
  EXPECT_EQ(j["optimizer"]["implementation"], "foreach");
  EXPECT_FALSE(
      ConfigToJson(MustParse(R"({"model": "llama3-8b"})"))["optimizer"].contains("implementation"));
  EXPECT_FALSE(ParseConfig(R"({"model": "llama3-8b", "optimizer": {"implementation": "fast"}})",
                           testing::TestPresets())
                   .ok());
}

}  // namespace
}  // namespace trainmem
