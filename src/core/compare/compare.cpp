// [SECTION] Stages and like-with-like estimates
// [SECTION] Components and the sentence on the largest gap
// [SECTION] CompareWithEstimate
#include "core/compare/compare.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/report/report.h"

namespace trainmem::compare {

// snprintf, not {fmt}: +21.2 kB brotli in the page (measured; see FormatGiB in report.cpp).
std::string FormatRatio(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ratio < 10 ? "%.2f" : "%.1f", ratio);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s + "\xC3\x97";  // ×
}

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Stages and like-with-like estimates
// ---------------------------------------------------------------------------------------------

struct StageChoice {
  int stage = 0;
  std::string basis;
};

// Pipeline rank of a global rank: Megatron's default rank order "tp-cp-ep-dp-pp"
// (megatron/core/parallel_state.py) and torchtitan's device mesh ["pp", "dp_replicate",
// "dp_shard", "cp", "tp"] (torchtitan/distributed/parallel_dims.py) both put the pipeline
// dimension outermost, so stage = rank / (world_size / pp).
StageChoice StageFor(const Estimate& e, int rank) {
  StageChoice c;
  const int stages = static_cast<int>(e.stages.size());
  c.stage = std::clamp(e.worst_stage, 0, std::max(0, stages - 1));
  if (stages <= 1) {
    c.basis = "one pipeline stage";
    return c;
  }
  const std::string largest = "the largest stage (stage " + std::to_string(c.stage) + ")";
  if (rank < 0) {
    c.basis = largest + ": the input does not name the rank";
    return c;
  }
  const std::int64_t per_stage = e.config.world_size / std::max<std::int64_t>(1, e.layout.pp);
  if (per_stage <= 0 || rank >= e.config.world_size) {
    c.basis = largest + ": rank " + std::to_string(rank) + " is outside world_size " +
              std::to_string(e.config.world_size);
    return c;
  }
  c.stage = static_cast<int>(std::min<std::int64_t>(rank / per_stage, stages - 1));
  c.basis = "stage " + std::to_string(c.stage) + " for rank " + std::to_string(rank) +
            " (rank / (world_size / pp): pipeline outermost)";
  return c;
}

const MemoryBreakdown& StageBytes(const Estimate& e, int stage) {
  if (stage >= 0 && stage < static_cast<int>(e.stages.size())) return e.stages[stage].bytes;
  return e.per_device;
}

std::int64_t EstimateFor(const MemoryBreakdown& b, Metric metric, std::string& basis) {
  switch (metric) {
    case Metric::kReserved:
      basis = "total (predicts max reserved)";
      return b.total;
    case Metric::kMaxAllocated:
      basis = "peak_allocated (predicts max allocated)";
      return b.peak_allocated;
    case Metric::kActive:
      basis = "peak_allocated (peak active ≈ peak allocated)";
      return b.peak_allocated;
    case Metric::kAllocated:
      basis = "parameters + gradients + optimizer states (what stays allocated between steps)";
      return b.parameters + b.gradients + b.optimizer_states;
    case Metric::kDeviceUsed:
      basis =
          "total; the device figure also holds the runtime context and communication "
          "buffers, which the estimate leaves out";
      return b.total;
  }
  return b.total;
}

double ErrorOf(std::int64_t estimate, std::int64_t measured) {
  return measured > 0 ? static_cast<double>(estimate - measured) / static_cast<double>(measured)
                      : 0.0;
}

