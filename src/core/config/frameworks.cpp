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
#include <cctype>
#include <cstring>
#include <string>

#include "core/config/config.h"

namespace trainmem {

bool ContainsIgnoringCase(const std::string& text, const char* lower_needle) {
  const std::size_t n = std::strlen(lower_needle);
  for (std::size_t i = 0; i + n <= text.size(); ++i) {
    std::size_t k = 0;
    while (k < n && std::tolower(static_cast<unsigned char>(text[i + k])) == lower_needle[k]) ++k;
    if (k == n) return true;
  }
  return false;
}

bool DeviceIsAscend(const Device& d) {
  return ContainsIgnoringCase(d.id, "ascend") || ContainsIgnoringCase(d.id, "910") ||
         ContainsIgnoringCase(d.name, "ascend") || ContainsIgnoringCase(d.name, "910");
}

bool IsMindSpeed(Framework f, const Device& device) {
  return f == Framework::kMegatron && DeviceIsAscend(device);
}

bool SequenceParallelOn(const Config& c, std::int64_t tp) {
  if (tp <= 1) return false;
  if (c.framework == Framework::kMegatron) return c.parallelism.sequence_parallel;
  return c.framework != Framework::kDeepspeed;
}

std::int64_t SequencesPerMicrobatch(const Config& c, std::int64_t pp) {
  return pp > 1 ? c.parallelism.pp_microbatch_size : c.training.local_batch_size;
}

bool FrameworkHasQuantizedBase(Framework f) {
  return f == Framework::kDeepspeed || f == Framework::kTorchtune;
}

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

const char* OptimizerOffDeviceKey(Framework f, const Device& device) {
  const bool megatron_lm = f == Framework::kMegatron && !IsMindSpeed(f, device);
  if (FrameworkHasSwapOptimizer(f) && !megatron_lm) return "optimizer.swap_optimizer";
  if (FrameworkHasOptimizerOffload(f)) return "optimizer.offload";
  return nullptr;
}

const char* MoveOptimizerOffDevice(Optimizer& o, Framework f, const Device& device) {
  const char* key = OptimizerOffDeviceKey(f, device);
  if (key == nullptr || o.swap_optimizer || o.offload) return nullptr;
  (std::string(key) == "optimizer.swap_optimizer" ? o.swap_optimizer : o.offload) = true;
  return key;
}

bool IsTorchtitanFramework(Framework f) {
  return f == Framework::kTorchtitan || f == Framework::kTorchtitanNpu;
}

bool FrameworkHasFullBf16(Framework f) {
  return IsTorchtitanFramework(f) || f == Framework::kDeepspeed;
}

bool FullBf16States(const Config& c) {
  return FrameworkHasFullBf16(c.framework) && c.training.dtype == DType::kBFloat16 &&
         c.optimizer.state_dtype != DType::kInt8;
}

bool IsTorchAdam(OptimizerKind o) {
  return o == OptimizerKind::kAdamW || o == OptimizerKind::kAdam;
}

bool StepKernelApplies(const Config& c) {
  return IsTorchAdam(c.optimizer.name) && c.framework != Framework::kMegatron;
}

OptimizerPlacement EffectiveOptimizerPlacement(const Config& c) {
  // Offload first: with both set, the states and the step are on the host and nothing swaps.
  if (c.optimizer.offload && FrameworkHasOptimizerOffload(c.framework))
    return OptimizerPlacement::kOffloaded;
  if (c.optimizer.swap_optimizer && FrameworkHasSwapOptimizer(c.framework))
    return OptimizerPlacement::kSwapped;
  return OptimizerPlacement::kDevice;
}

// torchtitan/distributed/pipeline_parallel.py: _get_pipeline_metadata sets the number of virtual
// stages (ceil((layers + 1 + 1) / layers_per_stage), or 1 per rank for single-stage schedules and
// 2 per rank for multi-stage ones) and _generate_llm_fqn_per_model_part fills them: the
// layers + 2 "effective" layers split evenly, the first (layers mod stages) stages one more, the
// embedding taking one slot of stage 0 and norm + output one slot of the last stage.
PipelineSplit TorchtitanPipelineSplit(std::int64_t layers, std::int64_t pp, PpSchedule schedule,
                                      std::int64_t layers_per_stage) {
  PipelineSplit out;
  if (pp <= 1 || layers < 1) {
    out.stage_layers = {layers};
    out.rank_layers = {layers};
    return out;
  }
  constexpr std::int64_t kInputWeight = 1, kOutputWeight = 1;
  const std::int64_t effective = layers + kInputWeight + kOutputWeight;
  const bool single = schedule == PpSchedule::k1F1B || schedule == PpSchedule::kGPipe;
  std::int64_t stages = pp * (single ? 1 : 2);
  if (layers_per_stage > 0) {
    stages = (effective + layers_per_stage - 1) / layers_per_stage;
    const std::string split =
        std::to_string(layers) + " layers (+ the embedding and the output) at " +
        std::to_string(layers_per_stage) + " per stage make " + std::to_string(stages) + " stages";
    if (stages % pp != 0) {
      out.error = split + ", not a multiple of pipeline_parallel_degree " + std::to_string(pp);
      return out;
    }
    if (single && stages != pp) {
      out.error = split + ", but this schedule runs one stage per rank";
      return out;
    }
    if (!single && stages / pp < 2) {
      out.error = split + ", but this schedule needs at least 2 stages per rank";
      return out;
    }
  }
  const std::int64_t base = effective / stages;
  const std::int64_t extra = effective % stages;
  if (stages > effective || base < std::max(kInputWeight, kOutputWeight)) {
    out.error = std::to_string(stages) + " pipeline stages cannot be filled by " +
                std::to_string(layers) + " layers and the embedding and output";
    return out;
  }
  out.rank_layers.assign(static_cast<std::size_t>(pp), 0);
  out.stage_layers.reserve(static_cast<std::size_t>(stages));
  const bool v_shape = schedule == PpSchedule::kZeroBubble;
  std::int64_t placed = 0;
  for (std::int64_t s = 0; s < stages; ++s) {
    std::int64_t n = base + (s < extra ? 1 : 0);
    if (s == 0) n -= kInputWeight;
    if (s == stages - 1) n -= kOutputWeight;
    n = std::min(n, layers - placed);
    placed += n;
    out.stage_layers.push_back(n);
    const std::int64_t in_round = s % (2 * pp);
    const std::int64_t rank = v_shape && in_round >= pp ? 2 * pp - 1 - in_round : s % pp;
    out.rank_layers[static_cast<std::size_t>(rank)] += n;
  }
  return out;
}

}  // namespace trainmem
