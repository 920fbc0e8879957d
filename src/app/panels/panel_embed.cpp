// The compact, read-only card shown for #…&embed=1 inside an <iframe> in a wiki: what was
// estimated (model, device × count, framework, layout, batch × sequence, checkpointing), the
// verdict with its figures, the bar, the table when there is room, and a link that opens the
// full page. The link line is pinned to the bottom so it never falls off a small frame
// (400 × 300 and up).
#include <algorithm>
#include <cstdlib>
#include <string>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/app_explorer.h"
#include "app/draw/memory_bar.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

// Line 1 the subject, line 2 how it runs; both wrap, so a narrow frame never runs text under
// the verdict.
void DrawWhat(const AppState& state) {
  const auto& c = state.config;
  ImGui::PushFont(GetFont(FontRole::kBold));
  const std::string title = TrFormat(Str::kEmbedTitleTemplate, ModelDisplayName(c).c_str(),
                                     static_cast<long long>(c.world_size), c.device.name.c_str());
  TextWrapped(title.c_str());
  ImGui::PopFont();
  const std::string how = TrFormat(
      Str::kEmbedHowTemplate, Tr(FrameworkLabel(c.framework)),
      LayoutWords(c, state.estimate.layout).c_str(), BatchWords(c, state.estimate.layout).c_str(),
      AcWords(c).c_str(),
      Tr(c.mode == trainmem::Mode::kTemplate ? Str::kModeTemplateShort : Str::kModeDetailedShort));
  TextMuted(how.c_str());
}

void DrawVerdictLine(AppState& state) {
  const trainmem::Estimate& e = state.estimate;
  if (state.link_fallback) {
    Pill(Tr(Str::kVerdictLinkPartly), WarningColors());
  } else {
    Pill(VerdictWords(e), VerdictColors(e));
  }
  RecordRect(state, "embed_verdict", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::SameLine(0, Em(0.6f));
  const std::int64_t headroom = e.budget.headroom_bytes;
  const std::string figures =
      TrFormat(headroom >= 0 ? Str::kHeadlineSpareTemplate : Str::kHeadlineOverTemplate,
               trainmem::FormatGiB(e.per_device.total).c_str(),
               trainmem::FormatGiB(e.budget.usable_bytes).c_str(),
               trainmem::FormatGiB(std::llabs(headroom)).c_str());
  ImGui::PushFont(GetFont(FontRole::kBold));
  TextWrapped(figures.c_str());
  ImGui::PopFont();
}

void DrawOpenLink(AppState& state) {
  const char* label = Tr(Str::kOpenInTrainmem);
  ImGui::PushStyleColor(ImGuiCol_Text, AccentColor());
  ImGui::TextUnformatted(label);
  ImGui::PopStyleColor();
  // In the #explorer mirror, so tests can check the link is inside the frame.
  RecordRect(state, "embed_open_link", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (ImGui::IsItemHovered()) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    const ImVec2 min = ImGui::GetItemRectMin();
    const ImVec2 max = ImGui::GetItemRectMax();
    ImGui::GetWindowDrawList()->AddLine(ImVec2(min.x, max.y), max, AccentColor());
  }
  if (ImGui::IsItemClicked()) OpenFullApp(state);
}

// The card is read-only and has no banner: one warning line per key the link could not read,
// so a reader knows the card shows a default in its place.
void DrawLinkWarnings(const AppState& state) {
  for (const std::string& line : state.banner_lines) {
    TextColored(WarningColors().text,
                TrFormat(Str::kEmbedLinkWarningTemplate, line.c_str()).c_str());
  }
}

}  // namespace

void DrawEmbedPanel(AppState& state) {
  const trainmem::Estimate& e = state.estimate;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float footer = line + ImGui::GetStyle().ItemSpacing.y;
  DrawWhat(state);
  DrawVerdictLine(state);
  DrawLinkWarnings(state);
  DrawMemoryBar(e, 1.4f);
  DrawMemoryLegend(e);
  // The table only when it fits above the link line: its card's title, header, five rows,
  // total and peak (nine lines) with the card's padding and spacing, about two lines more.
  const float table_height = 11.0f * line;
  if (ImGui::GetContentRegionAvail().y - footer >= table_height) DrawBreakdownPanel(state);
  const float bottom = ImGui::GetWindowContentRegionMax().y - line;
  ImGui::SetCursorPosY(std::max(ImGui::GetCursorPosY(), bottom));
  DrawOpenLink(state);
  ImGui::SameLine();
  ImGui::TextDisabled("%s", Tr(Str::kEmbedFooter));
}

}  // namespace app
