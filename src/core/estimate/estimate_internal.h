// Internals of the estimator shared by its translation units (not part of the public API).
#pragma once

#include <cstdint>
#include <vector>

#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/model/model.h"

namespace trainmem::detail {

// Bytes as int64: rounded, clamped to [0, INT64_MAX], NaN → 0. Absurd inputs are rejected by
// validation, but a byte count must never wrap (a wrapped figure is worse than a capped one).
std::int64_t ToBytes(double bytes);

// Parameters held by one pipeline stage, before data-parallel sharding, after TP/EP sharding.
struct StageParams {
  std::int64_t first_layer = 0;
  std::int64_t num_layers = 0;
  std::int64_t fullest_stage_layers = 0;  // the most layers any stage of the split holds
  bool has_embedding = false;
  bool has_head = false;
  double dense_per_device = 0;   // non-expert params on this device after TP (norms replicated)
  double expert_per_device = 0;  // routed-expert params after EP × ETP
  double max_layer_dense = 0;    // largest block's dense params after TP (FSDP gather unit)
  double max_layer_expert = 0;   // its routed experts after EP × ETP
  double root_params = 0;        // embedding + final norm + head after TP (FSDP root module)
  double head_params = 0;        // output head after TP (its gradient is held through backward)
  double largest_tensor = 0;     // elements of the stage's largest non-expert parameter after TP
  double largest_expert_tensor = 0;  // of its largest routed-expert parameter after EP × ETP
  double embedding_params = 0;       // token embedding after TP (its own FSDP unit in torchtitan)
  double lora_per_device = 0;        // LoRA adapter params of the stage's blocks after TP (0 = off)
  double max_layer_lora = 0;         // one block's adapters after TP
};

// LoRA adapter parameters of the whole model at this rank (0 when rank is 0).
double LoraAdapterParams(const ModelArch& arch, std::int64_t rank);
// Adapters of rank `rank` on every routed expert's 2-D weights (rank × (rows + cols) each):
// what PEFT's all-linear adds when the experts are separate linears (transformers 4.x).
double LoraExpertAdapterParams(const ModelArch& arch, std::int64_t rank);

// `counts` = CountParams(arch, false) (embedding, head and final norm sizes).
std::vector<StageParams> SplitStages(const Config& config, const Layout& layout,
                                     const ModelArch& arch, const std::vector<LayerParams>& layers,
                                     const ParamCounts& counts);

// Persistent state of one stage, per device, by framework recipe.
struct StateBytes {
  double parameters = 0;
  double gradients = 0;
  double optimizer_states = 0;
  double host_optimizer = 0;       // swap_optimizer / offload: bytes kept on the host
  double optimizer_step_temp = 0;  // foreach temporaries, swap slices
  double lazy_states = 0;      // part of optimizer_states first allocated by the first step (m, v)
  double gathered_params = 0;  // FSDP / ZeRO-3 all-gathered layers (current + prefetch), root
  double unsharded_grads = 0;  // per-layer full gradients before reduce-scatter, head grad
  double grad_buckets = 0;     // DDP / ZeRO reduction and all-gather buckets
  // At the end of backward (first block): FSDP units still gathered and unsharded gradients.
  double gathered_at_backward_end = 0;
  double unsharded_grads_at_backward_end = 0;
  bool grads_freed_before_forward = false;  // zero_grad(set_to_none=True): cached, not allocated
};

StateBytes ComputeStateBytes(const Config& config, const Layout& layout, const StageParams& stage);

// cuBLAS / Transformer Engine GEMM workspaces: persistent, the same on every stage; computed
// once per estimate (it reads the device's name).
double GemmWorkspaceBytes(const Config& config);

// Activations of one stage at the start of its backward (the activation peak).
struct StageActivations {
  ActivationBreakdown breakdown;
  double peak_bytes = 0;  // saved layers + embedding output + max(loss, one block's backward)
  // At the end of backward: the first block's saved tensors, its recompute and gradient
  // temporaries, and the embedding output (every later block's activations are freed).
  double end_of_backward_bytes = 0;
};

StageActivations ComputeActivations(const Config& config, const Layout& layout,
                                    const StageParams& stage, int stage_index);

// Optimizer state per parameter over the whole model, in optimizer.state_dtype elements (AdamW
// 2, Lion 1, SGD 0 or 1, Adafactor ≈ 0, AdamW8bit ≈ 0.51); optimizer_states.cpp.
double OptimizerStatesPerParam(const Config& config);

}  // namespace trainmem::detail
