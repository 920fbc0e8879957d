// The page: one window filling the canvas. Header on top; then, on a wide screen, inputs on the
// left and results on the right (the verdict, then tabs: the estimate's tables in two columns
// when there is room, the layout search, the memory map); below 900 CSS pixels one column that
// scrolls as a whole, answer first (verdict, inputs, tabs). Or the compact embed card.
#include <algorithm>

#include <imgui.h>

#include "app/app_explorer.h"
#include "app/draw/theme.h"
#include "app/draw/widgets.h"
#include "app/page_input.h"
#include "app/panels/panels.h"

namespace app {
namespace {

// Below this width (CSS pixels) the page is one column: two would leave either side too
// narrow for its forms and tables (the inputs need about 22 em, the results 30).
constexpr float kSingleColumnBelowCss = 900.0f;

constexpr ImGuiWindowFlags kPageFlags =
    ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;

// A scrolling region with the page's background (cards inside keep theirs).
void BeginScrollRegion(const char* id, ImVec2 size) {
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_WindowBg));
  ImGui::BeginChild(id, size, false, ImGuiWindowFlags_NavFlattened);
  ImGui::PopStyleColor();
}

// Ends a scrolling region; while more of it lies below its bottom edge, the edge fades out and
// a ▼ marks that there is more (nothing important hides below the fold without a cue).
void EndScrollRegion() {
  const float below = ImGui::GetScrollMaxY() - ImGui::GetScrollY();
  if (below >= 1.0f) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 pos = ImGui::GetWindowPos();
    const ImVec2 size = ImGui::GetWindowSize();
    const float right = pos.x + size.x - ImGui::GetStyle().ScrollbarSize;
    const float bottom = pos.y + size.y;
    const float fade = std::min(Em(2.5f), below);
    const ImU32 opaque = ImGui::GetColorU32(ImGuiCol_WindowBg);
    const ImU32 clear = opaque & ~IM_COL32_A_MASK;
    draw->AddRectFilledMultiColor(ImVec2(pos.x, bottom - fade), ImVec2(right, bottom), clear, clear,
                                  opaque, opaque);
    const float radius = Em(0.8f);
    const ImVec2 center((pos.x + right) * 0.5f, bottom - radius - Em(0.25f));
    draw->AddCircleFilled(center, radius, AccentColor());
    const char* arrow = "\xE2\x96\xBC";  // ▼
    const ImVec2 arrow_size = ImGui::CalcTextSize(arrow);
    draw->AddText(ImVec2(center.x - arrow_size.x * 0.5f, center.y - arrow_size.y * 0.5f),
                  IM_COL32_WHITE, arrow);
  }
  ImGui::EndChild();
}

// Where the inputs start and end are mirrored to #explorer: tests see scrolling move them, and
// that an error message does not push the fields below it down.
void RecordLine(AppState& state, const char* name) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  RecordRect(state, name, at, ImVec2(at.x + ImGui::GetContentRegionAvail().x, at.y + 1));
}

void DrawInputPanels(AppState& state) {
  RecordLine(state, "inputs_top");
  DrawImportPanel(state);
  RecordLine(state, "import_end");  // the rest of the inputs start here
  DrawModelPanel(state);
  DrawDevicePanel(state);
  // The framework next to the device: it changes what every field below means (its
  // parallelism rules, its optimizer options) and every number.
  DrawMethodPanel(state);
  DrawParallelismPanel(state);
  DrawTrainingPanel(state);
  DrawOptimizerPanel(state);
  RecordLine(state, "inputs_end");
  ImVec2 error_min, error_max;
  if (TakeFieldErrorRect(&error_min, &error_max))
    RecordRect(state, "field_error", error_min, error_max);
}

void DrawInputs(AppState& state, float width) {
  BeginScrollRegion("inputs", ImVec2(width, 0));
  DrawInputPanels(state);
  EndScrollRegion();
}

