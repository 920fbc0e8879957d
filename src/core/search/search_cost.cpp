// The cost proxy (LayoutCost, search.h) the layout search and the advice's cheapest combination
// both rank by: the step time of a layout relative to an ideal one (1.0 = pure data parallelism,
// nothing recomputed, no pipeline bubble, optimizer on the device, the job's own batch). Lower is
// better. It ranks configurations that all fit; it is not a throughput model, and its weights are
// rules of thumb from the sources below, chosen so that the order matches what practitioners pick:
//
//   cost = (1 + recompute) × pipeline × (1 + communication) × (1 + host_optimizer)
//          × (1 + smaller_batch)
//
// recompute (extra forward work; backward ≈ 2 × forward, so one extra forward ≈ +33%):
//   none 0; selective "op" +7% (torchtitan's op-level SAC re-runs the cheap ops between the saved
//   matmul/attention outputs: the 5–10% Korthikanti et al. 2022 §5 report for selective
//   recomputation; Megatron's selective = core attention, the same figure whatever the option);
//   selective k (every k-th block fully recomputed) +33%/k; full +33%.
// pipeline (Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters
//   Using Megatron-LM", §2.2): bubble fraction (pp−1)/(v·m + pp−1) of the step, so time ×
//   (1 + (pp−1)/(v·m)); m = local_batch_size / microbatch size, v = 2 virtual stages for
//   Interleaved1F1B (as the estimator splits them); ZeroBubble keeps a third of the 1F1B bubble
//   (Qi et al. 2023, ZB-H1).
// communication, summed:
//   TP inside a node (NVLink / HCCS) +4% per doubling — the same paper (§5.4) finds TP within a
//   node cheap; each doubling beyond devices_per_node +50% (TP over the inter-node fabric collapses
//   throughput, ibid.).
//   CP +8% per doubling (ring attention overlaps most of the KV exchange with compute).
//   EP +2% per doubling (one all-to-all pair per MoE block; cheap next to the expert matmuls);
//   ETP = TP on the experts +3% per doubling (an extra all-reduce per MoE block).
//   dp_shard +1% per doubling (FSDP all-gathers and reduce-scatters every block; their latency
//   grows with the group); dp_replicate +0.5% per doubling (one all-reduce of the shard per step),
//   so at scale HSDP is slightly preferred over one huge shard group.
// host_optimizer: swap_optimizer +3% (slices copied while the step runs); optimizer offload +15%
//   (the step runs on the host CPU and the gradients cross PCIe; ZeRO-Offload, Ren et al. 2021).
// smaller_batch: +50% per halving of the local batch below the job's (only the advice lowers it).
//   Keeping the global batch then takes twice the gradient-accumulation steps, each repeating the
//   per-microbatch FSDP all-gathers / reduce-scatters and pipeline fills, and dropping it changes
//   the run's optimisation; practitioners shrink the batch last (the seed's order, advise.cpp), so
//   a halving weighs more than full recomputation.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/search/search.h"
#include "core/search/search_detail.h"

