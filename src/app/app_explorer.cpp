#include "app/app_explorer.h"

#include <chrono>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "app/app_actions.h"
#include "app/app_import.h"
#include "platform/platform.h"

namespace app {
namespace {

// The table shows the cheapest layouts; a 1024-rank MoE job has thousands that fit, and a
// limited search also stops estimating early (search.cpp), which keeps it in the tens of ms.
constexpr std::size_t kMaxLayoutRows = 100;

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

std::vector<std::int64_t> PowersOfTwo(std::int64_t from, std::int64_t to) {
  std::vector<std::int64_t> values;
  for (std::int64_t v = from; v <= to; v *= 2) values.push_back(v);
  if (values.empty()) values.push_back(from);
  return values;
}

// Shared by both views: up to date, or this frame shows the "pending" line and the next one
// computes. A result kept during a drag is shown as it is.
bool NeedsCompute(AppState& state, std::uint64_t computed_for, bool& pending) {
  if (computed_for == state.config_version) return false;
  if (computed_for != 0 && ImGui::IsAnyMouseDown()) return false;
  if (!pending) {
    pending = true;
    RequestFrames(state, 2);
    return false;
  }
  return true;
}

}  // namespace

const std::vector<HeatmapGrid>& HeatmapGrids() {
  static const std::vector<HeatmapGrid> grids = {
      {Str::kGridBatchSeq, "b", Str::kLocalBatchSize, "s", Str::kSeqLen},
      {Str::kGridTpPp, "tp", Str::kTensorParallel, "pp", Str::kPipelineParallel},
      {Str::kGridEpEtp, "ep", Str::kExpertParallel, "etp", Str::kExpertTensorParallel},
  };
  return grids;
}

std::vector<std::int64_t> HeatmapAxisValues(const char* key, const trainmem::Config& config) {
  const std::string k = key;
  if (k == "b") return PowersOfTwo(1, 64);
  if (k == "s") return PowersOfTwo(512, 131072);
  return PowersOfTwo(1, config.world_size);  // a parallel degree
}

bool RefreshLayouts(AppState& state) {
  LayoutsView& view = state.layouts;
  if (!NeedsCompute(state, view.computed_for, view.pending)) return !view.pending;
  trainmem::SearchOptions options;
  options.vary_ac = view.vary_ac;
  options.vary_swap = view.vary_swap;
  options.limit = kMaxLayoutRows;
  const auto start = std::chrono::steady_clock::now();
  view.result = trainmem::SearchLayouts(state.config, options);
  view.compute_ms = MillisecondsSince(start);
  view.computed_for = state.config_version;
  view.pending = false;
  view.sort_dirty = true;
  RequestFrames(state);
  return true;
}

bool RefreshHeatmap(AppState& state) {
  HeatmapView& view = state.heatmap;
  if (view.computed_grid != view.grid) view.computed_for = 0;
  if (!NeedsCompute(state, view.computed_for, view.pending)) return !view.pending;
  const HeatmapGrid& grid = HeatmapGrids()[static_cast<std::size_t>(view.grid)];
  const trainmem::HeatmapAxis x{grid.x_key, HeatmapAxisValues(grid.x_key, state.config)};
  const trainmem::HeatmapAxis y{grid.y_key, HeatmapAxisValues(grid.y_key, state.config)};
  const auto start = std::chrono::steady_clock::now();
  view.map = trainmem::ComputeHeatmap(state.config, x, y);
  view.compute_ms = MillisecondsSince(start);
  view.computed_for = state.config_version;
  view.computed_grid = view.grid;
  view.pending = false;
  ++view.version;
  RequestFrames(state);
  return true;
}

void ApplyLayout(AppState& state, int index) {
  const auto& layouts = state.layouts.result.layouts;
  if (index < 0 || index >= static_cast<int>(layouts.size())) return;
  const trainmem::Config chosen =
      layouts[static_cast<std::size_t>(index)].config;  // the commit re-searches
  UseConfig(state, chosen);
}

// The same settings as the cell (ComputeHeatmap): the two values, and dp_shard = -1 when a
// parallel degree moves, so the leftover ranks absorb the change.
void ApplyHeatmapCell(AppState& state, std::size_t x_index, std::size_t y_index) {
  const trainmem::Heatmap& map = state.heatmap.map;
  if (x_index >= map.x.values.size() || y_index >= map.y.values.size()) return;
  if (!map.at(x_index, y_index).valid) return;
  std::vector<std::pair<std::string, std::string>> settings = {
      {map.x.key, std::to_string(map.x.values[x_index])},
      {map.y.key, std::to_string(map.y.values[y_index])}};
  const auto is_degree = [](const std::string& key) { return key != "b" && key != "s"; };
  if (is_degree(map.x.key) || is_degree(map.y.key)) settings.emplace_back("dp", "-1");
  auto next = trainmem::ApplySettings(state.config, settings, state.presets);
  if (next.ok()) UseConfig(state, next.value());
}

void RecordRect(AppState& state, const char* name, ImVec2 min, ImVec2 max) {
  const float ratio = state.device_pixel_ratio > 0 ? state.device_pixel_ratio : 1.0f;
  state.explorer_rects.emplace_back(
      name,
      CssRect{min.x / ratio, min.y / ratio, (max.x - min.x) / ratio, (max.y - min.y) / ratio});
}

void PublishExplorerMirror(AppState& state) {
  static const char* kViewNames[] = {"estimate", "layouts", "memory_map"};
  nlohmann::json mirror = {{"view", kViewNames[static_cast<int>(state.view)]}};
  const LayoutsView& layouts = state.layouts;
  if (layouts.computed_for != 0) {
    mirror["layouts"] = {{"rows", layouts.result.layouts.size()},
                         {"evaluated", layouts.result.evaluated},
                         {"valid", layouts.result.valid},
                         {"ms", layouts.compute_ms},
                         {"current", layouts.computed_for == state.config_version}};
  }
  const HeatmapView& heatmap = state.heatmap;
  if (heatmap.computed_for != 0) {
    mirror["heatmap"] = {{"x", heatmap.map.x.key},
                         {"y", heatmap.map.y.key},
                         {"x_values", heatmap.map.x.values},
                         {"y_values", heatmap.map.y.values},
                         {"ms", heatmap.compute_ms},
                         {"current", heatmap.computed_for == state.config_version},
                         {"rendered", heatmap.gpu.rendered_version == heatmap.version}};
  }
  // What the red box at an invalid field says ("world_size: must be at most …").
  if (!state.draft_errors.empty()) {
    nlohmann::json errors = nlohmann::json::array();
    for (const trainmem::Error& e : state.draft_errors) errors.push_back(e.path + ": " + e.message);
    mirror["field_errors"] = errors;
  }
  // What the import report says beside its read values (tests read it; the canvas shows it).
  if (state.import_panel.has_result) {
    mirror["import"] = {{"errors", ImportConfigErrorLines(state.import_panel)},
                        {"wanted", ImportWantedLine(state.import_panel)},
                        {"problems", ImportProblemsShown(state.import_panel)}};
  }
  nlohmann::json rects = nlohmann::json::object();
  for (const auto& [name, r] : state.explorer_rects) rects[name] = {r.x, r.y, r.width, r.height};
  mirror["rects"] = rects;
  state.explorer_rects.clear();
  std::string text = mirror.dump();
  if (text == state.published_explorer) return;
  state.published_explorer = std::move(text);
  platform::SetExplorerMirror(state.published_explorer);
}

}  // namespace app
