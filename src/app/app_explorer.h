// The explorer's non-drawing half (issue #5): when to run the layout search and the heatmap,
// what the heatmap grids are, applying a layout or a cell, and the #explorer DOM mirror.
// panel_layouts.cpp and panel_heatmap.cpp draw; nothing here draws except "is it current".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/app_state.h"
#include "app/words/i18n.h"

namespace app {

// A heatmap the user can pick: two of trainmem::HeatmapKeys() with their display names.
struct HeatmapGrid {
  Str label;          // "Batch size × sequence length"
  const char* x_key;  // short alias, as in share links ("b")
  Str x_name;
  const char* y_key;
  Str y_name;
};
const std::vector<HeatmapGrid>& HeatmapGrids();

// The values an axis takes for `config`: b 1…64, s 512…131072, parallel degrees 1…world size;
// all powers of two (memory scales smoothly in them, and real jobs use them).
std::vector<std::int64_t> HeatmapAxisValues(const char* key, const trainmem::Config& config);

// Bring the view up to date with the config. Returns false on the frame that only shows
// "Searching…" (the work runs on the next frame, which this requests). While a mouse button is
// down (a slider being dragged) an existing result is kept instead.
bool RefreshLayouts(AppState& state);
bool RefreshHeatmap(AppState& state);

// Use the layout in row `index` of the search result / the two values of a heatmap cell.
void ApplyLayout(AppState& state, int index);
void ApplyHeatmapCell(AppState& state, std::size_t x_index, std::size_t y_index);

// Marks where something the tests click on was drawn (ImGui = device pixels).
void RecordRect(AppState& state, const char* name, ImVec2 min, ImVec2 max);
// Writes #explorer's data-json when it changed (main.cpp, after each frame), then forgets the
// rectangles recorded this frame.
void PublishExplorerMirror(AppState& state);

}  // namespace app
