// The five components per device: GiB, GB and share of the total, right-aligned with units. On a
// narrow card (a phone) the GB column gives its room to the component names.
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/draw/memory_bar.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

void NumberCells(std::int64_t bytes, std::int64_t total, bool with_gb) {
  ImGui::TableNextColumn();
  TextRight(trainmem::FormatGiB(bytes).c_str());
  if (with_gb) {
    ImGui::TableNextColumn();
    TextRight(trainmem::FormatGB(bytes).c_str());
  }
  ImGui::TableNextColumn();
  if (total > 0) {
    char share[16];
    std::snprintf(share, sizeof(share), "%.1f %%",
                  100.0 * static_cast<double>(bytes) / static_cast<double>(total));
    TextRight(share);
  }
}

void HeaderRow(bool with_gb) {
  ImGui::TableSetupColumn(Tr(Str::kColumnComponent), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn(Tr(Str::kColumnGiB), ImGuiTableColumnFlags_WidthFixed, Em(6.5f));
  if (with_gb)
    ImGui::TableSetupColumn(Tr(Str::kColumnGB), ImGuiTableColumnFlags_WidthFixed, Em(6.5f));
  ImGui::TableSetupColumn(Tr(Str::kColumnShare), ImGuiTableColumnFlags_WidthFixed, Em(4.0f));
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  const int columns = with_gb ? 4 : 3;
  for (int column = 0; column < columns; ++column) {
    ImGui::TableSetColumnIndex(column);
    if (column == 0)
      ImGui::TableHeader(ImGui::TableGetColumnName(column));
    else
      TextRight(ImGui::TableGetColumnName(column));
    if (column == 1) Tooltip(Tr(Str::kColumnGiBHelp));
    if (column == 2 && with_gb) Tooltip(Tr(Str::kColumnGBHelp));
  }
}

}  // namespace

void DrawBreakdownPanel(AppState& state) {
  const trainmem::MemoryBreakdown& bytes = state.estimate.per_device;
  BeginCard("breakdown");
  SectionTitle(Str::kSectionBreakdown);
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoSavedSettings;
  // Component names need about 11 em beside the numbers (GiB 6.5 em, GB 6.5 em, share 4 em).
  const bool with_gb = ImGui::GetContentRegionAvail().x >= Em(29.0f);
  if (ImGui::BeginTable(with_gb ? "components" : "components_narrow", with_gb ? 4 : 3, flags)) {
    HeaderRow(with_gb);
    ComponentValue values[5];
    ComponentValues(bytes, values);
    for (const ComponentValue& value : values) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ColorSwatch(ComponentColor(value.component));
      ImGui::SameLine(0, Em(0.4f));
      ImGui::TextUnformatted(ComponentName(value.component));
      NumberCells(value.bytes, bytes.total, with_gb);
    }
    ImGui::TableNextRow();
    ImGui::PushFont(GetFont(FontRole::kBold));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(Tr(Str::kRowTotal));
    NumberCells(bytes.total, bytes.total, with_gb);
    ImGui::PopFont();
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", Tr(Str::kRowPeakAllocated));
    Tooltip(Tr(Str::kRowPeakAllocatedHelp));
    ImGui::PushStyleColor(ImGuiCol_Text, MutedTextColor());
    NumberCells(bytes.peak_allocated, bytes.total, with_gb);
    ImGui::PopStyleColor();
    ImGui::EndTable();
  }
  // A peak at the step shows no activations: say why (the embed card has no room for it).
  const auto& stages = state.estimate.stages;
  const std::size_t worst = static_cast<std::size_t>(state.estimate.worst_stage);
  if (!state.embed && worst < stages.size() && stages[worst].peak_phase == "optimizer step") {
    ImGui::PushTextWrapPos(0.0f);
    TextMuted(Tr(Str::kPeakAtStepNote));
    ImGui::PopTextWrapPos();
  }
  EndCard();
}

}  // namespace app
