// Advice: the core's recommendation ladder (activation checkpointing → optimizer states off the
// device → TP/PP/EP → batch/seq), only steps that lower the total, each in words with its new
// total and verdict; one click applies it. When none fits, how many devices would.
#include <algorithm>
#include <string>
#include <utility>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/app_explorer.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

bool HasChange(const trainmem::Recommendation* rec,
               const std::pair<std::string, std::string>& change) {
  if (rec == nullptr) return false;
  return std::find(rec->changes.begin(), rec->changes.end(), change) != rec->changes.end();
}

// The changes in words, "checkpointing: full · data parallelism takes the remaining devices". The
// ladder is cumulative, so a row lists only what it adds to the row above (`previous`); the Apply
// tooltip lists everything a click sets.
std::string ChangesText(const trainmem::Recommendation& rec,
                        const trainmem::Recommendation* previous, const char* separator) {
  std::string text;
  for (const auto& change : rec.changes) {
    if (HasChange(previous, change)) continue;
    if (!text.empty()) text += separator;
    text += ChangeWords(change.first, change.second);
  }
  return text;
}

// `narrow` (a phone): the figures, the pill and Apply go on a line under the words, which then
// have the card's width and wrap between words, not inside them.
void DrawStep(AppState& state, int index, const trainmem::Recommendation& rec,
              const trainmem::Recommendation* previous, bool narrow) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::Text("%d.", index + 1);
  ImGui::TableNextColumn();
  const std::string sentence = AdviceSentence(rec);
  TextWrapped(sentence.c_str());
  const bool combination = rec.kind == trainmem::AdviceKind::kCombination;
  // A combination lists all its parts; a ladder row what it adds to the row above.
  const std::string added = ChangesText(rec, combination ? nullptr : previous, " \xC2\xB7 ");
  ImGui::PushStyleColor(ImGuiCol_Text, MutedTextColor());
  TextWrapped(added.c_str());
  ImGui::PopStyleColor();
  if (narrow) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(trainmem::FormatGiB(rec.total_bytes).c_str());
    ImGui::SameLine();
  } else {
    ImGui::TableNextColumn();
    TextRight(trainmem::FormatGiB(rec.total_bytes).c_str());
    ImGui::TableNextColumn();
  }
  // The verdict's three states, as the headline gives them once the step is applied.
  Pill(Tr(VerdictPill(rec.verdict)), rec.verdict == trainmem::Verdict::kFits ? FitsColors()
                                     : rec.verdict == trainmem::Verdict::kCloseToLimit
                                         ? WarningColors()
                                         : DoesNotFitColors());
  if (narrow) {
    ImGui::SameLine();
  } else {
    ImGui::TableNextColumn();
  }
  ImGui::PushID(index);
  const bool pressed = ImGui::Button(Tr(Str::kApply));
  // In the #explorer mirror as advice_apply_1, _2, …: tests press a step, or see there is none.
  const std::string mirror_name = "advice_apply_" + std::to_string(index + 1);
  RecordRect(state, mirror_name.c_str(), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (pressed) {
    const trainmem::Recommendation chosen = rec;  // the click re-estimates and replaces the list
    ApplyRecommendation(state, chosen);
    ShowFeedback(state, TrFormat(Str::kFeedbackApplied, AdviceWithChanges(chosen).c_str()));
  }
  Tooltip(ChangesText(rec, nullptr, "\n").c_str());
  ImGui::PopID();
}

// Nothing in the ladder fits: how many devices would (the layout search's answer), with a way
// to see those layouts.
void DrawDevicesNeeded(AppState& state) {
  const std::int64_t devices = state.estimate.devices_needed;
  if (devices <= 0) {
    TextColored(DoesNotFitColors().text, Tr(Str::kNothingFitsAtAll));
    return;
  }
  TextColored(DoesNotFitColors().text,
              TrFormat(Str::kAdviceDevicesNeededTemplate, static_cast<long long>(devices)).c_str());
  if (ImGui::Button(TrFormat(Str::kShowLayoutsTemplate, static_cast<long long>(devices)).c_str()))
    ShowLayoutsOn(state, devices);
}

}  // namespace

void DrawAdvicePanel(AppState& state) {
  BeginCard("advice");
  SectionTitle(Str::kSectionAdvice);
  // The verdict is withheld (the config is partly defaults the reader never chose): so is advice.
  if (state.link_fallback) {
    TextMuted(Tr(Str::kAdviceLinkPartly));
    EndCard();
    return;
  }
  // So is it while a field is invalid: the estimate on screen is the last valid one, not what
  // the form says, and an Apply would replace the edit being made.
  if (!state.draft_errors.empty()) {
    TextMuted(Tr(Str::kAdviceFieldInvalid));
    EndCard();
    return;
  }
  const auto& recommendations = state.estimate.recommendations;
  if (recommendations.empty()) {
    if (state.estimate.budget.fits && state.estimate.budget.verdict == trainmem::Verdict::kFits) {
      TextMuted(Tr(Str::kAdviceNoneNeeded));
    } else if (state.estimate.budget.fits) {
      TextMuted(Tr(Str::kAdviceCloseNoStep));
    } else {
      DrawDevicesNeeded(state);
    }
    EndCard();
    return;
  }
  TextMuted(Tr(Str::kAdviceIntro));
  const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoSavedSettings;
  // Beside 13 em of figure, pill and button the words keep at least about 14 em.
  const bool narrow = ImGui::GetContentRegionAvail().x < Em(28.0f);
  if (ImGui::BeginTable(narrow ? "ladder_narrow" : "ladder", narrow ? 2 : 5, flags)) {
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, Em(1.2f));
    ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
    if (!narrow) {
      ImGui::TableSetupColumn("total", ImGuiTableColumnFlags_WidthFixed, Em(5.5f));
      ImGui::TableSetupColumn("fits", ImGuiTableColumnFlags_WidthFixed, Em(4.2f));
      ImGui::TableSetupColumn("apply", ImGuiTableColumnFlags_WidthFixed, Em(3.6f));
    }
    // Copy: applying a step rebuilds state.estimate while the table is being drawn.
    const auto steps = recommendations;
    for (int i = 0; i < static_cast<int>(steps.size()); ++i)
      DrawStep(state, i, steps[i], i > 0 ? &steps[i - 1] : nullptr, narrow);
    ImGui::EndTable();
  }
  const bool any_fits = std::any_of(recommendations.begin(), recommendations.end(),
                                    [](const trainmem::Recommendation& rec) { return rec.fits; });
  if (!any_fits) DrawDevicesNeeded(state);
  EndCard();
}

}  // namespace app
