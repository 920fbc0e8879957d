// The page: one window filling the canvas. Header on top; inputs on the left, results on the
// right (the verdict, then tabs: the estimate's tables in two columns when there is room, the
// layout search, the memory map); or the compact embed card.
#include <algorithm>

#include <imgui.h>

#include "app/app_explorer.h"
#include "app/panels.h"
#include "app/theme.h"

namespace app {
namespace {

constexpr ImGuiWindowFlags kPageFlags =
    ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;

void DrawInputs(AppState& state, float width) {
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_WindowBg));
  ImGui::BeginChild("inputs", ImVec2(width, 0), false, ImGuiWindowFlags_NavFlattened);
  ImGui::PopStyleColor();
  DrawModelPanel(state);
  DrawDevicePanel(state);
  DrawParallelismPanel(state);
  DrawTrainingPanel(state);
  DrawOptimizerPanel(state);
  DrawMethodPanel(state);
  ImGui::EndChild();
}

// Wide: breakdown, model and activations on the left; advice, modes and warnings on the right.
void DrawResultColumns(AppState& state) {
  if (!ImGui::BeginTable("result_columns", 2,
                         ImGuiTableFlags_NoSavedSettings | ImGuiTableFlags_PadOuterX))
    return;
  ImGui::TableSetupColumn("a", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("b", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  DrawBreakdownPanel(state);
  DrawModelFactsPanel(state);
  DrawActivationsPanel(state);
  ImGui::TableNextColumn();
  DrawAdvicePanel(state);
  DrawModeComparePanel(state);
  DrawWarningsPanel(state);
  ImGui::EndTable();
}

void DrawEstimateDetails(AppState& state) {
  DrawStagesPanel(state);
  DrawMeasuredPanel(state);
  if (ImGui::GetContentRegionAvail().x >= Em(56)) {
    DrawResultColumns(state);
  } else {
    DrawBreakdownPanel(state);
    DrawAdvicePanel(state);
    DrawModelFactsPanel(state);
    DrawActivationsPanel(state);
    DrawModeComparePanel(state);
    DrawWarningsPanel(state);
  }
}

// A tab of the results side; records where it is for the #explorer mirror (tests click it).
bool ViewTab(AppState& state, Str label, const char* mirror_name, ResultsView view) {
  const bool select = state.view_requested && state.view == view;
  if (select) state.view_requested = false;
  const bool open =
      ImGui::BeginTabItem(Tr(label), nullptr, select ? ImGuiTabItemFlags_SetSelected : 0);
  RecordRect(state, mirror_name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (open) state.view = view;
  return open;
}

// The verdict and bar stay on top whatever the tab, so a layout or cell picked in the explorer
// shows its verdict at once; the estimate's tables are the first tab.
void DrawResults(AppState& state) {
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_WindowBg));
  ImGui::BeginChild("results", ImVec2(0, 0), false, ImGuiWindowFlags_NavFlattened);
  ImGui::PopStyleColor();
  DrawVerdictPanel(state);
  if (ImGui::BeginTabBar("views", ImGuiTabBarFlags_NoTooltip)) {
    if (ViewTab(state, Str::kTabEstimate, "tab_estimate", ResultsView::kEstimate)) {
      DrawEstimateDetails(state);
      ImGui::EndTabItem();
    }
    if (ViewTab(state, Str::kTabLayouts, "tab_layouts", ResultsView::kLayouts)) {
      DrawLayoutsPanel(state);
      ImGui::EndTabItem();
    }
    if (ViewTab(state, Str::kTabMemoryMap, "tab_memory_map", ResultsView::kMemoryMap)) {
      DrawHeatmapPanel(state);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
}

}  // namespace

void DrawApp(AppState& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->Pos);
  ImGui::SetNextWindowSize(viewport->Size);
  ImGui::Begin("trainmem", nullptr, kPageFlags);
  if (state.embed) {
    DrawEmbedPanel(state);
  } else {
    DrawHeaderPanel(state);
    ImGui::Separator();
    const float width = ImGui::GetContentRegionAvail().x;
    const float inputs_width = std::clamp(width * 0.34f, Em(22), Em(30));
    DrawInputs(state, inputs_width);
    ImGui::SameLine();
    DrawResults(state);
  }
  ImGui::End();
}

}  // namespace app