double RatioOf(std::int64_t measured, std::int64_t estimate) {
  return estimate > 0 ? static_cast<double>(measured) / static_cast<double>(estimate) : 0.0;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Components and the sentence on the largest gap
// ---------------------------------------------------------------------------------------------

struct ComponentHint {
  const char* name;
  const char* label;
  const char* over;   // measured above the estimate
  const char* under;  // measured below
};

constexpr ComponentHint kComponentHints[] = {
    {"parameters", "Parameters",
     "are parameters sharded as configured (FSDP/ZeRO-3, TP, PP degrees) and kept in the "
     "configured precision?",
     "does the run shard parameters more than the config says?"},
    {"gradients", "Gradients",
     "are gradients kept in fp32 or unsharded longer than the config says?",
     "are gradients sharded or freed earlier (ZeRO-2, FSDP reduce-scatter) than estimated?"},
    {"optimizer_states", "Optimizer states",
     "are optimizer states fp32 and unsharded (no ZeRO-1 / distributed optimizer)?",
     "are optimizer states sharded, offloaded or kept in lower precision?"},
    {"activations", "Activations",
     "is activation checkpointing on, and are batch size and sequence length as configured?",
     "does the run checkpoint more, compile (fusing element-wise ops) or chunk the loss?"},
    {"temporary", "Temporary buffers",
     "communication buffers, gathered layers or tensors the profiler could not categorise "
     "exceed the estimate's temporary allowance.",
     "fewer temporaries are alive at the peak than the estimate allows."},
};

const char* MetricLabel(Metric metric) {
  switch (metric) {
    case Metric::kReserved:
      return "Max reserved";
    case Metric::kMaxAllocated:
      return "Max allocated";
    case Metric::kAllocated:
      return "Allocated between steps";
    case Metric::kActive:
      return "Peak active";
    case Metric::kDeviceUsed:
      return "Device memory used";
  }
  return "";
}

std::string ComponentSentence(const std::vector<ComponentRow>& rows) {
  const ComponentRow* worst = nullptr;
  for (const ComponentRow& r : rows) {
    // In double: a profile's figure can be near INT64_MIN/MAX, where the int64 difference
    // overflows (found by fuzz_timeline).
    const auto gap = [](const ComponentRow& c) {
      return std::fabs(static_cast<double>(c.measured_bytes) -
                       static_cast<double>(c.estimate_bytes));
    };
    if (worst == nullptr || gap(r) > gap(*worst)) {
      worst = &r;
    }
  }
  if (worst == nullptr) return "";
  const ComponentHint* hint = nullptr;
  for (const ComponentHint& h : kComponentHints) {
    if (worst->name == h.name) hint = &h;
  }
  if (hint == nullptr) return "";
  const bool over = worst->measured_bytes > worst->estimate_bytes;
  const std::string figures = " (" + FormatGiB(worst->measured_bytes) + " measured, " +
                              FormatGiB(worst->estimate_bytes) + " estimated)";
  if (worst->estimate_bytes <= 0) {
    return std::string(hint->label) + " measured " + FormatGiB(worst->measured_bytes) +
           " where the estimate has none: " + (over ? hint->over : hint->under);
  }
  const double ratio = RatioOf(worst->measured_bytes, worst->estimate_bytes);
  if (std::fabs(ratio - 1.0) <= 0.10) {
    std::string label = hint->label;
    label[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(label[0])));
    return "Every component is within 10% of the estimate; the largest gap is in " + label +
           figures + ".";
  }
  return std::string(hint->label) + " measured " + FormatRatio(ratio) + " the estimate" + figures +
         ": " + (over ? hint->over : hint->under);
}

