// Memory map: the per-device total over a 2-D grid of two settings (trainmem::ComputeHeatmap),
// drawn by shaders/heatmap.frag (heatmap_renderer.cpp) with the budget contour; axis labels, a
// legend in GiB, a tooltip with the hovered cell's breakdown, and a click that uses the cell.
//
// Row 0 (the smallest y value) is at the bottom, as on a chart.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/app_explorer.h"
#include "app/draw/memory_bar.h"
#include "app/draw/widgets.h"
#include "app/panels/panels.h"
#include "core/report/report.h"

namespace app {
namespace {

struct PlotGeometry {
  ImVec2 min, max;
  std::size_t nx = 0, ny = 0;
  float cell_w() const { return (max.x - min.x) / static_cast<float>(nx); }
  float cell_h() const { return (max.y - min.y) / static_cast<float>(ny); }
  ImVec2 CellMin(std::size_t i, std::size_t j) const {
    return ImVec2(min.x + static_cast<float>(i) * cell_w(),
                  max.y - static_cast<float>(j + 1) * cell_h());
  }
  ImVec2 CellMax(std::size_t i, std::size_t j) const {
    return ImVec2(min.x + static_cast<float>(i + 1) * cell_w(),
                  max.y - static_cast<float>(j) * cell_h());
  }
};

// Sequence lengths read better as 8K … 128K (K = 1024, as context lengths are quoted).
std::string AxisLabel(const std::string& key, std::int64_t value) {
  if (key == "s" && value >= 1024 && value % 1024 == 0) return std::to_string(value / 1024) + "K";
  return std::to_string(value);
}

std::int64_t CurrentValue(const std::string& key, const trainmem::Config& c) {
  if (key == "b") return c.training.local_batch_size;
  if (key == "s") return c.training.seq_len;
  if (key == "tp") return c.parallelism.tp;
  if (key == "pp") return c.parallelism.pp;
  if (key == "ep") return c.parallelism.ep;
  if (key == "etp") return c.parallelism.etp;
  return 0;
}

const HeatmapGrid& CurrentGrid(const AppState& state) {
  return HeatmapGrids()[static_cast<std::size_t>(state.heatmap.grid)];
}

// t ∈ [0, 1] of a total on the map's log colour scale (the shader's mapping).
float ScaleOf(const trainmem::Heatmap& map, std::int64_t bytes) {
  const double lo = std::log(std::max<double>(map.min_total_bytes, 1));
  const double hi = std::log(std::max<double>(map.max_total_bytes, 1));
  if (hi - lo < 1e-9) return 0.0f;
  return static_cast<float>((std::log(std::max<double>(bytes, 1)) - lo) / (hi - lo));
}

void DrawCellTooltip(const AppState& state, std::size_t i, std::size_t j) {
  const trainmem::Heatmap& map = state.heatmap.map;
  const trainmem::HeatmapCell& cell = map.at(i, j);
  const HeatmapGrid& grid = CurrentGrid(state);
  ImGui::BeginTooltip();
  ImGui::PushFont(GetFont(FontRole::kBold));
  ImGui::Text("%s %lld \xC2\xB7 %s %lld", Tr(grid.x_name), static_cast<long long>(map.x.values[i]),
              Tr(grid.y_name), static_cast<long long>(map.y.values[j]));
  ImGui::PopFont();
  if (!cell.valid) {
    ImGui::PushTextWrapPos(Em(26));
    TextColored(ErrorTextColor(),
                TrFormat(Str::kHeatmapInvalidTemplate, cell.reason.c_str()).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
    return;
  }
  if (ImGui::BeginTable("cell", 2,
                        ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoSavedSettings)) {
    ComponentValue values[5];
    ComponentValues(cell.per_device, values);
    for (const ComponentValue& value : values) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ColorSwatch(ComponentColor(value.component));
      ImGui::SameLine(0, Em(0.3f));
      ImGui::TextUnformatted(ComponentName(value.component));
      ImGui::TableNextColumn();
      TextRight(trainmem::FormatGiB(value.bytes).c_str());
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushFont(GetFont(FontRole::kBold));
    ImGui::TextUnformatted(Tr(Str::kRowTotal));
    ImGui::TableNextColumn();
    TextRight(trainmem::FormatGiB(cell.total_bytes).c_str());
    ImGui::PopFont();
    ImGui::EndTable();
  }
  Pill(Tr(cell.fits ? Str::kPillFits : Str::kPillNoFit),
       cell.fits ? FitsColors() : DoesNotFitColors());
  ImGui::SameLine();
  ImGui::TextDisabled(
      "%s",
      TrFormat(Str::kHeatmapUsableTemplate, trainmem::FormatGiB(map.usable_bytes).c_str()).c_str());
  ImGui::TextDisabled("%s", Tr(Str::kHeatmapClickHelp));
  ImGui::EndTooltip();
}

// Each cell's total in GiB when the cell is large enough to hold it, in a colour readable on
// the cell (light text on the dark end of the colormap).
void DrawCellValues(const trainmem::Heatmap& map, const PlotGeometry& plot, ImDrawList* draw) {
  if (plot.cell_w() < Em(3.0f) || plot.cell_h() < Em(1.3f)) return;
  char text[32];
  for (std::size_t j = 0; j < plot.ny; ++j) {
    for (std::size_t i = 0; i < plot.nx; ++i) {
      const trainmem::HeatmapCell& cell = map.at(i, j);
      if (!cell.valid) continue;
      const double gib = static_cast<double>(cell.total_bytes) / (1024.0 * 1024.0 * 1024.0);
      std::snprintf(text, sizeof(text), gib < 100 ? "%.1f" : "%.0f", gib);
      const ImVec2 size = ImGui::CalcTextSize(text);
      const ImVec2 a = plot.CellMin(i, j), b = plot.CellMax(i, j);
      const ImVec2 at((a.x + b.x - size.x) * 0.5f, (a.y + b.y - size.y) * 0.5f);
      const bool dark_cell = ScaleOf(map, cell.total_bytes) < 0.55f;
      draw->AddText(at, dark_cell ? IM_COL32(255, 255, 255, 235) : IM_COL32(20, 20, 28, 235), text);
    }
  }
}

void DrawAxisLabels(const AppState& state, const PlotGeometry& plot, ImDrawList* draw) {
  const trainmem::Heatmap& map = state.heatmap.map;
  const ImU32 color = ImGui::GetColorU32(ImGuiCol_Text);
  for (std::size_t j = 0; j < plot.ny; ++j) {
    const std::string label = AxisLabel(map.y.key, map.y.values[j]);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    const float middle = (plot.CellMin(0, j).y + plot.CellMax(0, j).y) * 0.5f;
    draw->AddText(ImVec2(plot.min.x - Em(0.4f) - size.x, middle - size.y * 0.5f), color,
                  label.c_str());
  }
  for (std::size_t i = 0; i < plot.nx; ++i) {
    const std::string label = AxisLabel(map.x.key, map.x.values[i]);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    const float middle = (plot.CellMin(i, 0).x + plot.CellMax(i, 0).x) * 0.5f;
    draw->AddText(ImVec2(middle - size.x * 0.5f, plot.max.y + Em(0.2f)), color, label.c_str());
  }
  const HeatmapGrid& grid = CurrentGrid(state);
  const ImU32 muted = MutedTextColor();
  const std::string x_title = std::string(Tr(grid.x_name)) + " \xE2\x86\x92";
  const float x_width = ImGui::CalcTextSize(x_title.c_str()).x;
  draw->AddText(ImVec2((plot.min.x + plot.max.x - x_width) * 0.5f, plot.max.y + Em(1.4f)), muted,
                x_title.c_str());
}

// The outline of a cell: a dark ring inside a light one, visible on every colour.
void OutlineCell(const PlotGeometry& plot, std::size_t i, std::size_t j, ImDrawList* draw,
                 float thickness) {
  const ImVec2 a = plot.CellMin(i, j), b = plot.CellMax(i, j);
  draw->AddRect(a, b, IM_COL32(255, 255, 255, 255), 0.0f, 0, thickness + Em(0.12f));
  draw->AddRect(ImVec2(a.x + thickness, a.y + thickness), ImVec2(b.x - thickness, b.y - thickness),
                IM_COL32(20, 20, 28, 255), 0.0f, 0, thickness);
}

std::size_t IndexOf(const std::vector<std::int64_t>& values, std::int64_t value) {
  return static_cast<std::size_t>(std::find(values.begin(), values.end(), value) - values.begin());
}

void DrawMarkers(AppState& state, const PlotGeometry& plot, ImDrawList* draw, bool hovered,
                 bool clicked) {
  const trainmem::Heatmap& map = state.heatmap.map;
  const std::size_t ci = IndexOf(map.x.values, CurrentValue(map.x.key, state.config));
  const std::size_t cj = IndexOf(map.y.values, CurrentValue(map.y.key, state.config));
  if (ci < plot.nx && cj < plot.ny) OutlineCell(plot, ci, cj, draw, Em(0.14f));
  if (!hovered) return;
  const ImVec2 mouse = ImGui::GetMousePos();
  const auto i = static_cast<std::size_t>(
      std::clamp((mouse.x - plot.min.x) / plot.cell_w(), 0.0f, plot.nx - 0.5f));
  const auto j = static_cast<std::size_t>(
      std::clamp((plot.max.y - mouse.y) / plot.cell_h(), 0.0f, plot.ny - 0.5f));
  draw->AddRect(plot.CellMin(i, j), plot.CellMax(i, j), IM_COL32(255, 255, 255, 200), 0.0f, 0,
                Em(0.1f));
  DrawCellTooltip(state, i, j);
  if (map.at(i, j).valid) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  if (clicked) ApplyHeatmapCell(state, i, j);
}

// Plot area: whole device pixels, so the offscreen texture maps 1:1 onto the screen.
PlotGeometry LayoutPlot(const AppState& state) {
  const trainmem::Heatmap& map = state.heatmap.map;
  float label_width = 0;
  for (std::int64_t v : map.y.values)
    label_width = std::max(label_width, ImGui::CalcTextSize(AxisLabel(map.y.key, v).c_str()).x);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  PlotGeometry plot;
  plot.nx = map.x.values.size();
  plot.ny = map.y.values.size();
  const float width = std::max(Em(12), avail.x - label_width - Em(0.8f));
  const float height = std::clamp(avail.y - Em(7.6f), Em(10), std::max(Em(10), width * 0.7f));
  plot.min = ImVec2(std::round(origin.x + label_width + Em(0.6f)), std::round(origin.y));
  plot.max = ImVec2(plot.min.x + std::round(width), plot.min.y + std::round(height));
  return plot;
}

void DrawPlot(AppState& state) {
  HeatmapView& view = state.heatmap;
  const HeatmapGrid& grid = CurrentGrid(state);
  ImGui::TextDisabled("%s \xE2\x86\x91", Tr(grid.y_name));
  const PlotGeometry plot = LayoutPlot(state);
  ImGui::SetCursorScreenPos(plot.min);
  const bool clicked =
      ImGui::InvisibleButton("plot", ImVec2(plot.max.x - plot.min.x, plot.max.y - plot.min.y));
  const bool hovered = ImGui::IsItemHovered();
  RecordRect(state, "plot", plot.min, plot.max);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int width = static_cast<int>(plot.max.x - plot.min.x),
            height = static_cast<int>(plot.max.y - plot.min.y);
  if (RenderHeatmap(view.gpu, view.map, view.version, width, height, state.device_pixel_ratio)) {
    draw->AddImage(HeatmapTexture(view.gpu), plot.min, plot.max, ImVec2(0, 1), ImVec2(1, 0));
    DrawCellValues(view.map, plot, draw);
  } else {
    draw->AddRectFilled(plot.min, plot.max, BorderColor());
    draw->AddText(ImVec2(plot.min.x + Em(0.5f), plot.min.y + Em(0.5f)), ErrorTextColor(),
                  TrFormat(Str::kHeatmapShaderErrorTemplate, view.gpu.error.c_str()).c_str());
  }
  DrawAxisLabels(state, plot, draw);
  DrawMarkers(state, plot, draw, hovered, clicked);
  ImGui::SetCursorScreenPos(ImVec2(plot.min.x - Em(0.6f), plot.max.y + Em(3.0f)));
}

}  // namespace

void DrawHeatmapPanel(AppState& state) {
  HeatmapView& view = state.heatmap;
  const bool current = RefreshHeatmap(state);
  ImGui::BeginChild("memory_map", ImVec2(0, 0), true, ImGuiWindowFlags_AlwaysUseWindowPadding);
  SectionTitle(Str::kSectionMemoryMap);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(Tr(Str::kHeatmapGrid));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(Em(18));
  const auto& grids = HeatmapGrids();
  if (ImGui::BeginCombo("##grid", Tr(grids[static_cast<std::size_t>(view.grid)].label))) {
    for (std::size_t g = 0; g < grids.size(); ++g) {
      if (ImGui::Selectable(Tr(grids[g].label), static_cast<int>(g) == view.grid))
        view.grid = static_cast<int>(g);
    }
    ImGui::EndCombo();
  }
  RecordRect(state, "grid_combo", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::SameLine(0, Em(1));
  ImGui::AlignTextToFramePadding();
  if (!current) {
    ImGui::TextDisabled("%s", Tr(Str::kComputing));
  } else if (view.computed_for != 0) {
    ImGui::TextDisabled(
        "%s", TrFormat(Str::kHeatmapCountsTemplate, static_cast<int>(view.map.x.values.size()),
                       static_cast<int>(view.map.y.values.size()), view.compute_ms)
                  .c_str());
  }
  TextMuted(Tr(Str::kHeatmapIntro));
  if (view.computed_for != 0 && view.map.error.empty()) {
    if (view.map.usable_bytes == 0) TextColored(DoesNotFitColors().text, Tr(Str::kHeatmapNoValid));
    DrawPlot(state);
    DrawHeatmapLegend(state);
  } else if (!view.map.error.empty()) {
    TextColored(ErrorTextColor(), view.map.error.c_str());
  }
  ImGui::EndChild();
}

}  // namespace app
