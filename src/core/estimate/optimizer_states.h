// Optimizer state formulas: the one place that says how many bytes of state each optimizer keeps
// for each parameter tensor. Every framework recipe (estimate_params.cpp) and the template mode
// call these; none has its own formula. Not a public API: front-ends see the totals only.
#pragma once

#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/estimate/estimate_internal.h"

namespace trainmem::detail {

// Bytes of optimizer state per parameter, averaged over each group of the model's tensors
// (ModelArch::tensors, derived once per model by ParseModelArch; the averages are a loop over
// a few dozen distinct shapes). `state_bytes` is the width of one full-precision state element
// as the recipe keeps it (optimizer.state_dtype; torchtune: the parameter dtype). Quantized
// optimizers (AdamW8bit, AdamW4bit, Lion8bit) and the preconditioner matrices of Shampoo / SOAP
// have their own widths.
struct OptimizerStateRatios {
  double block = 0;   // per parameter of the transformer blocks, dense part (and MTP modules)
  double expert = 0;  // per routed-expert parameter
  double root = 0;    // per embedding / output-head / final-norm parameter
};
OptimizerStateRatios OptimizerStateBytesPerParam(const Config& config, double state_bytes);

// One pipeline stage's optimizer state on one device: the stage's parameters after TP/EP
// (StageParams), sharded over `dense_shards` (dense and root) and `expert_shards` (routed
// experts) data-parallel ranks. Assumes states shard evenly with the parameters (ZeRO, FSDP2
// DTensor states; Distributed Shampoo assigns whole blocks to ranks, which evens out over many
// blocks).
double OptimizerStateBytes(const Config& config, const StageParams& stage, double dense_shards,
                           double expert_shards, double state_bytes);

// What the optimizer's memory model assumes, for the estimate's warnings (paged memory outside
// the allocator, which tensors Muon treats as matrices, block sizes of Shampoo / SOAP).
std::vector<std::string> OptimizerWarnings(const Config& config);

}  // namespace trainmem::detail
