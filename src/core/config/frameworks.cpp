// Which framework has which way of keeping the optimizer states off the device. The one place
// the estimator, the advice, the layout search and the page ask (config.h).
//
// swap_optimizer: torchtitan-npu's [optimizer] swap_optimizer, ported from MindSpeed's
//   --swap-optimizer (MindSpeed also runs Megatron-LM on Ascend, so Megatron has it there).
//   Only Adam's m and v live in pinned host memory, swapped back in swap_optimizer_times slices.
// optimizer offload (states and the step on the host):
//   DeepSpeed  zero_optimization.offload_optimizer (ZeRO-Offload);
//   Megatron   Megatron-Core --optimizer-cpu-offload (HybridDeviceOptimizer);
//   torchtune  the CPUOffloadOptimizer recipe component (from torchao).
// torchtitan has neither: its [training] enable_cpu_offload is FSDP2's CPUOffloadPolicy, which
// moves parameters and gradients as well, a different memory layout; it is not modelled.
#include "core/config/config.h"

namespace trainmem {

bool FrameworkHasSwapOptimizer(Framework f) {
  return f == Framework::kTorchtitanNpu || f == Framework::kMegatron;
}

bool FrameworkHasOptimizerOffload(Framework f) {
  return f == Framework::kDeepspeed || f == Framework::kMegatron || f == Framework::kTorchtune;
}

const char* OptimizerOffDeviceKey(Framework f) {
  if (FrameworkHasSwapOptimizer(f)) return "optimizer.swap_optimizer";
  if (FrameworkHasOptimizerOffload(f)) return "optimizer.offload";
  return nullptr;
}

}  // namespace trainmem
