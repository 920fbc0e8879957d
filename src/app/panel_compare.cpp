// Template mode (the seed's formulas) next to detailed mode (framework-aware), computed for the
// same config, plus the template's nominal-vs-exact parameter count comparison.
#include <string>

#include <imgui.h>

#include "app/memory_bar.h"
#include "app/panels.h"
#include "app/widgets.h"
#include "core/report.h"

namespace app {
namespace {

void CompareRow(const char* name, ImU32 swatch, std::int64_t template_bytes,
                std::int64_t detailed_bytes) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  if (swatch != 0) {
    ColorSwatch(swatch);
    ImGui::SameLine(0, Em(0.4f));
  }
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  TextRight(trainmem::FormatGiB(template_bytes).c_str());
  ImGui::TableNextColumn();
  TextRight(trainmem::FormatGiB(detailed_bytes).c_str());
}

void VerdictRow(const trainmem::Estimate& template_estimate,
                const trainmem::Estimate& detailed_estimate) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(Tr(Str::kRowVerdict));
  for (const trainmem::Estimate* e : {&template_estimate, &detailed_estimate}) {
    ImGui::TableNextColumn();
    const char* text = Tr(e->budget.fits ? Str::kPillFits : Str::kPillNoFit);
    const float width = ImGui::CalcTextSize(text).x + Em(1.0f);
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - width);
    Pill(text, e->budget.fits ? FitsColors() : DoesNotFitColors());
  }
}

void DrawNominalComparison(const trainmem::TemplateComparison& t) {
  if (!t.available) return;
  const std::string line = TrFormat(
      Str::kNominalTemplate, trainmem::FormatCount(t.nominal_params).c_str(),
      trainmem::FormatGiB(t.nominal.total).c_str(), trainmem::FormatCount(t.exact_params).c_str(),
      trainmem::FormatGiB(t.exact.total).c_str());
  TextMuted(line.c_str());
  const std::string explanation = TemplateExplanation(t);
  if (!explanation.empty()) TextMuted(explanation.c_str());
}

}  // namespace

void DrawModeComparePanel(AppState& state) {
  const bool current_is_template = state.config.mode == trainmem::Mode::kTemplate;
  const trainmem::Estimate& template_estimate =
      current_is_template ? state.estimate : state.other_mode_estimate;
  const trainmem::Estimate& detailed_estimate =
      current_is_template ? state.other_mode_estimate : state.estimate;
  BeginCard("compare");
  SectionTitle(Str::kSectionCompare);
  TextMuted(Tr(Str::kCompareIntro));
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoSavedSettings;
  if (ImGui::BeginTable("modes", 3, flags)) {
    const std::string template_header =
        std::string(Tr(Str::kModeTemplate)) + (current_is_template ? " \xE2\x97\x8F" : "");
    const std::string detailed_header =
        std::string(Tr(Str::kModeDetailed)) + (current_is_template ? "" : " \xE2\x97\x8F");
    ImGui::TableSetupColumn(Tr(Str::kColumnComponent), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(template_header.c_str(), ImGuiTableColumnFlags_WidthFixed, Em(7));
    ImGui::TableSetupColumn(detailed_header.c_str(), ImGuiTableColumnFlags_WidthFixed, Em(7));
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int column = 0; column < 3; ++column) {
      ImGui::TableSetColumnIndex(column);
      if (column == 0)
        ImGui::TableHeader(ImGui::TableGetColumnName(column));
      else
        TextRight(ImGui::TableGetColumnName(column));
    }
    ComponentValue t[5], d[5];
    ComponentValues(template_estimate.per_device, t);
    ComponentValues(detailed_estimate.per_device, d);
    for (int i = 0; i < 5; ++i) {
      CompareRow(ComponentName(t[i].component), ComponentColor(t[i].component), t[i].bytes,
                 d[i].bytes);
    }
    ImGui::PushFont(GetFont(FontRole::kBold));
    CompareRow(Tr(Str::kRowTotal), 0, template_estimate.per_device.total,
               detailed_estimate.per_device.total);
    ImGui::PopFont();
    VerdictRow(template_estimate, detailed_estimate);
    ImGui::EndTable();
  }
  DrawNominalComparison(template_estimate.template_comparison.available
                            ? template_estimate.template_comparison
                            : detailed_estimate.template_comparison);
  EndCard();
}

}  // namespace app