namespace trainmem::search_detail {
namespace {

constexpr double kTpInNodePerDoubling = 0.04;
constexpr double kTpCrossNodePerDoubling = 0.50;
constexpr double kCpPerDoubling = 0.08;
constexpr double kEpPerDoubling = 0.02;
constexpr double kEtpPerDoubling = 0.03;
constexpr double kDpShardPerDoubling = 0.01;
constexpr double kDpReplicatePerDoubling = 0.005;
constexpr double kSelectiveOpRecompute = 0.07;
constexpr double kFullRecompute = 0.33;
constexpr double kSwapOptimizer = 0.03;
constexpr double kOffloadOptimizer = 0.15;
constexpr double kZeroBubbleShare = 1.0 / 3.0;
constexpr double kBatchHalving = 0.50;

double Doublings(std::int64_t degree) {
  return degree > 1 ? std::log2(static_cast<double>(degree)) : 0.0;
}

struct Terms {
  double recompute = 0;
  double pipeline_idle = 0;  // pipeline = 1 + pipeline_idle
  double tp_in_node = 0, tp_cross_node = 0, cp = 0, ep = 0, etp = 0, dp_shard = 0, dp_replicate = 0;
  double host_optimizer = 0;
  double smaller_batch = 0;
  std::int64_t microbatches = 1;
};

double Recompute(Framework framework, const ActivationCheckpoint& ac) {
  if (ac.mode == AcMode::kFull) return kFullRecompute;
  if (ac.mode == AcMode::kNone) return 0;
  // Megatron's selective recompute is core attention only, whatever selective_ac_option says.
  if (ac.selective_ac_option == "op" || framework == Framework::kMegatron)
    return kSelectiveOpRecompute;
  const long k = std::strtol(ac.selective_ac_option.c_str(), nullptr, 10);
  return k > 0 ? kFullRecompute / static_cast<double>(k) : kSelectiveOpRecompute;
}

double PipelineIdle(const Config& base, const Layout& l, std::int64_t microbatches) {
  if (l.pp <= 1) return 0;
  const PpSchedule schedule = base.parallelism.pp_schedule;
  const double virtual_stages = schedule == PpSchedule::kInterleaved1F1B ? 2.0 : 1.0;
  double idle =
      static_cast<double>(l.pp - 1) / (virtual_stages * static_cast<double>(microbatches));
  if (schedule == PpSchedule::kZeroBubble) idle *= kZeroBubbleShare;
  return idle;
}

Terms TermsOf(const Config& base, const Layout& l, const ActivationCheckpoint& ac,
              const Optimizer& optimizer, std::int64_t local_batch_size) {
  Terms t;
  t.recompute = Recompute(base.framework, ac);
  const std::int64_t batch = std::max<std::int64_t>(1, local_batch_size);
  const std::int64_t mbs = std::max<std::int64_t>(1, base.parallelism.pp_microbatch_size);
  t.microbatches = std::max<std::int64_t>(1, batch / mbs);
  if (batch < base.training.local_batch_size) {
    t.smaller_batch =
        kBatchHalving *
        std::log2(static_cast<double>(base.training.local_batch_size) / static_cast<double>(batch));
  }
  t.pipeline_idle = PipelineIdle(base, l, t.microbatches);
  const std::int64_t per_node = std::max<std::int64_t>(1, base.device.devices_per_node);
  t.tp_in_node = kTpInNodePerDoubling * Doublings(std::min(l.tp, per_node));
  if (l.tp > per_node) {
    t.tp_cross_node = kTpCrossNodePerDoubling *
                      std::log2(static_cast<double>(l.tp) / static_cast<double>(per_node));
  }
  t.cp = kCpPerDoubling * Doublings(l.cp);
  t.ep = kEpPerDoubling * Doublings(l.ep);
  t.etp = kEtpPerDoubling * Doublings(l.etp);
  t.dp_shard = kDpShardPerDoubling * Doublings(l.dp_shard);
  t.dp_replicate = kDpReplicatePerDoubling * Doublings(l.dp_replicate);
  if (optimizer.offload)
    t.host_optimizer = kOffloadOptimizer;
  else if (optimizer.swap_optimizer)
    t.host_optimizer = kSwapOptimizer;
  return t;
}

std::string Percent(double fraction) {
  // Whole percents, except below 1% where "+0%" would hide the term. No printf: notes are built
  // for every returned layout, thousands in a full search.
  const double percent = fraction * 100.0;
  const long long tenths = std::llround(percent * 10.0);
  if (tenths >= 10) return "+" + std::to_string(std::llround(percent)) + "%";
  return "+0." + std::to_string(tenths) + "%";
}

}  // namespace

std::string CostNote(const Config& base, const Layout& l, const ActivationCheckpoint& ac,
                     const Optimizer& optimizer) {
  const Terms t = TermsOf(base, l, ac, optimizer, base.training.local_batch_size);
  std::string note;
  auto add = [&note](const std::string& what, double fraction) {
    if (fraction <= 0) return;
    note += (note.empty() ? "" : ", ") + what + " " + Percent(fraction);
  };
  add("TP " + std::to_string(l.tp) + (t.tp_cross_node > 0 ? " across nodes" : " in-node"),
      t.tp_in_node + t.tp_cross_node);
  add("PP " + std::to_string(l.pp) + " bubble (" + std::to_string(t.microbatches) +
          " microbatches)",
      t.pipeline_idle);
  add("CP " + std::to_string(l.cp), t.cp);
  add("EP " + std::to_string(l.ep), t.ep);
  add("ETP " + std::to_string(l.etp), t.etp);
  add("FSDP " + std::to_string(l.dp_shard), t.dp_shard);
  add("replicas " + std::to_string(l.dp_replicate), t.dp_replicate);
  add(ac.mode == AcMode::kFull ? "full AC" : "selective AC (" + ac.selective_ac_option + ")",
      t.recompute);
  add(optimizer.offload ? "optimizer offload" : "swap_optimizer", t.host_optimizer);
  return note.empty() ? "ideal: no overhead modelled" : note;
}

}  // namespace trainmem::search_detail

namespace trainmem {

double LayoutCost(const Config& job, const Layout& layout, const ActivationCheckpoint& ac,
                  const Optimizer& optimizer, std::int64_t local_batch_size) {
  const search_detail::Terms t =
      search_detail::TermsOf(job, layout, ac, optimizer, local_batch_size);
  const double communication =
      t.tp_in_node + t.tp_cross_node + t.cp + t.ep + t.etp + t.dp_shard + t.dp_replicate;
  const double cost = (1 + t.recompute) * (1 + t.pipeline_idle) * (1 + communication) *
                      (1 + t.host_optimizer) * (1 + t.smaller_batch);
  return std::round(cost * 1e6) / 1e6;
}

}  // namespace trainmem
