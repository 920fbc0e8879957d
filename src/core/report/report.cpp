// Serialising an Estimate. EstimateToJson is the output schema of DESIGN.md
// ("trainmem.estimate/v1"); the CLI's --json, the page's JSON export and the DOM mirror all use
// it, so the three are byte-identical for the same config.
#include "core/report/report.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace trainmem {
namespace {

using nlohmann::json;

}  // namespace

json BreakdownToJson(const MemoryBreakdown& m) {
  return {{"parameters", m.parameters},
          {"gradients", m.gradients},
          {"optimizer_states", m.optimizer_states},
          {"activations", m.activations},
          {"temporary", m.temporary},
          {"total", m.total},
          {"peak_allocated", m.peak_allocated},
          {"first_iteration_peak_allocated", m.first_iteration_peak_allocated}};
}

namespace {

json TemporaryJson(const TemporaryBreakdown& t) {
  return {{"gathered_params", t.gathered_params},    {"unsharded_grads", t.unsharded_grads},
          {"grad_buckets", t.grad_buckets},          {"workspaces", t.workspaces},
          {"optimizer_step", t.optimizer_step},      {"fraction", t.fraction},
          {"allocator_reserve", t.allocator_reserve}};
}

json ActivationJson(const ActivationBreakdown& a) {
  // Rounded so the JSON is stable across platforms (wasm and native print doubles alike, but
  // the last digit of a derived ratio is not worth a diff).
  auto round3 = [](double v) { return std::round(v * 1000.0) / 1000.0; };
  return {{"bytes_per_token_per_layer", round3(a.bytes_per_token_per_layer)},
          {"k_equivalent", round3(a.k_equivalent)},
          {"per_layer", a.per_layer},
          {"layers_kept", a.layers_kept},
          {"microbatches_in_flight", a.microbatches_in_flight},
          {"saved_layers", a.saved_layers},
          {"recompute_layer", a.recompute_layer},
          {"embedding_output", a.embedding_output},
          {"logits_and_loss", a.logits_and_loss},
          {"attention_scores", a.attention_scores},
          {"attention_mask", a.attention_mask},
          {"dsa_scores_buffer", a.dsa_scores_buffer},
          {"deferred_wgrad_buffers", a.deferred_wgrad_buffers},
          {"offloaded_to_host", a.offloaded_to_host}};
}

json StageJson(const StageEstimate& s) {
  json j = BreakdownToJson(s.bytes);
  j["stage"] = s.stage;
  j["first_layer"] = s.first_layer;
  j["num_layers"] = s.num_layers;
  j["has_embedding"] = s.has_embedding;
  j["has_head"] = s.has_head;
  j["peak_phase"] = s.peak_phase;
  j["temporary_breakdown"] = TemporaryJson(s.temporary);
  j["activation_breakdown"] = ActivationJson(s.activations);
  return j;
}

json RecommendationJson(const Recommendation& r) {
  json changes = json::object();
  for (const auto& [key, value] : r.changes) {
    json parsed = json::parse(value, nullptr, false);
    changes[key] = parsed.is_discarded() ? json(value) : parsed;
  }
  return {{"action", r.action},
          {"changes", changes},
          {"total_bytes", r.total_bytes},
          {"fits", r.fits},
          {"verdict", VerdictName(r.verdict)}};
}

}  // namespace

