// Which framework has which way of keeping the optimizer states off the device, and what the
// framework calls it. The one place the estimator, the template mode, the advice, the layout
// search, the importers, the exporters and the page ask (config.h).
//
// swap_optimizer: Adam's states live in pinned host memory and come back to the device in
//   swap_optimizer_times slices during the step.
//   MindSpeed   --swap-optimizer / --swap-optimizer-times (mindspeed/features_manager/optimizer/
//               swap_optimizer_feature.py; it patches Megatron-Core's DistributedOptimizer with
//               SwapDistributedOptimizer). MindSpeed-LLM runs Megatron-LM on Ascend, so the
//               "megatron" framework has it.
//   torchtitan-npu  [optimizer] swap_optimizer / swap_optimizer_times (its custom optimizer
//               config, torchtitan_npu/config/custom_config.py, ported from MindSpeed).
// optimizer offload (states and the step on the host):
//   DeepSpeed   zero_optimization.offload_optimizer (ZeRO-Offload; deepspeed/runtime/zero/
//               offload_config.py).
//   Megatron    --optimizer-cpu-offload (Megatron-Core HybridDeviceOptimizer,
//               megatron/core/optimizer/cpu_offloading/; megatron/training/arguments.py asserts
//               it comes with --use-precision-aware-optimizer).
//   torchtune   the CPUOffloadOptimizer optimizer component (torchtune wraps torchao's
//               prototype.low_bit_optim.CPUOffloadOptimizer; single-device recipes).
// torchtitan has neither: its [training] enable_cpu_offload applies FSDP2's CPUOffloadPolicy
// (torch/distributed/fsdp/_fully_shard/_fsdp_api.py), which moves parameters and gradients to
// the host as well: a different memory layout, not modelled. DeepSpeed's NVMe optimizer swapper
// (offload_optimizer.device = nvme) is its offload to another place, not a swap_optimizer.
#include "core/config/config.h"

namespace trainmem {

OptimizerOffDeviceOptions FrameworkOptimizerOptions(Framework f) {
  switch (f) {
    case Framework::kTorchtitan:
      return {nullptr, nullptr};
    case Framework::kTorchtitanNpu:
      return {"[optimizer] swap_optimizer", nullptr};
    case Framework::kMegatron:
      return {"--swap-optimizer", "--optimizer-cpu-offload"};
    case Framework::kDeepspeed:
      return {nullptr, "zero_optimization.offload_optimizer"};
    case Framework::kTorchtune:
      return {nullptr, "CPUOffloadOptimizer"};
  }
  return {nullptr, nullptr};
}

bool FrameworkHasSwapOptimizer(Framework f) {
  return FrameworkOptimizerOptions(f).swap_optimizer != nullptr;
}

bool FrameworkHasOptimizerOffload(Framework f) {
  return FrameworkOptimizerOptions(f).offload != nullptr;
}

const char* OptimizerOffDeviceKey(Framework f) {
  if (FrameworkHasSwapOptimizer(f)) return "optimizer.swap_optimizer";
  if (FrameworkHasOptimizerOffload(f)) return "optimizer.offload";
  return nullptr;
}

const char* MoveOptimizerOffDevice(Optimizer& o, Framework f) {
  const char* key = OptimizerOffDeviceKey(f);
  if (key == nullptr || o.swap_optimizer || o.offload) return nullptr;
  (FrameworkHasSwapOptimizer(f) ? o.swap_optimizer : o.offload) = true;
  return key;
}

OptimizerPlacement EffectiveOptimizerPlacement(const Config& c) {
  // Offload first: with both set, the states and the step are on the host and nothing swaps.
  if (c.optimizer.offload && FrameworkHasOptimizerOffload(c.framework))
    return OptimizerPlacement::kOffloaded;
  if (c.optimizer.swap_optimizer && FrameworkHasSwapOptimizer(c.framework))
    return OptimizerPlacement::kSwapped;
  return OptimizerPlacement::kDevice;
}

}  // namespace trainmem
