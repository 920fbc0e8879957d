// The memory map's legend: the colour scale in GiB (the same LUT texture the shader samples,
// drawn as an image, with log-spaced ticks and the usable budget marked), then swatches for the
// hatching, the budget contour and the current-config outline, drawn like the plot draws them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string TickLabel(double gib) {
  char text[32];
  std::snprintf(text, sizeof(text), gib < 10 ? "%.1f" : "%.0f", gib);
  return text;
}

// Colour bar with ticks below it; returns the bar's width.
float DrawColorBar(AppState& state, ImVec2 pos) {
  const trainmem::Heatmap& map = state.heatmap.map;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float width = std::min(Em(18), ImGui::GetContentRegionAvail().x * 0.45f);
  const ImVec2 end(pos.x + width, pos.y + Em(0.8f));
  draw->AddImage(ColormapTexture(state.heatmap.gpu), pos, end, ImVec2(0, 0), ImVec2(1, 1));
  const double lo = std::log(std::max<double>(map.min_total_bytes, 1) / kGiB);
  const double hi = std::log(std::max<double>(map.max_total_bytes, 1) / kGiB);
  const int ticks = hi - lo > 1e-6 ? 4 : 1;
  for (int k = 0; k < ticks; ++k) {
    const float t = ticks == 1 ? 0.0f : static_cast<float>(k) / static_cast<float>(ticks - 1);
    const std::string label = TickLabel(std::exp(lo + t * (hi - lo)));
    const float x = pos.x + t * width;
    const float text_width = ImGui::CalcTextSize(label.c_str()).x;
    const float left = std::clamp(x - text_width * 0.5f, pos.x, end.x - text_width);
    draw->AddLine(ImVec2(x, end.y), ImVec2(x, end.y + Em(0.25f)), MutedTextColor());
    draw->AddText(ImVec2(left, end.y + Em(0.25f)), MutedTextColor(), label.c_str());
  }
  const double usable = std::log(std::max<double>(map.usable_bytes, 1) / kGiB);
  if (hi - lo > 1e-6 && usable >= lo && usable <= hi) {
    const float x = pos.x + static_cast<float>((usable - lo) / (hi - lo)) * width;
    draw->AddLine(ImVec2(x, pos.y - Em(0.2f)), ImVec2(x, end.y), IM_COL32(20, 20, 28, 255),
                  Em(0.28f));
    draw->AddLine(ImVec2(x, pos.y - Em(0.2f)), ImVec2(x, end.y), IM_COL32(255, 255, 255, 255),
                  Em(0.12f));
  }
  return width;
}

void HatchSwatch(ImDrawList* draw, ImVec2 a, ImVec2 b) {
  draw->AddRectFilled(a, b, IM_COL32(218, 221, 225, 255));
  draw->PushClipRect(a, b, true);
  for (float x = a.x - (b.y - a.y); x < b.x; x += Em(0.45f)) {
    draw->AddLine(ImVec2(x, b.y), ImVec2(x + (b.y - a.y), a.y), IM_COL32(185, 189, 194, 255),
                  Em(0.15f));
  }
  draw->PopClipRect();
}

void ContourSwatch(ImDrawList* draw, ImVec2 a, ImVec2 b) {
  const float y = (a.y + b.y) * 0.5f;
  draw->AddRectFilled(a, b, ImGui::ColorConvertFloat4ToU32(ColormapColor(0.45f)));
  draw->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), IM_COL32(23, 23, 28, 220), Em(0.42f));
  draw->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), IM_COL32(255, 84, 56, 255),
                Em(0.2f));  // heatmap.frag kContour
}

void CurrentSwatch(ImDrawList* draw, ImVec2 a, ImVec2 b) {
  draw->AddRectFilled(a, b, ImGui::ColorConvertFloat4ToU32(ColormapColor(0.45f)));
  draw->AddRect(a, b, IM_COL32(255, 255, 255, 255), 0.0f, 0, Em(0.26f));
  const float inset = Em(0.14f);
  draw->AddRect(ImVec2(a.x + inset, a.y + inset), ImVec2(b.x - inset, b.y - inset),
                IM_COL32(20, 20, 28, 255), 0.0f, 0, Em(0.14f));
}

// A swatch (drawn by `paint`) and its label, on the current line.
void Swatch(void (*paint)(ImDrawList*, ImVec2, ImVec2), const std::string& label) {
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 a(pos.x, pos.y + line * 0.1f), b(pos.x + Em(1.6f), pos.y + line * 0.9f);
  paint(ImGui::GetWindowDrawList(), a, b);
  ImGui::Dummy(ImVec2(Em(1.6f), line));
  ImGui::SameLine(0, Em(0.4f));
  ImGui::TextUnformatted(label.c_str());
}

}  // namespace

void DrawHeatmapLegend(AppState& state) {
  const trainmem::Heatmap& map = state.heatmap.map;
  ImGui::TextDisabled("%s", Tr(Str::kHeatmapScaleTitle));
  const ImVec2 start = ImGui::GetCursorScreenPos();
  float bar_width = 0;
  if (map.usable_bytes > 0) bar_width = DrawColorBar(state, ImVec2(start.x, start.y + Em(0.2f)));
  ImGui::SetCursorScreenPos(ImVec2(start.x + bar_width + Em(1.5f), start.y));
  ImGui::BeginGroup();
  Swatch(ContourSwatch, TrFormat(Str::kHeatmapLegendBudgetTemplate,
                                 trainmem::FormatGiB(map.usable_bytes).c_str()));
  ImGui::SameLine(0, Em(1.2f));
  Swatch(CurrentSwatch, Tr(Str::kHeatmapLegendCurrent));
  ImGui::SameLine(0, Em(1.2f));
  Swatch(HatchSwatch, Tr(Str::kHeatmapLegendInvalid));
  ImGui::EndGroup();
  ImGui::SetCursorScreenPos(ImVec2(start.x, start.y + Em(2.2f)));
  ImGui::Dummy(ImVec2(1, 1));
}

}  // namespace app
