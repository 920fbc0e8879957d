// One function per panel (STYLE.md: one panel = one function). Each draws into the current
// ImGui window; app.cpp arranges them.
#pragma once

#include "app/app_state.h"

namespace app {

void DrawApp(AppState& state);  // the whole page: header, inputs | results, or the embed card

// Header and share (panel_header.cpp).
void DrawHeaderPanel(AppState& state);
void DrawBannerPanel(AppState& state);

// Inputs, left column.
void DrawImportPanel(AppState& state);       // panel_import.cpp: job files in, report out
void DrawModelPanel(AppState& state);        // panel_model.cpp
void DrawCustomModelPanel(AppState& state);  // panel_custom_model.cpp
void DrawDevicePanel(AppState& state);       // panel_device.cpp
void DrawParallelismPanel(AppState& state);  // panel_parallelism.cpp
void DrawTrainingPanel(AppState& state);     // panel_training.cpp
void DrawOptimizerPanel(AppState& state);    // panel_optimizer.cpp
void DrawMethodPanel(AppState& state);       // panel_method.cpp: framework, mode, overheads

// Results, right column.
void DrawVerdictPanel(AppState& state);      // panel_verdict.cpp: verdict, bar, input problems
void DrawBreakdownPanel(AppState& state);    // panel_breakdown.cpp: the five components
void DrawAdvicePanel(AppState& state);       // panel_advice.cpp
void DrawModelFactsPanel(AppState& state);   // panel_details.cpp: params, layout, host memory
void DrawActivationsPanel(AppState& state);  // panel_details.cpp: how activations were derived
void DrawStagesPanel(AppState& state);       // panel_stages.cpp: per pipeline stage (pp > 1)
void DrawModeComparePanel(AppState& state);  // panel_compare.cpp: template vs detailed
void DrawWarningsPanel(AppState& state);     // panel_verdict.cpp
void DrawMeasuredPanel(AppState& state);     // panel_measured.cpp: a run's log beside the estimate

// Explorer views, tabs beside the estimate (issue #5).
void DrawLayoutsPanel(AppState& state);   // panel_layouts.cpp: fitting layouts, sortable
void DrawHeatmapPanel(AppState& state);   // panel_heatmap.cpp: memory map of two settings
void DrawHeatmapLegend(AppState& state);  // panel_heatmap_legend.cpp

// The compact read-only card for #…&embed=1 (panel_embed.cpp).
void DrawEmbedPanel(AppState& state);

}  // namespace app
