// The seed's template, verbatim (seed/README.md):
//   ① dense: P·b/(TP·PP); MoE: P_dense·b/(TP·PP) + P_expert·b/(TP·EP·PP)
//   ② gradients = parameters
//   ③ AdamW: P/parallel_degree × 4 B × 2, further /dp_shard with FSDP; 0 with swap_optimizer
//   ④ none: B·S·H·L·b·K; full: B·S·H·b; selective: between (we take the midpoint);
//      TP/SP and CP divide activations; each PP stage holds L/PP layers and, with
//      microbatches, B = microbatch × min(PP, microbatches) (1F1B's first stage)
//   ⑤ temporary = temporary_fraction × (① + ② + ③ + ④)
// "dtype bytes" b: bf16 2, fp32 4, fp8 1. GB = 10^9 bytes.
#include "core/estimate/template_mode.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/estimate/estimate_internal.h"

namespace trainmem {
namespace {

using detail::ToBytes;

double ParamBytes(const Config& c) {
  return c.training.fp8 ? 1.0 : static_cast<double>(DTypeBytes(c.training.mixed_precision_param));
}

MemoryBreakdown TemplateBreakdown(const Config& c, const Layout& l, double dense, double expert) {
  const double b = ParamBytes(c);
  const double tp = static_cast<double>(l.tp), pp = static_cast<double>(l.pp);
  const double ep = static_cast<double>(l.ep);
  const double local_params = dense / (tp * pp) + expert / (tp * ep * pp);
  MemoryBreakdown m;
  const double params = local_params * b;
  double states = local_params * detail::OptimizerStatesPerParam(c) *
                  static_cast<double>(DTypeBytes(c.optimizer.state_dtype));
  if (l.dp_shard > 1) states /= static_cast<double>(l.dp_shard);
  if (EffectiveOptimizerPlacement(c) != OptimizerPlacement::kDevice) states = 0;

  // B is the batch a device holds at once. With pipeline parallelism the local batch runs as
  // microbatches of pp_microbatch_size (Megatron's --micro-batch-size) and the first stage of
  // 1F1B holds up to PP of them (the seed's B, read per stage; without PP it is the local batch).
  double batch = static_cast<double>(c.training.local_batch_size);
  if (l.pp > 1) {
    const std::int64_t micro = std::max<std::int64_t>(1, c.parallelism.pp_microbatch_size);
    const std::int64_t microbatches =
        std::max<std::int64_t>(1, c.training.local_batch_size / micro);
    batch = static_cast<double>(micro * std::min(l.pp, microbatches));
  }
  const double tokens = batch * static_cast<double>(c.training.seq_len);
  const double h = static_cast<double>(c.model.hidden_size);
  const double layers = static_cast<double>(c.model.num_layers) / pp;
  const double none = tokens * h * layers * b * kTemplateActivationK;
  const double full = tokens * h * b;
  double acts = none;
  if (c.activation_checkpoint.mode == AcMode::kFull) acts = full;
  if (c.activation_checkpoint.mode == AcMode::kSelective) acts = (none + full) / 2;
  acts /= tp * static_cast<double>(l.cp);

  m.parameters = ToBytes(params);
  m.gradients = ToBytes(params);
  m.optimizer_states = ToBytes(states);
  m.activations = ToBytes(acts);
  const std::int64_t rest = m.parameters + m.gradients + m.optimizer_states + m.activations;
  m.temporary = ToBytes(static_cast<double>(rest) * c.overhead.temporary_fraction);
  m.total = rest + m.temporary;
  m.peak_allocated = m.total;  // the template has no allocator model
  return m;
}

std::string Billions(double n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4gB", n / 1e9);
  return buf;
}

}  // namespace

TemplateComparison TemplateComparisonFor(const Config& c, const Layout& l,
                                         const ParamCounts& exact) {
  TemplateComparison t;
  t.available = true;
  const bool has_nominal = c.nominal_params > 0;
  const double nominal_total =
      has_nominal ? static_cast<double>(c.nominal_params) : static_cast<double>(exact.total);
  const double nominal_expert = has_nominal ? static_cast<double>(c.nominal_expert_params)
                                            : static_cast<double>(exact.expert);
  t.nominal_params = ToBytes(nominal_total);
  t.exact_params = exact.total;
  t.nominal = TemplateBreakdown(c, l, nominal_total - nominal_expert, nominal_expert);
  t.exact =
      TemplateBreakdown(c, l, static_cast<double>(exact.dense), static_cast<double>(exact.expert));
  t.has_nominal = has_nominal;
  t.nominal_expert_params = ToBytes(nominal_expert);
  t.exact_expert_params = exact.expert;
  return t;
}

std::string TemplateExplanation(const TemplateComparison& t) {
  if (!t.available) return "";
  if (!t.has_nominal) return "No nominal size for this model: both columns use the exact count.";
  const double nominal = static_cast<double>(t.nominal_params);
  const double exact = static_cast<double>(t.exact_params);
  std::string why = "The template uses the size in the model's name (" + Billions(nominal);
  if (t.nominal_expert_params > 0)
    why += ", of which " + Billions(static_cast<double>(t.nominal_expert_params)) + " in experts";
  why += "); counting the architecture gives " + Billions(exact);
  if (t.exact_expert_params > 0)
    why += " (" + Billions(static_cast<double>(t.exact_expert_params)) + " in routed experts)";
  char diff[32];
  std::snprintf(diff, sizeof diff, ", %+.2f%%.", (exact - nominal) / nominal * 100);
  return why + diff;
}

std::vector<StageEstimate> TemplateStages(const Config& c, const Layout& l,
                                          const TemplateComparison& t) {
  std::vector<StageEstimate> stages;
  const std::int64_t per_stage = c.model.num_layers / l.pp;
  for (std::int64_t s = 0; s < l.pp; ++s) {
    StageEstimate st;
    st.stage = static_cast<int>(s);
    st.first_layer = s * per_stage;
    st.num_layers = (s == l.pp - 1) ? c.model.num_layers - s * per_stage : per_stage;
    st.has_embedding = s == 0;
    st.has_head = s == l.pp - 1;
    st.bytes = t.nominal;
    st.temporary.fraction = t.nominal.temporary;
    st.activations.k_equivalent =
        c.activation_checkpoint.mode == AcMode::kNone
            ? kTemplateActivationK
            : (c.activation_checkpoint.mode == AcMode::kFull
                   ? 1.0 / static_cast<double>(std::max<std::int64_t>(1, per_stage))
                   : kTemplateActivationK / 2);
    st.activations.saved_layers = t.nominal.activations;
    st.peak_phase = "template (sum of components)";
    stages.push_back(st);
  }
  return stages;
}

std::int64_t TemplateHostOptimizerBytes(const Config& c, const Layout& l) {
  if (EffectiveOptimizerPlacement(c) == OptimizerPlacement::kDevice) return 0;
  Config on_device = c;
  on_device.optimizer.swap_optimizer = false;
  on_device.optimizer.offload = false;
  return TemplateComparisonFor(on_device, l, CountParams(c.model, false)).nominal.optimizer_states;
}

}  // namespace trainmem
