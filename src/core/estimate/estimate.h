// The estimator: one resolved Config in, the per-device peak memory breakdown out.
// Functional core (STYLE.md rule 2): no I/O, no globals; results are values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/estimate/accuracy.h"
#include "core/model/model.h"

namespace trainmem {

// The seed's five components at the device-level peak, in bytes (64-bit: 671B × 2 overflows
// a 32-bit size_t on wasm32).
struct MemoryBreakdown {
  std::int64_t parameters = 0;
  std::int64_t gradients = 0;
  std::int64_t optimizer_states = 0;
  std::int64_t activations = 0;
  std::int64_t temporary = 0;
  std::int64_t total = 0;           // device-level peak (max reserved; what an OOM sees)
  std::int64_t peak_allocated = 0;  // total less the caching allocator's reserve (max allocated)
  // max allocated over the first iteration only: optimizer states that the first step creates
  // (Adam's exp_avg / exp_avg_sq) do not exist yet during its forward and backward. What a log
  // line printed "after 1 iterations" shows (MindSpeed-LLM's CI); ≤ peak_allocated.
  std::int64_t first_iteration_peak_allocated = 0;
};

// What makes up "temporary": explicit terms plus the configurable fraction, reported separately.
struct TemporaryBreakdown {
  std::int64_t gathered_params = 0;    // FSDP/ZeRO-3 unsharded layer copies (current + prefetch)
  std::int64_t unsharded_grads = 0;    // per-layer full gradients before reduce-scatter
  std::int64_t grad_buckets = 0;       // DDP / Megatron reduction buckets
  std::int64_t workspaces = 0;         // cuBLAS / Transformer Engine GEMM workspaces (persistent)
  std::int64_t optimizer_step = 0;     // fused optimizer temporaries, swap_optimizer slices
  std::int64_t fraction = 0;           // overhead.temporary_fraction × (the rest)
  std::int64_t allocator_reserve = 0;  // fragmentation: total − peak_allocated
};

// How the activation figure was derived, so the UI and CLI can show it (no fixed "K = 10–15").
struct ActivationBreakdown {
  double bytes_per_token_per_layer = 0;  // saved per token per block (this device's shard)
  double k_equivalent = 0;               // = per-layer bytes / (B·S·H·dtype bytes): the seed's K
  std::int64_t per_layer = 0;            // one block, one microbatch, as kept for backward
  std::int64_t layers_kept = 0;          // blocks whose activations are held (this stage)
  std::int64_t microbatches_in_flight = 1;
  std::int64_t saved_layers = 0;     // all blocks' saved activations at the peak
  std::int64_t recompute_layer = 0;  // one block re-materialised during backward (AC)
  std::int64_t embedding_output = 0;
  std::int64_t logits_and_loss = 0;    // fp32 logits, log-softmax and their gradients
  std::int64_t attention_scores = 0;   // eager attention: seq × seq per head (inside per_layer)
  std::int64_t attention_mask = 0;     // Megatron's [mbs, 1, s, s] bool mask (one per device)
  std::int64_t dsa_scores_buffer = 0;  // MindSpeed's persistent bf16 buffer for DSA's scores
  // Megatron's deferred output-layer weight gradients: buffered inputs and logits gradients
  std::int64_t deferred_wgrad_buffers = 0;
  std::int64_t offloaded_to_host = 0;  // activation offload
};

struct StageEstimate {
  int stage = 0;
  std::int64_t first_layer = 0;  // [first_layer, first_layer + num_layers)
  std::int64_t num_layers = 0;
  bool has_embedding = false;
  bool has_head = false;
  MemoryBreakdown bytes;
  ActivationBreakdown activations;
  TemporaryBreakdown temporary;
  std::string peak_phase;  // "backward start" or "optimizer step"
};

struct Budget {
  std::int64_t device_bytes = 0;
  std::int64_t usable_bytes = 0;  // device × budget_fraction − outside_allocator_bytes
  // Device memory taken outside PyTorch's caching allocator that the config states and the
  // estimate sizes: MinimalAsyncEP's symmetric-memory receive buffers (estimate.cpp). Not in
  // the total (no torch memory statistic shows it); it is taken from the usable memory.
  std::int64_t outside_allocator_bytes = 0;
  bool fits = false;
  std::int64_t headroom_bytes = 0;  // usable − total (negative when it does not fit)
  // The verdict with the family's error band (accuracy.h): "close to the limit" when the total
  // is within the band of usable_bytes on either side; `fits` above stays total ≤ usable.
  Verdict verdict = Verdict::kDoesNotFit;
  double error_band = 0;  // the band used (fraction of the total)
};

// What an advice step does, so the page can say it in the reader's language (`action` is the
// English sentence the CLI and exports print). from/to: the degree, batch or sequence length
// before and after (0 for the other kinds).
enum class AdviceKind {
  kSelectiveAc,
  kFullAc,
  kFusedOptimizerStep,    // torch.optim's fused Adam step (optimizer.implementation "fused")
  kDistributedOptimizer,  // Megatron's --use-distributed-optimizer (zero_stage 1)
  kSwapOptimizer,
  kOffloadOptimizer,
  kTensorParallel,
  kPipelineParallel,
  kExpertParallel,
  kContextParallel,
  kBatchSize,
  kSeqLen,
  kZeroStage,    // DeepSpeed's ZeRO stage raised (from, to: the stages)
  kCombination,  // the cheapest combination of the above that fits
};

struct Recommendation {
  AdviceKind kind = AdviceKind::kCombination;
  std::int64_t from = 0, to = 0;
  std::string action;  // "Turn on full activation checkpointing"
  std::vector<std::pair<std::string, std::string>> changes;  // dotted key → JSON value text
  std::int64_t total_bytes = 0;
  bool fits = false;
  // With the family's error band, as the budget's verdict: a step that "fits" within the band
  // of the budget is close to the limit, and the advice goes on past it.
  Verdict verdict = Verdict::kDoesNotFit;
};

// Template mode: the seed's figures with its nominal counts, and the same formulas with exact
// counts, so the two can be compared (and the difference explained).
struct TemplateComparison {
  bool available = false;
  std::int64_t nominal_params = 0;
  std::int64_t exact_params = 0;
  std::int64_t nominal_expert_params = 0;
  std::int64_t exact_expert_params = 0;
  bool has_nominal = false;  // the preset names a size; otherwise both columns use exact counts
  MemoryBreakdown nominal;
  MemoryBreakdown exact;
};

// One sentence on why the nominal and exact figures differ (built on demand: estimates run by
// the thousand in the layout search and heatmap, sentences are for people).
std::string TemplateExplanation(const TemplateComparison& comparison);

struct Estimate {
  Config config;       // the resolved config (reproduces this estimate)
  ParamCounts params;  // what is trained (MTP only when training.mtp)
  Layout layout;
  MemoryBreakdown per_device;              // the worst stage
  std::vector<StageEstimate> stages;       // one per pipeline stage
  std::int64_t host_optimizer_bytes = 0;   // swap_optimizer / optimizer offload, per rank
  std::int64_t host_activation_bytes = 0;  // activation offload, per rank
  Budget budget;
  TemplateComparison template_comparison;
  std::vector<Recommendation> recommendations;
  // When no recommendation fits: the smallest world size, doubling from this one, at which the
  // layout search finds a layout that fits (same batch, sequence and framework); 0 when it fits
  // already or nothing fits up to kMaxDevicesAdvised (core/advice/advice.h).
  std::int64_t devices_needed = 0;
  std::vector<std::string> warnings;
  int worst_stage = 0;
  ErrorBand accuracy;  // how right estimates of this family were on measured runs
};

// Estimates one configuration. The config must have passed ValidateConfig (ParseConfig does);
// if it has not, the estimate carries the errors as warnings and zero bytes rather than NaN.
Estimate EstimateMemory(const Config& config);

// The per-device figures and verdict only: no config copy, template comparison or warnings.
// For callers that estimate thousands of configs they have already validated (the layout
// search, the heatmap). `valid` is false when the degrees do not resolve. Its per_device and
// budget equal EstimateMemory's for every valid config (tested).
struct TotalsEstimate {
  bool valid = false;
  MemoryBreakdown per_device;
  Budget budget;
};
TotalsEstimate EstimateTotals(const Config& config);

// The per-model counts an estimate needs. Counting is exact, overflow-checked arithmetic over
// every block (slow in wasm32, where 64-bit overflow checks go through 128-bit helpers), so
// callers estimating many configs of one model count once and pass them in.
struct ModelCounts {
  ParamCounts main_model;           // CountParams(arch, false)
  std::vector<LayerParams> layers;  // CountLayerParams(arch)
};
ModelCounts CountModel(const ModelArch& arch);
// `counts` must be CountModel(config.model).
TotalsEstimate EstimateTotals(const Config& config, const ModelCounts& counts);

}  // namespace trainmem
