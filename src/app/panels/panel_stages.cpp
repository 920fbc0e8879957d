// Per pipeline stage (pp > 1): layers held, the five components and the total, worst stage
// highlighted; the headline figures are the worst stage's.
#include <string>

#include <imgui.h>

#include "app/draw/memory_bar.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

std::string LayersText(const trainmem::StageEstimate& stage) {
  // A rank may hold no blocks (MindSpeed's placeholder layers, a --num-layer-list with a 0).
  std::string text = stage.num_layers <= 0
                         ? std::string(Tr(Str::kStageNoLayers))
                         : std::to_string(stage.first_layer) + "\xE2\x80\x93" +
                               std::to_string(stage.first_layer + stage.num_layers - 1);
  if (stage.has_embedding) text += Tr(Str::kStageEmbeddingTag);
  if (stage.has_head) text += Tr(Str::kStageHeadTag);
  return text;
}

void SetupColumns() {
  ImGui::TableSetupColumn(Tr(Str::kColumnStage), ImGuiTableColumnFlags_WidthFixed, Em(3));
  ImGui::TableSetupColumn(Tr(Str::kColumnLayers), ImGuiTableColumnFlags_WidthFixed, Em(9));
  for (int i = 0; i < 5; ++i) {
    ImGui::TableSetupColumn(ComponentName(static_cast<Component>(i)),
                            ImGuiTableColumnFlags_WidthFixed, Em(6));
  }
  ImGui::TableSetupColumn(Tr(Str::kRowTotal), ImGuiTableColumnFlags_WidthFixed, Em(6.5f));
  ImGui::TableSetupColumn(Tr(Str::kColumnPeakPhase), ImGuiTableColumnFlags_WidthFixed, Em(7.5f));
  ImGui::TableSetupScrollFreeze(2, 1);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int column = 0; column < 9; ++column) {
    ImGui::TableSetColumnIndex(column);
    if (column >= 2 && column <= 6) {
      ColorSwatch(ComponentColor(static_cast<Component>(column - 2)));
      ImGui::SameLine(0, Em(0.3f));
    }
    ImGui::TableHeader(ImGui::TableGetColumnName(column));
  }
}

void StageRow(const trainmem::StageEstimate& stage, bool worst) {
  ImGui::TableNextRow();
  if (worst) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, HighlightRowColor());
  ImGui::TableNextColumn();
  ImGui::Text("%d", stage.stage);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(LayersText(stage).c_str());
  ComponentValue values[5];
  ComponentValues(stage.bytes, values);
  for (const ComponentValue& value : values) {
    ImGui::TableNextColumn();
    TextRight(trainmem::FormatGiB(value.bytes).c_str());
  }
  ImGui::TableNextColumn();
  if (worst) ImGui::PushFont(GetFont(FontRole::kBold));
  TextRight(trainmem::FormatGiB(stage.bytes.total).c_str());
  if (worst) ImGui::PopFont();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(stage.peak_phase.c_str());
}

}  // namespace

void DrawStagesPanel(AppState& state) {
  const trainmem::Estimate& e = state.estimate;
  if (e.stages.size() < 2) return;
  BeginCard("stages");
  SectionTitle(Str::kSectionStages);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_NoSavedSettings |
                                ImGuiTableFlags_SizingFixedFit;
  // Tall enough for every row plus the horizontal scrollbar narrow windows need.
  const float row = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
  const float height = (static_cast<float>(e.stages.size()) + 1.0f) * row +
                       ImGui::GetStyle().ScrollbarSize + Em(0.3f);
  if (ImGui::BeginTable("stage_table", 9, flags, ImVec2(0, height))) {
    SetupColumns();
    for (const auto& stage : e.stages) StageRow(stage, stage.stage == e.worst_stage);
    ImGui::EndTable();
  }
  TextMuted(Tr(Str::kStagesNote));
  EndCard();
}

}  // namespace app
