// Advice: the core's recommendation ladder (activation checkpointing → swap_optimizer →
// TP/PP/EP → batch/seq), each step with its new total and verdict; one click applies it.
#include <algorithm>
#include <string>
#include <utility>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/panels.h"
#include "app/widgets.h"
#include "core/report.h"

namespace app {
namespace {

// "parallelism.tensor_parallel_degree" → "tensor_parallel_degree": the section adds length, not
// meaning, for these two (the tooltip on Apply keeps the full keys).
std::string ShortKey(const std::string& key) {
  for (const char* prefix : {"parallelism.", "training."}) {
    const std::string p = prefix;
    if (key.compare(0, p.size(), p) == 0) return key.substr(p.size());
  }
  return key;
}

bool HasChange(const trainmem::Recommendation* rec,
               const std::pair<std::string, std::string>& change) {
  if (rec == nullptr) return false;
  return std::find(rec->changes.begin(), rec->changes.end(), change) != rec->changes.end();
}

// "activation_checkpoint.mode = "full", …". The ladder is cumulative, so a row lists only what it
// adds to the row above (`previous`); the Apply tooltip lists everything a click sets.
std::string ChangesText(const trainmem::Recommendation& rec,
                        const trainmem::Recommendation* previous) {
  std::string text;
  for (const auto& change : rec.changes) {
    if (HasChange(previous, change)) continue;
    if (!text.empty()) text += previous ? ", " : "\n";
    text += (previous ? "+ " : "") + ShortKey(change.first) + " = " + change.second;
  }
  return text;
}

void DrawStep(AppState& state, int index, const trainmem::Recommendation& rec,
              const trainmem::Recommendation* previous) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::Text("%d.", index + 1);
  ImGui::TableNextColumn();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(rec.action.c_str());
  ImGui::PopTextWrapPos();
  std::string added = ChangesText(rec, previous);
  if (added.empty())
    added = ChangesText(rec, nullptr);  // e.g. "cheapest combination" = a row above
  std::string changes;
  for (const auto& [key, value] : rec.changes)
    changes += (changes.empty() ? "" : "\n") + key + " = " + value;
  ImGui::PushStyleColor(ImGuiCol_Text, MutedTextColor());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(added.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ImGui::TableNextColumn();
  TextRight(trainmem::FormatGiB(rec.total_bytes).c_str());
  ImGui::TableNextColumn();
  Pill(Tr(rec.fits ? Str::kPillFits : Str::kPillNoFit),
       rec.fits ? FitsColors() : DoesNotFitColors());
  ImGui::TableNextColumn();
  ImGui::PushID(index);
  if (ImGui::Button(Tr(Str::kApply))) {
    const trainmem::Recommendation chosen = rec;  // the click re-estimates and replaces the list
    ApplyRecommendation(state, chosen);
    ShowFeedback(state, TrFormat(Str::kFeedbackApplied, chosen.action.c_str()));
  }
  Tooltip(changes.c_str());
  ImGui::PopID();
}

}  // namespace

void DrawAdvicePanel(AppState& state) {
  BeginCard("advice");
  SectionTitle(Str::kSectionAdvice);
  const auto& recommendations = state.estimate.recommendations;
  if (recommendations.empty()) {
    TextMuted(Tr(state.estimate.budget.fits ? Str::kAdviceNoneNeeded : Str::kAdviceNoneFound));
    EndCard();
    return;
  }
  TextMuted(Tr(Str::kAdviceIntro));
  const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoSavedSettings;
  if (ImGui::BeginTable("ladder", 5, flags)) {
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, Em(1.2f));
    ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("total", ImGuiTableColumnFlags_WidthFixed, Em(5.5f));
    ImGui::TableSetupColumn("fits", ImGuiTableColumnFlags_WidthFixed, Em(4.2f));
    ImGui::TableSetupColumn("apply", ImGuiTableColumnFlags_WidthFixed, Em(3.6f));
    // Copy: applying a step rebuilds state.estimate while the table is being drawn.
    const auto steps = recommendations;
    for (int i = 0; i < static_cast<int>(steps.size()); ++i)
      DrawStep(state, i, steps[i], i > 0 ? &steps[i - 1] : nullptr);
    ImGui::EndTable();
  }
  const bool any_fits = std::any_of(recommendations.begin(), recommendations.end(),
                                    [](const trainmem::Recommendation& rec) { return rec.fits; });
  if (!any_fits) TextColored(DoesNotFitColors().text, Tr(Str::kAdviceNoStepFits));
  EndCard();
}

}  // namespace app