// The verdict card, its rectangle recorded for the #explorer mirror (tests check that it is
// on the first screen of a phone).
// While `keep_height`, the verdict keeps the tallest height it had: picking a layout whose
// verdict is a line shorter (no host-memory line, say), or an edit that makes it shorter, must
// not pull what is below it up under the pointer.
void DrawVerdict(AppState& state, bool keep_height) {
  DrawVerdictPanel(state);
  RecordRect(state, "verdict", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  const float height = ImGui::GetItemRectSize().y;
  if (!keep_height) {
    state.verdict_reserved_height = 0;
  } else if (height < state.verdict_reserved_height) {
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() + state.verdict_reserved_height - height);
  } else {
    state.verdict_reserved_height = height;
  }
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
  // The tab still shown this frame must not take `view` back while another tab is requested:
  // the tab bar selects the requested one only on the next frame.
  if (open && !state.view_requested) state.view = view;
  return open;
}

// The explorer views fill the height they are given; in the one-column page (which scrolls as
// a whole) they get most of a screen.
void DrawExplorerView(void (*draw)(AppState&), AppState& state, float height) {
  if (height <= 0) return draw(state);
  ImGui::BeginChild("explorer_view", ImVec2(0, height), false, ImGuiWindowFlags_NavFlattened);
  draw(state);
  ImGui::EndChild();
}

void DrawResultTabs(AppState& state, float explorer_height) {
  if (ImGui::BeginTabBar("views", ImGuiTabBarFlags_NoTooltip)) {
    if (ViewTab(state, Str::kTabEstimate, "tab_estimate", ResultsView::kEstimate)) {
      DrawEstimateDetails(state);
      ImGui::EndTabItem();
    }
    if (ViewTab(state, Str::kTabLayouts, "tab_layouts", ResultsView::kLayouts)) {
      DrawExplorerView(DrawLayoutsPanel, state, explorer_height);
      ImGui::EndTabItem();
    }
    if (ViewTab(state, Str::kTabMemoryMap, "tab_memory_map", ResultsView::kMemoryMap)) {
      DrawExplorerView(DrawHeatmapPanel, state, explorer_height);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
}

// The verdict and bar stay on top whatever the tab, so a layout or cell picked in the explorer
// shows its verdict at once; the estimate's tables are the first tab.
void DrawResults(AppState& state) {
  BeginScrollRegion("results", ImVec2(0, 0));
  DrawVerdict(state, state.view != ResultsView::kEstimate);
  DrawResultTabs(state, 0.0f);
  EndScrollRegion();
}

// Phones and narrow windows: one column, one scroll, the answer first.
void DrawSingleColumn(AppState& state) {
  const float screen = ImGui::GetMainViewport()->Size.y;
  BeginScrollRegion("page", ImVec2(0, 0));
  // Scroll anchoring, as browsers do, right after the reader did something (the cards' first
  // measurements on load are not a change under anyone's finger): when the verdict above the
  // inputs grows (the "last valid estimate" note of an invalid edit), the page scrolls by as
  // much, so the field under the finger stays where it is; when it shrinks, it keeps its
  // height while the reader is busy or the input is invalid.
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsAnyItemActive() || io.MouseDown[0] || io.MouseReleased[0] ||
      !io.InputQueueCharacters.empty())
    state.last_interaction_time = ImGui::GetTime();
  const bool interacting = ImGui::GetTime() - state.last_interaction_time < 1.0;
  DrawVerdict(state,
              interacting || !state.draft_errors.empty() || state.view != ResultsView::kEstimate);
  const float verdict_height = ImGui::GetItemRectSize().y;
  const float previous = state.single_column_verdict_height;
  state.single_column_verdict_height = verdict_height;
  if (interacting && previous > 0 && verdict_height > previous)
    ImGui::SetScrollY(ImGui::GetScrollY() + verdict_height - previous);
  DrawInputPanels(state);
  ImGui::Spacing();
  DrawResultTabs(state, std::max(Em(24), screen * 0.8f));
  EndScrollRegion();
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
    if (viewport->Size.x / state.device_pixel_ratio < kSingleColumnBelowCss) {
      DrawSingleColumn(state);
    } else {
      const float inputs_width = std::clamp(width * 0.34f, Em(22), Em(30));
      DrawInputs(state, inputs_width);
      ImGui::SameLine();
      DrawResults(state);
    }
  }
  ImVec2 focus_min, focus_max;
  if (NavFocusRect(&focus_min, &focus_max)) RecordRect(state, "nav_focus", focus_min, focus_max);
  ImGui::End();
}

}  // namespace app