json EstimateToJson(const Estimate& e) {
  json j;
  j["schema"] = "trainmem.estimate/v1";
  j["config"] = ConfigToJson(e.config);
  j["model"] = {{"total_params", e.params.total},
                {"active_params", e.params.active},
                {"dense_params", e.params.dense},
                {"expert_params", e.params.expert},
                {"embedding_params", e.params.embedding},
                {"output_head_params", e.params.output_head},
                {"mtp_params", e.params.mtp},
                {"vision_params", e.params.vision}};  // a trained vision tower (else 0)
  j["layout"] = {{"dp_replicate", e.layout.dp_replicate},
                 {"dp_shard", e.layout.dp_shard},
                 {"tp", e.layout.tp},
                 {"pp", e.layout.pp},
                 {"cp", e.layout.cp},
                 {"ep", e.layout.ep},
                 {"etp", e.layout.etp}};
  j["per_device_bytes"] = BreakdownToJson(e.per_device);
  json stages = json::array();
  for (const StageEstimate& s : e.stages) stages.push_back(StageJson(s));
  j["pipeline_stages"] = stages;
  j["worst_stage"] = e.worst_stage;
  j["host_bytes"] = {{"optimizer_states", e.host_optimizer_bytes},
                     {"activations", e.host_activation_bytes}};
  j["budget"] = {{"device_bytes", e.budget.device_bytes},
                 {"usable_bytes", e.budget.usable_bytes},
                 {"outside_allocator_bytes", e.budget.outside_allocator_bytes},
                 {"fits", e.budget.fits},
                 {"headroom_bytes", e.budget.headroom_bytes},
                 {"verdict", VerdictName(e.budget.verdict)},
                 {"error_band", std::round(e.budget.error_band * 1e4) / 1e4}};
  j["accuracy"] = {{"family", e.accuracy.family},
                   {"label", e.accuracy.label},
                   {"runs", e.accuracy.runs},
                   {"median_abs_error", std::round(e.accuracy.median * 1e4) / 1e4},
                   {"error_band", std::round(e.accuracy.band * 1e4) / 1e4},
                   {"error_band_below", std::round(e.accuracy.below * 1e4) / 1e4},
                   {"text", ErrorBandText(e.accuracy)}};
  const TemplateComparison& t = e.template_comparison;
  if (t.available) {
    j["template"] = {{"nominal_params", t.nominal_params},
                     {"exact_params", t.exact_params},
                     {"nominal", BreakdownToJson(t.nominal)},
                     {"exact", BreakdownToJson(t.exact)},
                     {"explanation", TemplateExplanation(t)}};
  }
  json recs = json::array();
  for (const Recommendation& r : e.recommendations) recs.push_back(RecommendationJson(r));
  j["recommendations"] = recs;
  if (e.devices_needed > 0) j["devices_needed"] = e.devices_needed;
  j["warnings"] = e.warnings;
  return j;
}

// snprintf into small buffers here and in report_text.cpp, compare.cpp, compare_report.cpp and
// measured_link.cpp, not {fmt}: this code is compiled into the page, which links the C library's
// printf anyway (Dear ImGui formats every label with vsnprintf), while {fmt} brings its own float
// formatting. Measured with FMT_HEADER_ONLY on those five files, web-release (-Oz): trainmem.wasm
// 455556 -> 476729 B brotli-11 (+21.2 kB; raw 1360632 -> 1423347 B). The native CLI and the
// benchmarks, where size does not matter, use {fmt}. snprintf cuts a line longer than its
// buffer, never overflows it.
// Beyond 100,000 GiB (an absurd sequence, a model on too few devices) the figure goes to TiB /
// PiB so it stays short enough for a table cell.
std::string FormatGiB(std::int64_t bytes) {
  char buf[48];
  const double gib = static_cast<double>(bytes) / 1073741824.0;
  if (std::fabs(gib) >= 1e5 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f PiB", gib / (1024.0 * 1024.0));
  else if (std::fabs(gib) >= 1e5)
    std::snprintf(buf, sizeof buf, "%.2f TiB", gib / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%.2f GiB", gib);
  return buf;
}

std::string FormatGB(std::int64_t bytes) {
  char buf[48];
  const double gb = static_cast<double>(bytes) / 1e9;
  if (std::fabs(gb) >= 1e8)
    std::snprintf(buf, sizeof buf, "%.2f PB", gb / 1e6);
  else if (std::fabs(gb) >= 1e5)
    std::snprintf(buf, sizeof buf, "%.2f TB", gb / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.2f GB", gb);
  return buf;
}

std::string FormatCount(std::int64_t count) {
  char buf[48];
  const double c = static_cast<double>(count);
  if (c >= 1e12)
    std::snprintf(buf, sizeof buf, "%.2fT", c / 1e12);
  else if (c >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2fB", c / 1e9);
  else if (c >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2fM", c / 1e6);
  else if (c >= 1e3)
    std::snprintf(buf, sizeof buf, "%.1fK", c / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(count));
  return buf;
}

}  // namespace trainmem
