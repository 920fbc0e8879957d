// The seed's advice ladder ("Budget check"), in the order a practitioner reaches for the levers:
//   1) activation checkpointing (selective, then full), 2) the optimizer states off the device
//   (swap_optimizer or optimizer offload, where the framework has one: frameworks.cpp),
//   3) more TP / PP / EP (valid degrees only; EP first on an MoE model, whose experts hold most
//   of its weights; TP within a node), then CP where the framework has it, so the batch is
//   kept when a layout can, 4) a smaller local_batch_size, then seq_len.
// Each step builds on the steps kept before it and is kept only when it lowers the total by a
// step's worth (kMinSaving), or makes the job fit clear of the error band: more PP can raise it
// (torchtitan keeps a stage's parameters gathered across microbatches), and a step that saves
// 0.4 GiB of 175 is no advice. The ladder stops at the first step that fits; then the cheapest
// combination that fits, by a documented cost proxy; and when nothing fits, the smallest world
// size at which the layout search finds a fitting layout (DevicesNeeded).
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>

#include "core/advice/advice.h"
#include "core/estimate/estimate.h"
#include "core/search/search.h"

namespace trainmem {
namespace {

using Changes = std::vector<std::pair<std::string, std::string>>;

struct Candidate {
  Config config;
  Changes changes;
};

void Set(Candidate& c, const std::string& key, const std::string& value) {
  for (auto& kv : c.changes) {
    if (kv.first == key) {
      kv.second = value;
      return;
    }
  }
  c.changes.emplace_back(key, value);
}

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

// The framework's way of keeping the optimizer states off the device; false when it has none
// or they are off already.
bool MoveOptimizerOffDevice(Candidate& c) {
  const char* key = MoveOptimizerOffDevice(c.config.optimizer, c.config.framework, c.config.device);
  if (key == nullptr) return false;
  Set(c, key, "true");
  // MindSpeed's swap_optimizer and Megatron-Core's --optimizer-cpu-offload both work on the
  // distributed optimizer's shards (estimate.cpp warns without it; Megatron asserts).
  // DeepSpeed's offload_optimizer is a ZeRO option (stage 1 and up: runtime/zero/config.py).
  if ((c.config.framework == Framework::kMegatron || c.config.framework == Framework::kDeepspeed) &&
      c.config.parallelism.zero_stage.value_or(0) == 0) {
    c.config.parallelism.zero_stage = 1;
    Set(c, "parallelism.zero_stage", "1");
  }
  return true;
}

// A degree set to `d` with the leftover ranks going to FSDP (dp_shard -1), as torchtitan does.
void SetDegree(Candidate& c, const char* key, std::int64_t Parallelism::*field, std::int64_t d) {
  c.config.parallelism.*field = d;
  if (c.config.parallelism.dp_shard != -1) {
    c.config.parallelism.dp_shard = -1;
    Set(c, "parallelism.data_parallel_shard_degree", "-1");
  }
  Set(c, key, std::to_string(d));
}

// The next larger degree (×2) that keeps the config valid, or 0. Tensor parallelism stays
// within a node: its all-reduces / all-gathers run every layer, and across nodes they leave
// NVLink / HCCS (Megatron and torchtitan guides keep TP ≤ GPUs per node).
std::int64_t NextDegree(const Config& base, std::int64_t Parallelism::*field,
                        std::int64_t current) {
  const std::int64_t cap = field == &Parallelism::tp && base.device.devices_per_node > 0
                               ? std::max(current, base.device.devices_per_node)
                               : 1024;
  for (std::int64_t d = current * 2; d <= base.world_size && d <= cap && d <= 1024; d *= 2) {
    Config c = base;
    c.parallelism.*field = d;
    c.parallelism.dp_shard = -1;  // re-derive the leftover
    if (ValidateConfig(c).empty()) return d;
  }
  return 0;
}

Recommendation Evaluate(AdviceKind kind, std::int64_t from, std::int64_t to, const Candidate& c) {
  Estimate e = EstimateMemory(c.config);
  Recommendation r;
  r.kind = kind;
  r.from = from;
  r.to = to;
  r.changes = c.changes;
  r.total_bytes = e.per_device.total;
  r.fits = e.budget.fits;  // an invalid config leaves the budget unset: fits is false
  r.verdict = e.budget.verdict;
  return r;
}

// One rung: from the current candidate, the candidate this step proposes (false when the step
// does not apply), already evaluated.
struct Rung {
  Candidate candidate;
  Recommendation recommendation;
};
using StepFn = std::function<bool(const Candidate&, Rung&)>;

StepFn AcStep(AcMode mode) {
  return [mode](const Candidate& now, Rung& out) {
    const AcMode current = now.config.activation_checkpoint.mode;
    if (current == AcMode::kFull || (mode == AcMode::kSelective && current != AcMode::kNone))
      return false;
    out.candidate = now;
    out.candidate.config.activation_checkpoint.mode = mode;
    Set(out.candidate, "activation_checkpoint.mode", Quoted(AcModeName(mode)));
    if (mode == AcMode::kSelective) {
      out.candidate.config.activation_checkpoint.selective_ac_option = "op";
      Set(out.candidate, "activation_checkpoint.selective_ac_option", Quoted("op"));
    }
    out.recommendation =
        Evaluate(mode == AcMode::kSelective ? AdviceKind::kSelectiveAc : AdviceKind::kFullAc, 0, 0,
                 out.candidate);
    return true;
  };
}

// Megatron / MindSpeed without --use-distributed-optimizer: the cheapest step for the optimizer
// states is to shard the fp32 master and moments over the data-parallel ranks (ZeRO-1), before
// moving anything to the host. Kept only when it lowers the total (one data-parallel rank does
// not).
bool DistributedOptimizerStep(const Candidate& now, Rung& out) {
  if (now.config.framework != Framework::kMegatron ||
      now.config.parallelism.zero_stage.value_or(0) != 0)
    return false;
  out.candidate = now;
  out.candidate.config.parallelism.zero_stage = 1;
  Set(out.candidate, "parallelism.zero_stage", "1");
  out.recommendation = Evaluate(AdviceKind::kDistributedOptimizer, 0, 0, out.candidate);
  return true;
}

// One rung over candidate values, in order: the first whose total fits, else the one with the
// lowest total; false when there is none. `apply` sets a value on a copy of the candidate.
bool FirstFitOrLowest(const Candidate& now, AdviceKind kind, std::int64_t from,
                      const std::vector<std::int64_t>& values, Rung& out,
                      const std::function<void(Candidate&, std::int64_t)>& apply) {
  bool found = false;
  for (const std::int64_t v : values) {
    Rung rung{now, {}};
    apply(rung.candidate, v);
    rung.recommendation = Evaluate(kind, from, v, rung.candidate);
    if (!found || rung.recommendation.total_bytes < out.recommendation.total_bytes) {
      out = rung;
      found = true;
    }
    if (rung.recommendation.fits) {
      out = rung;
      break;
    }
  }
  return found;
}

// DeepSpeed: the ZeRO stage is the first lever after checkpointing (ZeRO paper, Rajbhandari et
// al. 2020, §5: stage 1 shards the optimizer states, 2 also the gradients, 3 also the
// parameters over the data-parallel ranks), before the states leave the device. The lowest
// stage above the current one that fits, else the one with the lowest total (stage 3).
bool ZeroStageStep(const Candidate& now, Rung& out) {
  if (now.config.framework != Framework::kDeepspeed) return false;
  const int from = now.config.parallelism.zero_stage.value_or(0);
  std::vector<std::int64_t> stages;
  for (int stage = from + 1; stage <= 3; ++stage) stages.push_back(stage);
  return FirstFitOrLowest(now, AdviceKind::kZeroStage, from, stages, out,
                          [](Candidate& c, std::int64_t stage) {
                            c.config.parallelism.zero_stage = static_cast<int>(stage);
                            Set(c, "parallelism.zero_stage", std::to_string(stage));
                          });
}

// A foreach or for-loop Adam step holds a copy of the second moments (or of the largest ones);
// the fused kernel none (estimate_params.cpp StepImplementationTemp). Free to switch: the first
// optimizer step, before anything leaves the device. Only where torch.optim steps.
bool FusedStepStep(const Candidate& now, Rung& out) {
  if (now.config.optimizer.implementation == OptimizerImpl::kFused ||
      !StepKernelApplies(now.config))
    return false;
  out.candidate = now;
  out.candidate.config.optimizer.implementation = OptimizerImpl::kFused;
  Set(out.candidate, "optimizer.implementation", Quoted("fused"));
  out.recommendation = Evaluate(AdviceKind::kFusedOptimizerStep, 0, 0, out.candidate);
  return true;
}

bool OptimizerStep(const Candidate& now, Rung& out) {
  out.candidate = now;
  if (!MoveOptimizerOffDevice(out.candidate)) return false;
  out.recommendation =
      Evaluate(out.candidate.config.optimizer.swap_optimizer ? AdviceKind::kSwapOptimizer
                                                             : AdviceKind::kOffloadOptimizer,
               0, 0, out.candidate);
  return true;
}

// The doublings of one degree, up to the world size: the first that fits, else the one with
// the lowest total.
StepFn DegreeStep(AdviceKind kind, const char* key, std::int64_t Parallelism::*field) {
  return [kind, key, field](const Candidate& now, Rung& out) {
    const std::int64_t from = now.config.parallelism.*field;
    std::vector<std::int64_t> degrees;
    for (std::int64_t d = NextDegree(now.config, field, from); d != 0;
         d = NextDegree(now.config, field, d))
      degrees.push_back(d);
    return FirstFitOrLowest(now, kind, from, degrees, out,
                            [&](Candidate& c, std::int64_t d) { SetDegree(c, key, field, d); });
  };
}

// Halvings of the local batch size (down to the PP microbatch) or of the sequence length (down
// to 512): the largest value that fits, else the smallest.
StepFn ShrinkStep(AdviceKind kind) {
  return [kind](const Candidate& now, Rung& out) {
    const bool batch = kind == AdviceKind::kBatchSize;
    const std::int64_t from =
        batch ? now.config.training.local_batch_size : now.config.training.seq_len;
    const std::int64_t floor =
        batch ? (now.config.parallelism.pp > 1 ? now.config.parallelism.pp_microbatch_size : 1)
              : 512;
    bool found = false;
    for (std::int64_t v = from / 2; v >= floor && v >= 1; v /= 2) {
      Rung rung{now, {}};
      if (batch) {
        rung.candidate.config.training.local_batch_size = v;
        Set(rung.candidate, "training.local_batch_size", std::to_string(v));
      } else {
        rung.candidate.config.training.seq_len = v;
        Set(rung.candidate, "training.seq_len", std::to_string(v));
      }
      if (!ValidateConfig(rung.candidate.config).empty()) break;
      rung.recommendation = Evaluate(kind, from, v, rung.candidate);
      out = rung;
      found = true;
      if (rung.recommendation.fits) break;
    }
    return found;
  };
}

// Context parallelism splits the sequence (torchtitan context_parallel_degree, Megatron
// --context-parallel-size); DeepSpeed and torchtune have no such degree here.
bool HasContextParallel(Framework f) {
  return f == Framework::kTorchtitan || f == Framework::kTorchtitanNpu || f == Framework::kMegatron;
}

std::vector<StepFn> Ladder(const Config& config) {
  // Checkpointing is tried again once the optimizer's steps have run: while the optimizer step
  // is the peak (unsharded states) it saves nothing and is passed over; after them it may be
  // what fits (Llama 3 70B under DeepSpeed ZeRO 0: ZeRO 3, offload, then full checkpointing).
  std::vector<StepFn> steps = {AcStep(AcMode::kSelective), AcStep(AcMode::kFull), FusedStepStep,
                               DistributedOptimizerStep,   ZeroStageStep,         OptimizerStep,
                               AcStep(AcMode::kSelective), AcStep(AcMode::kFull)};
  const StepFn tp = DegreeStep(AdviceKind::kTensorParallel, "parallelism.tensor_parallel_degree",
                               &Parallelism::tp);
  const StepFn pp = DegreeStep(AdviceKind::kPipelineParallel,
                               "parallelism.pipeline_parallel_degree", &Parallelism::pp);
  const StepFn ep = DegreeStep(AdviceKind::kExpertParallel, "parallelism.expert_parallel_degree",
                               &Parallelism::ep);
  // A DeepSpeed job under the Hugging Face Trainer has no pipeline engine (DeepSpeed's
  // PipelineModule needs the model rewritten as layers): no PP step there, unless the job
  // pipelines already.
  const bool pipelines = config.framework != Framework::kDeepspeed || config.parallelism.pp > 1;
  if (config.model.num_experts > 0) {
    steps.insert(steps.end(), {ep, tp});
    if (pipelines) steps.push_back(pp);
  } else {
    steps.push_back(tp);
    if (pipelines) steps.push_back(pp);
    steps.push_back(ep);
  }
  if (HasContextParallel(config.framework))
    steps.push_back(DegreeStep(AdviceKind::kContextParallel, "parallelism.context_parallel_degree",
                               &Parallelism::cp));
  steps.push_back(ShrinkStep(AdviceKind::kBatchSize));
  steps.push_back(ShrinkStep(AdviceKind::kSeqLen));
  return steps;
}

// A ladder step must save at least this share of the total it starts from, unless it is the one
// that makes the job fit clear of the error band.
constexpr double kMinSaving = 0.02;

// The cheapest combination that fits, ranked by the layout search's cost proxy (LayoutCost,
// search_cost.cpp), so the advice and the Layouts tab name the same cheapest layout wherever
// they consider the same candidates. Ties go to the smaller total, as in the search.
struct Choice {
  double cost = 0;
  Candidate candidate;
  std::int64_t total = 0;
};

std::vector<std::int64_t> Doublings(const Config& c, std::int64_t Parallelism::*field,
                                    int max_steps) {
  std::vector<std::int64_t> out{c.parallelism.*field};
  for (int i = 0; i < max_steps; ++i) {
    const std::int64_t next = NextDegree(c, field, out.back());
    if (next == 0) break;
    out.push_back(next);
  }
  return out;
}

void ConsiderCombination(const Config& job, const Candidate& cand, Choice& best, bool& found) {
  Result<Layout> layout = ResolveLayout(cand.config);
  if (!layout.ok()) return;
  const Config& c = cand.config;
  const double cost = LayoutCost(job, layout.value(), c.activation_checkpoint, c.optimizer,
                                 c.training.local_batch_size);
  if (found && cost > best.cost) return;
  Estimate e = EstimateMemory(cand.config);
  if (!e.budget.fits || e.per_device.total == 0) return;
  if (!found || cost < best.cost || (cost == best.cost && e.per_device.total < best.total)) {
    best = {cost, cand, e.per_device.total};
    found = true;
  }
}

struct Levers {
  int ac = 0;  // AcMode as int: none 0, selective 1, full 2
  bool move_optimizer = false;
  std::int64_t tp = 1, pp = 1, ep = 1, cp = 1;
  int zero = -1;  // DeepSpeed's ZeRO stage; -1 = the job's
  int batch_halvings = 0;
};

// The config with these levers pulled; false when the combination is invalid.
bool BuildCombination(const Config& config, const Levers& v, Candidate& c) {
  const Parallelism& now = config.parallelism;
  const int ac_now = static_cast<int>(config.activation_checkpoint.mode);
  c = Candidate{config, {}};
  if (v.ac != ac_now) {
    const AcMode mode = static_cast<AcMode>(v.ac);
    c.config.activation_checkpoint.mode = mode;
    Set(c, "activation_checkpoint.mode", Quoted(AcModeName(mode)));
    if (mode == AcMode::kSelective) {
      c.config.activation_checkpoint.selective_ac_option = "op";
      Set(c, "activation_checkpoint.selective_ac_option", Quoted("op"));
    }
  }
  if (v.zero >= 0 && v.zero != config.parallelism.zero_stage.value_or(0)) {
    c.config.parallelism.zero_stage = v.zero;
    Set(c, "parallelism.zero_stage", std::to_string(v.zero));
  }
  if (v.move_optimizer && !MoveOptimizerOffDevice(c)) return false;
  if (v.tp != now.tp || v.pp != now.pp || v.ep != now.ep || v.cp != now.cp) {
    c.config.parallelism.tp = v.tp;
    c.config.parallelism.pp = v.pp;
    c.config.parallelism.ep = v.ep;
    c.config.parallelism.cp = v.cp;
    // The leftover ranks go to FSDP, as SetDegree does: said only when it changes something.
    if (c.config.parallelism.dp_shard != -1) {
      c.config.parallelism.dp_shard = -1;
      Set(c, "parallelism.data_parallel_shard_degree", "-1");
    }
    if (v.tp != now.tp) Set(c, "parallelism.tensor_parallel_degree", std::to_string(v.tp));
    if (v.pp != now.pp) Set(c, "parallelism.pipeline_parallel_degree", std::to_string(v.pp));
    if (v.ep != now.ep) Set(c, "parallelism.expert_parallel_degree", std::to_string(v.ep));
    if (v.cp != now.cp) Set(c, "parallelism.context_parallel_degree", std::to_string(v.cp));
    if (!ValidateConfig(c.config).empty()) return false;
  }
  if (v.batch_halvings > 0) {
    const std::int64_t b = config.training.local_batch_size >> v.batch_halvings;
    if (b < 1 || (v.pp > 1 && b % c.config.parallelism.pp_microbatch_size != 0)) return false;
    c.config.training.local_batch_size = b;
    Set(c, "training.local_batch_size", std::to_string(b));
  }
  return true;
}

std::string Sentence(const Recommendation& r) {
  char buffer[160];
  const auto from = static_cast<long long>(r.from);
  const auto to = static_cast<long long>(r.to);
  switch (r.kind) {
    case AdviceKind::kSelectiveAc:
      return "Turn on selective activation checkpointing (per-operator policy)";
    case AdviceKind::kFullAc:
      return "Turn on full activation checkpointing (every layer recomputed in backward)";
    case AdviceKind::kFusedOptimizerStep:
      return "Step Adam with the fused kernel (adamw_torch_fused / fused=True): no copy of the "
             "moments during the step";
    case AdviceKind::kDistributedOptimizer:
      return "Use the distributed optimizer (fp32 master weights and moments sharded over data "
             "parallel ranks)";
    case AdviceKind::kSwapOptimizer:
      return "Swap the optimizer states to host memory (swap_optimizer)";
    case AdviceKind::kOffloadOptimizer:
      return "Offload the optimizer states and step to host memory";
    case AdviceKind::kTensorParallel:
      std::snprintf(buffer, sizeof buffer, "Raise tensor parallelism from %lld to %lld", from, to);
      return buffer;
    case AdviceKind::kPipelineParallel:
      std::snprintf(buffer, sizeof buffer, "Raise pipeline parallelism from %lld to %lld", from,
                    to);
      return buffer;
    case AdviceKind::kExpertParallel:
      std::snprintf(buffer, sizeof buffer, "Raise expert parallelism from %lld to %lld", from, to);
      return buffer;
    case AdviceKind::kContextParallel:
      std::snprintf(buffer, sizeof buffer,
                    "Raise context parallelism from %lld to %lld (the sequence split over ranks)",
                    from, to);
      return buffer;
    case AdviceKind::kBatchSize:
      std::snprintf(buffer, sizeof buffer, "Lower the local batch size from %lld to %lld", from,
                    to);
      return buffer;
    case AdviceKind::kSeqLen:
      std::snprintf(buffer, sizeof buffer, "Shorten the sequence length from %lld to %lld", from,
                    to);
      return buffer;
    case AdviceKind::kZeroStage:
      std::snprintf(buffer, sizeof buffer,
                    "Raise the ZeRO stage from %lld to %lld (shard the optimizer states%s over "
                    "the data-parallel ranks)",
                    from, to,
                    to >= 3   ? ", gradients and parameters"
                    : to == 2 ? " and gradients"
                              : "");
      return buffer;
    case AdviceKind::kCombination:
      break;
  }
  return "Cheapest combination under the limit";
}

}  // namespace

Recommendation CheapestFit(const Config& config) {
  // DeepSpeed (under the Hugging Face Trainer) shards with its ZeRO stage, not with tensor or
  // pipeline degrees it would need AutoTP or a PipelineModule for: its stages are the lever
  // there, and its TP and PP stay the job's.
  const bool deepspeed = config.framework == Framework::kDeepspeed;
  const auto tps = deepspeed ? std::vector<std::int64_t>{config.parallelism.tp}
                             : Doublings(config, &Parallelism::tp, 4);
  const auto pps = deepspeed ? std::vector<std::int64_t>{config.parallelism.pp}
                             : Doublings(config, &Parallelism::pp, 4);
  std::vector<int> zeros{-1};
  if (deepspeed)
    for (int z = config.parallelism.zero_stage.value_or(0) + 1; z <= 3; ++z) zeros.push_back(z);
  const auto eps = config.model.num_experts > 0 ? Doublings(config, &Parallelism::ep, 4)
                                                : std::vector<std::int64_t>{config.parallelism.ep};
  const auto cps = HasContextParallel(config.framework)
                       ? Doublings(config, &Parallelism::cp, 2)
                       : std::vector<std::int64_t>{config.parallelism.cp};
  Choice best;
  bool found = false;
  // The cheapest that fits, as the layout search ranks them (close to the limit or not: the
  // Layouts tab lists the same first; the pill says which).
  Levers v;
  for (v.ac = static_cast<int>(config.activation_checkpoint.mode); v.ac <= 2; ++v.ac)
    for (int move = 0; move <= 1; ++move)
      for (std::int64_t tp : tps)
        for (std::int64_t pp : pps)
          for (std::int64_t ep : eps)
            for (std::int64_t cp : cps)
              for (const int zero : zeros)
                for (v.batch_halvings = 0; v.batch_halvings <= 3; ++v.batch_halvings) {
                  v.zero = zero;
                  v.move_optimizer = move == 1;
                  v.tp = tp;
                  v.pp = pp;
                  v.ep = ep;
                  v.cp = cp;
                  Candidate c;
                  if (BuildCombination(config, v, c)) ConsiderCombination(config, c, best, found);
                }
  if (!found) return Recommendation{};
  Recommendation r = Evaluate(AdviceKind::kCombination, 0, 0, best.candidate);
  r.action = Sentence(r);
  return r;
}

std::vector<Recommendation> AdviceLadder(const Config& config) {
  std::vector<Recommendation> out;
  Candidate now{config, {}};
  std::int64_t total = EstimateMemory(config).per_device.total;
  for (const StepFn& step : Ladder(config)) {
    Rung rung;
    if (!step(now, rung)) continue;
    const Recommendation& r = rung.recommendation;
    const bool clears = r.fits && r.verdict == Verdict::kFits;
    if (r.total_bytes <= 0 || r.total_bytes >= total) continue;  // only steps that lower it
    if (!clears &&
        static_cast<double>(total - r.total_bytes) < kMinSaving * static_cast<double>(total))
      continue;
    now = rung.candidate;
    total = r.total_bytes;
    out.push_back(r);
    out.back().action = Sentence(r);
    if (r.fits && r.verdict == Verdict::kFits) break;  // close to the limit: go on
  }
  return out;
}

std::int64_t DevicesNeeded(const Config& config) {
  SearchOptions options;
  options.limit = 1;
  for (std::int64_t ws = config.world_size * 2; ws <= kMaxDevicesAdvised; ws *= 2) {
    Config c = config;
    c.world_size = ws;
    c.parallelism.dp_shard = -1;
    if (!SearchLayouts(c, options).layouts.empty()) return ws;
  }
  return 0;
}

Estimate EstimateWithAdvice(const Config& config) {
  Estimate e = EstimateMemory(config);
  if ((e.budget.fits && e.budget.verdict == Verdict::kFits) || e.per_device.total <= 0) return e;
  e.recommendations = AdviceLadder(config);
  const Recommendation cheapest = CheapestFit(config);
  // The same changes in any order: the ladder sets them step by step, the combination at once.
  const auto sorted = [](Changes c) {
    std::sort(c.begin(), c.end());
    return c;
  };
  const Changes cheapest_changes = sorted(cheapest.changes);
  const bool ladder_has_it =
      std::any_of(e.recommendations.begin(), e.recommendations.end(),
                  [&](const Recommendation& r) { return sorted(r.changes) == cheapest_changes; });
  if (!cheapest.changes.empty() && !ladder_has_it) e.recommendations.push_back(cheapest);
  // Devices that would fit when no step here fits clear of the error band (a step that is only
  // close to the limit is not a plan to rely on).
  const bool any_clear =
      std::any_of(e.recommendations.begin(), e.recommendations.end(),
                  [](const Recommendation& r) { return r.fits && r.verdict == Verdict::kFits; });
  if (!any_clear) e.devices_needed = DevicesNeeded(config);
  return e;
}

}  // namespace trainmem