// The peaks (reserved, max allocated, active) speak for the estimate; allocated between steps
// and the device figure only when no peak was measured.
std::string MetricSentence(const std::vector<MetricRow>& rows) {
  const MetricRow* worst = nullptr;
  for (bool peaks_only : {true, false}) {
    for (const MetricRow& r : rows) {
      const bool is_peak = r.metric == Metric::kReserved || r.metric == Metric::kMaxAllocated ||
                           r.metric == Metric::kActive;
      if (r.measured_bytes <= 0 || r.estimate_bytes <= 0 || (peaks_only && !is_peak) || r.at_init)
        continue;
      if (worst == nullptr || std::fabs(r.error) > std::fabs(worst->error)) worst = &r;
    }
    if (worst != nullptr) break;
  }
  if (worst == nullptr) {
    for (const MetricRow& r : rows) {
      if (!r.at_init || r.measured_bytes <= 0) continue;
      // Only an after-init figure: it says nothing of the training peak.
      return "The run logged no training step: after model init it held " +
             FormatGiB(r.measured_bytes) + " (" + MetricLabel(r.metric) +
             "), beside the estimate's " + FormatGiB(r.estimate_bytes) +
             " of parameters; the training peak was not measured.";
    }
    return rows.empty() ? "" : "The estimate has no figure for this configuration to compare.";
  }
  const double ratio = RatioOf(worst->measured_bytes, worst->estimate_bytes);
  const std::string figures = " (" + FormatGiB(worst->measured_bytes) + " measured, " +
                              FormatGiB(worst->estimate_bytes) + " estimated)";
  const std::string head = std::string(MetricLabel(worst->metric)) + " measured " +
                           FormatRatio(ratio) + " the estimate" + figures;
  const std::int64_t gap = std::llabs(worst->measured_bytes - worst->estimate_bytes);
  if (std::fabs(ratio - 1.0) <= 0.10) return head + ": within 10%, the estimate matches this run.";
  if (worst->metric == Metric::kDeviceUsed && ratio > 1.0) {
    return head + ": part of the " + FormatGiB(gap) +
           " is the runtime context and communication buffers outside the allocator; a "
           "framework log line (max reserved) compares like with like.";
  }
  if (ratio > 1.0) {
    return head + ": the estimate misses " + FormatGiB(gap) +
           ". Is activation checkpointing on as configured? A torch.profiler memory timeline "
           "would show which component.";
  }
  return head + ": the estimate is " + FormatGiB(gap) +
         " too high. Does the run checkpoint, compile or shard more than the config says?";
}

// A run that ran out of memory measured what it held when it failed, not its peak: the figures
// are lower bounds, so "the estimate is too high" cannot be read from them. What can be said:
// whether the estimate predicted the failure, and by how much at least it misses if not.
// `needed`: allocated + the failed request (0 when the error gave no allocated figure).
std::string OutOfMemorySentence(const Estimate& e, std::int64_t needed) {
  const MemoryBreakdown& worst = e.per_device;
  const std::string needed_text = FormatGiB(needed);
  if (e.budget.verdict == Verdict::kDoesNotFit) {
    return "The run ran out of memory, as the estimate predicts (" + FormatGiB(worst.total) +
           " of " + FormatGiB(e.budget.usable_bytes) + " usable)." +
           (needed > 0 ? " It needed at least " + needed_text +
                             " allocated (what it held plus the request that failed)."
                       : "") +
           " The advice shows what makes it fit.";
  }
  const std::string says = std::string("The run ran out of memory where the estimate says it ") +
                           (e.budget.verdict == Verdict::kFits ? "fits" : "is close to the limit");
  if (needed <= 0) return says + "; the error gives no allocated figure to compare.";
  const std::string peak = FormatGiB(worst.peak_allocated);
  if (needed > worst.peak_allocated) {
    return says + ": it needed at least " + needed_text +
           " allocated (what it held plus the request that failed), " +
           FormatGiB(needed - worst.peak_allocated) + " more than the estimate's peak allocated (" +
           peak +
           "). Is activation checkpointing on as configured, and are the batch and sequence "
           "as the config says?";
  }
  return says + "; it needed at least " + needed_text +
         " allocated, which the estimate's peak allocated (" + peak +
         ") covers: memory outside the allocator (another process, communication buffers) or "
         "fragmentation took the rest of the device.";
}

// ---------------------------------------------------------------------------------------------
// [SECTION] CompareWithEstimate
// ---------------------------------------------------------------------------------------------

