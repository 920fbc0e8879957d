// The compact, read-only card shown for #…&embed=1 inside an <iframe> in a document: what is
// estimated, the verdict, the bar, the table, and a link that opens the full page.
#include <string>

#include <imgui.h>

#include "app/app_actions.h"
#include "app/memory_bar.h"
#include "app/panels.h"
#include "app/widgets.h"
#include "core/report.h"

namespace app {
namespace {

void DrawTitleLine(const AppState& state) {
  const auto& c = state.config;
  const bool fits = state.estimate.budget.fits;
  const char* verdict = Tr(fits ? Str::kVerdictFits : Str::kVerdictDoesNotFit);
  ImGui::PushFont(GetFont(FontRole::kBold));
  const std::string title = TrFormat(Str::kEmbedTitleTemplate, ModelDisplayName(c).c_str(),
                                     c.device.name.c_str(), static_cast<long long>(c.world_size));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(title.c_str());
  const float pill_width = ImGui::CalcTextSize(verdict).x + Em(1.0f);
  ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - pill_width);
  Pill(verdict, fits ? FitsColors() : DoesNotFitColors());
  ImGui::PopFont();
}

void DrawOpenLink(const AppState& state) {
  const char* label = Tr(Str::kOpenInTrainmem);
  ImGui::PushStyleColor(ImGuiCol_Text, AccentColor());
  ImGui::TextUnformatted(label);
  ImGui::PopStyleColor();
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
  DrawTitleLine(state);
  const std::string headline =
      TrFormat(Str::kEmbedHeadlineTemplate, trainmem::FormatGiB(e.per_device.total).c_str(),
               trainmem::FormatGiB(e.budget.usable_bytes).c_str(),
               trainmem::FormatGiB(e.budget.device_bytes).c_str());
  TextMuted(headline.c_str());
  DrawLinkWarnings(state);
  DrawMemoryBar(e, 1.4f);
  DrawMemoryLegend(e);
  DrawBreakdownPanel(state);
  DrawOpenLink(state);
  ImGui::SameLine();
  ImGui::TextDisabled("%s", Tr(Str::kEmbedFooter));
}

}  // namespace app
