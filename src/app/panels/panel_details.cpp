// Details behind the total: parameter counts and the resolved layout, host memory, and how the
// activation and temporary figures were derived (from the worst pipeline stage).
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

bool BeginKeyValues(const char* id) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_NoSavedSettings | ImGuiTableFlags_RowBg))
    return false;
  ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed, Em(8.5f));
  return true;
}

void KeyValue(Str key, const std::string& value, Str help = Str::kEmpty) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(Tr(key));
  if (help != Str::kEmpty) Tooltip(Tr(help));
  ImGui::TableNextColumn();
  TextRight(value.c_str());
}

void KeyBytes(Str key, std::int64_t bytes, Str help = Str::kEmpty) {
  KeyValue(key, trainmem::FormatGiB(bytes), help);
}

// "104 516 B": thin-space thousands, readable in any locale.
std::string GroupedBytes(double bytes) {
  std::string digits = std::to_string(static_cast<long long>(bytes + 0.5));
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), " ");
  return digits + " B";
}

const trainmem::StageEstimate* WorstStage(const trainmem::Estimate& e) {
  for (const auto& stage : e.stages) {
    if (stage.stage == e.worst_stage) return &stage;
  }
  return e.stages.empty() ? nullptr : &e.stages.front();
}

void DrawLayout(const trainmem::Layout& l) {
  const std::string text =
      TrFormat(Str::kLayoutDetailTemplate, static_cast<long long>(l.dp_replicate),
               static_cast<long long>(l.dp_shard), static_cast<long long>(l.tp),
               static_cast<long long>(l.pp), static_cast<long long>(l.cp),
               static_cast<long long>(l.ep), static_cast<long long>(l.etp));
  TextMuted(text.c_str());
}

void DrawTemporaryBreakdown(const trainmem::TemporaryBreakdown& t) {
  if (!ImGui::TreeNode(Tr(Str::kTemporaryDetails))) return;
  if (BeginKeyValues("temporary")) {
    KeyBytes(Str::kTempGatheredParams, t.gathered_params);
    KeyBytes(Str::kTempUnshardedGrads, t.unsharded_grads);
    KeyBytes(Str::kTempGradBuckets, t.grad_buckets);
    KeyBytes(Str::kTempWorkspaces, t.workspaces);
    KeyBytes(Str::kTempOptimizerStep, t.optimizer_step);
    KeyBytes(Str::kTempFraction, t.fraction);
    KeyBytes(Str::kTempAllocatorReserve, t.allocator_reserve, Str::kTempAllocatorReserveHelp);
    ImGui::EndTable();
  }
  ImGui::TreePop();
}

}  // namespace

void DrawModelFactsPanel(AppState& state) {
  const trainmem::Estimate& e = state.estimate;
  BeginCard("model_facts");
  SectionTitle(Str::kSectionModelFacts);
  if (BeginKeyValues("params")) {
    KeyValue(Str::kParamsTotal, trainmem::FormatCount(e.params.total));
    KeyValue(Str::kParamsActive, trainmem::FormatCount(e.params.active), Str::kParamsActiveHelp);
    KeyValue(Str::kParamsDense, trainmem::FormatCount(e.params.dense));
    KeyValue(Str::kParamsExpert, trainmem::FormatCount(e.params.expert));
    KeyValue(Str::kParamsEmbedding,
             trainmem::FormatCount(e.params.embedding + e.params.output_head));
    if (e.config.model.vision_params > 0) {
      const trainmem::VisionTower role = e.config.training.vision_tower;
      KeyValue(role == trainmem::VisionTower::kTrained  ? Str::kParamsVisionTrained
               : role == trainmem::VisionTower::kFrozen ? Str::kParamsVisionFrozen
                                                        : Str::kParamsVision,
               trainmem::FormatCount(e.config.model.vision_params), Str::kParamsVisionHelp);
    }
    if (e.host_optimizer_bytes > 0)
      KeyBytes(Str::kHostOptimizer, e.host_optimizer_bytes, Str::kHostOptimizerHelp);
    if (e.host_activation_bytes > 0) KeyBytes(Str::kHostActivations, e.host_activation_bytes);
    ImGui::EndTable();
  }
  DrawLayout(e.layout);
  EndCard();
}

void DrawActivationsPanel(AppState& state) {
  const trainmem::StageEstimate* stage = WorstStage(state.estimate);
  if (stage == nullptr) return;
  const trainmem::ActivationBreakdown& a = stage->activations;
  BeginCard("activations");
  SectionTitle(Str::kSectionActivations);
  char number[64];
  if (BeginKeyValues("derivation")) {
    std::snprintf(number, sizeof(number), "%.2f", a.k_equivalent);
    KeyValue(Str::kActK, number, Str::kActKHelp);
    KeyValue(Str::kActBytesPerToken, GroupedBytes(a.bytes_per_token_per_layer));
    KeyBytes(Str::kActPerLayer, a.per_layer);
    KeyValue(Str::kActLayersKept, std::to_string(a.layers_kept));
    KeyValue(Str::kActMicrobatches, std::to_string(a.microbatches_in_flight));
    KeyBytes(Str::kActSavedLayers, a.saved_layers);
    KeyBytes(Str::kActRecompute, a.recompute_layer);
    KeyBytes(Str::kActEmbedding, a.embedding_output);
    KeyBytes(Str::kActLogits, a.logits_and_loss);
    if (a.attention_scores > 0) KeyBytes(Str::kActAttentionScores, a.attention_scores);
    if (a.offloaded_to_host > 0) KeyBytes(Str::kActOffloaded, a.offloaded_to_host);
    ImGui::EndTable();
  }
  DrawTemporaryBreakdown(stage->temporary);
  EndCard();
}

}  // namespace app
