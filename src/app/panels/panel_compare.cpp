// The seed's rough rule (template mode) as a footnote to the estimate, never a rival verdict:
// what the seed's five formulas give for the same inputs, which component differs most and why,
// and the per-component figures. When the rough rule is the method in use, the footnote is the
// framework-aware estimate instead.
#include <cstdlib>
#include <string>

#include <imgui.h>

#include "app/draw/memory_bar.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

void CompareRow(const char* name, ImU32 swatch, std::int64_t current_bytes,
                std::int64_t other_bytes) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  if (swatch != 0) {
    ColorSwatch(swatch);
    ImGui::SameLine(0, Em(0.4f));
  }
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  TextRight(trainmem::FormatGiB(current_bytes).c_str());
  ImGui::TableNextColumn();
  TextRight(trainmem::FormatGiB(other_bytes).c_str());
}

// Why the rough rule and the framework-aware estimate differ, for the component where they
// differ most (the seed's formulas: seed/README.md ①–⑤).
Str WhyDifferent(Component component) {
  switch (component) {
    case Component::kParameters:
      return Str::kWhyParameters;
    case Component::kGradients:
      return Str::kWhyGradients;
    case Component::kOptimizer:
      return Str::kWhyOptimizer;
    case Component::kActivations:
      return Str::kWhyActivations;
    default:
      break;
  }
  return Str::kWhyTemporary;
}

void DrawNominalComparison(const trainmem::TemplateComparison& t) {
  if (!t.available || !t.has_nominal) return;
  const std::string line = TrFormat(Str::kNominalTemplate, NominalSize(t.nominal_params).c_str(),
                                    trainmem::FormatGiB(t.nominal.total).c_str(),
                                    trainmem::FormatCount(t.exact_params).c_str(),
                                    trainmem::FormatGiB(t.exact.total).c_str());
  TextMuted(line.c_str());
}

}  // namespace

void DrawModeComparePanel(AppState& state) {
  const bool template_in_use = state.config.mode == trainmem::Mode::kTemplate;
  const trainmem::Estimate& current = state.estimate;
  const trainmem::Estimate& other = state.other_mode_estimate;
  BeginCard("compare");
  SectionTitle(template_in_use ? Str::kSectionDetailedFootnote : Str::kSectionRoughRule);
  ComponentValue c[5], o[5];
  ComponentValues(current.per_device, c);
  ComponentValues(other.per_device, o);
  int largest = 0;
  for (int i = 1; i < 5; ++i) {
    if (std::llabs(c[i].bytes - o[i].bytes) > std::llabs(c[largest].bytes - o[largest].bytes))
      largest = i;
  }
  const std::string summary = TrFormat(
      template_in_use ? Str::kDetailedSaysTemplate : Str::kRoughRuleSaysTemplate,
      trainmem::FormatGiB(other.per_device.total).c_str(), ComponentName(c[largest].component));
  TextMuted(summary.c_str());
  TextMuted(Tr(WhyDifferent(c[largest].component)));
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoSavedSettings;
  if (ImGui::BeginTable("modes", 3, flags)) {
    ImGui::TableSetupColumn(Tr(Str::kColumnComponent), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(Tr(Str::kColumnThisEstimate), ImGuiTableColumnFlags_WidthFixed, Em(7));
    ImGui::TableSetupColumn(Tr(template_in_use ? Str::kColumnDetailed : Str::kColumnRoughRule),
                            ImGuiTableColumnFlags_WidthFixed, Em(7));
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int column = 0; column < 3; ++column) {
      ImGui::TableSetColumnIndex(column);
      if (column == 0)
        ImGui::TableHeader(ImGui::TableGetColumnName(column));
      else
        TextRight(ImGui::TableGetColumnName(column));
    }
    for (int i = 0; i < 5; ++i) {
      CompareRow(ComponentName(c[i].component), ComponentColor(c[i].component), c[i].bytes,
                 o[i].bytes);
    }
    ImGui::PushFont(GetFont(FontRole::kBold));
    CompareRow(Tr(Str::kRowTotal), 0, current.per_device.total, other.per_device.total);
    ImGui::PopFont();
    ImGui::EndTable();
  }
  DrawNominalComparison(template_in_use ? current.template_comparison : other.template_comparison);
  EndCard();
}

}  // namespace app