// `after_init`: the figures were taken after model init, before any step; they hold the
// parameters (and buffers), which is the estimate to set them against, not the training peak.
MetricRow RowFor(const Estimate& e, const std::vector<const Peak*>& peaks, bool after_init) {
  MetricRow row;
  for (const Peak* p : peaks) {
    const StageChoice stage = StageFor(e, p->rank);
    std::string basis = "parameters";
    RankRow r;
    r.rank = p->rank;
    r.stage = stage.stage;
    r.measured_bytes = p->bytes;
    r.estimate_bytes = after_init ? StageBytes(e, stage.stage).parameters
                                  : EstimateFor(StageBytes(e, stage.stage), p->metric, basis);
    if (peaks.size() > 1) row.per_rank.push_back(r);
    if (p == peaks.front() || p->bytes > row.measured_bytes) {
      row.metric = p->metric;
      row.measured_bytes = p->bytes;
      row.estimate_bytes = r.estimate_bytes;
      row.source = p->source;
      row.rank = p->rank;
      row.stage = stage.stage;
      row.estimate_basis = basis + " of stage " + std::to_string(stage.stage) +
                           (after_init ? " (what a run holds after model init)" : "");
      row.stage_basis = stage.basis;
      row.rounding = p->rounding;
      row.at_init = p->at_init;
    }
  }
  row.error = ErrorOf(row.estimate_bytes, row.measured_bytes);
  row.ratio = RatioOf(row.measured_bytes, row.estimate_bytes);
  return row;
}

}  // namespace

Comparison CompareWithEstimate(const Estimate& e, const Measurement& measured) {
  Comparison c;
  c.formats = measured.formats;
  c.notes = measured.notes;
  c.snapshot = measured.snapshot;
  c.skipped = measured.skipped;
  c.skipped_count = measured.skipped_count;
  static constexpr Metric kOrder[] = {Metric::kReserved, Metric::kMaxAllocated, Metric::kActive,
                                      Metric::kAllocated, Metric::kDeviceUsed};
  for (Metric metric : kOrder) {
    std::vector<const Peak*> training, init;
    for (const Peak& p : measured.peaks) {
      if (p.metric == metric) (p.at_init ? init : training).push_back(&p);
    }
    if (!training.empty()) {
      c.metrics.push_back(RowFor(e, training, false));
      for (const Peak* p : init) {
        const std::int64_t params = StageBytes(e, StageFor(e, p->rank).stage).parameters;
        std::string what = MetricLabel(p->metric);
        what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
        c.notes.push_back("After model init, before training: " + what + " " + FormatGiB(p->bytes) +
                          " (" + p->source + "); the estimate has " + FormatGiB(params) +
                          " of parameters.");
      }
    } else if (!init.empty()) {
      c.metrics.push_back(RowFor(e, init, true));
      c.notes.push_back(
          "Only the after-model-init figure was found (the run logged no step): it "
          "holds parameters and buffers, not the training peak.");
    }
  }
  if (measured.components.present) {
    const MemoryBreakdown& b = StageBytes(e, StageFor(e, -1).stage);
    const MeasuredComponents& m = measured.components;
    const std::pair<const char*, std::pair<std::int64_t, std::int64_t>> parts[] = {
        {"parameters", {m.parameters, b.parameters}},
        {"gradients", {m.gradients, b.gradients}},
        {"optimizer_states", {m.optimizer_states, b.optimizer_states}},
        {"activations", {m.activations, b.activations}},
        {"temporary", {m.temporary, b.temporary}},
    };
    for (const auto& [name, values] : parts) {
      ComponentRow r;
      r.name = name;
      r.measured_bytes = values.first;
      r.estimate_bytes = values.second;
      r.ratio = RatioOf(r.measured_bytes, r.estimate_bytes);
      c.components.push_back(r);
    }
    c.components_source = m.source;
    c.sentence = ComponentSentence(c.components);
  }
  if (measured.out_of_memory) {
    c.sentence = OutOfMemorySentence(e, measured.oom_needed_bytes);
  } else if (c.sentence.empty()) {
    c.sentence = MetricSentence(c.metrics);
  }
  return c;
}

}  // namespace trainmem::compare
