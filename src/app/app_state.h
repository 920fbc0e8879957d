// AppState: everything the page remembers between frames. Panels are free functions
// DrawXxxPanel(AppState&); they read the estimate and edit the draft through app_actions.h.
//
// Two configs: `draft` is what the input widgets show (possibly invalid while the user types),
// `config` is the last valid one and the only one ever estimated, so an invalid edit shows its
// error next to the field while the last valid estimate stays on screen.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/draw/heatmap_renderer.h"
#include "app/import_state.h"
#include "app/measured_state.h"
#include "app/words/i18n.h"
#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/model/presets.h"
#include "core/result.h"
#include "core/search/search.h"

namespace app {

struct CustomModelEditor {
  bool open = false;
  std::string hf_json_text;                // the paste box
  std::vector<trainmem::Error> hf_errors;  // why the pasted config.json was not used
  std::string edited_json;                 // architecture fields being edited (HF names)
  std::vector<trainmem::Error> edit_errors;
  std::string pasted_name;  // from the pasted config.json's `_name_or_path`
};

struct CustomDeviceEditor {
  bool open = false;
  char name[64] = "Custom device";
  double memory_gib = 64.0;
};

// The results side: the estimate, or one of the two explorer views (issue #5).
enum class ResultsView { kEstimate, kLayouts, kMemoryMap };

// Explorer results are recomputed only while their view is open and only when the config
// (AppState::config_version) or their own options changed; `pending` means "Searching…" is on
// screen this frame and the work runs on the next one (app_explorer.cpp).
struct LayoutsView {
  bool vary_ac = true;
  bool vary_swap = true;
  trainmem::SearchResult result;
  std::uint64_t computed_for = 0;  // config_version of `result`; 0 = stale
  bool pending = false;
  double compute_ms = 0;
  std::vector<int> order;  // rows in display (sorted) order: indices into result.layouts
  bool sort_dirty = true;
};

struct HeatmapView {
  int grid = 0;  // index into HeatmapGrids() (app_explorer.h)
  trainmem::Heatmap map;
  std::uint64_t computed_for = 0;  // config_version of `map`; 0 = stale
  int computed_grid = -1;
  bool pending = false;
  double compute_ms = 0;
  std::uint64_t version = 0;  // bumped per computed map: the GPU re-uploads on change
  HeatmapGpu gpu;
};

// A rectangle in CSS pixels (the page's coordinates), for the #explorer DOM mirror.
struct CssRect {
  float x = 0, y = 0, width = 0, height = 0;
};

struct AppState {
  trainmem::Presets presets;

  trainmem::Config config;                    // last valid: what `estimate` describes
  trainmem::Config draft;                     // what the inputs show
  std::vector<trainmem::Error> draft_errors;  // why the draft is not (yet) the config
  // The field being edited (its config key) and those edited since the last valid config: an
  // error an edit causes is shown at the field edited (app_actions.cpp).
  std::string edited_key;
  std::vector<std::string> edited_since_commit;
  // "Framework switched to torchtitan: …", shown under the device until the next switch.
  std::string framework_note;

  trainmem::Estimate estimate;             // EstimateWithAdvice(config)
  trainmem::Estimate other_mode_estimate;  // the same config in the other mode (template/detailed)
  std::string estimate_json;               // EstimateToJson(estimate).dump(): the DOM mirror
  std::uint64_t config_version = 1;        // bumped by every commit: explorer views compare it

  // Share link state.
  bool embed = false;
  std::string written_fragment;           // what the URL holds now (to ignore our own writes)
  std::string pending_fragment;           // to write to the URL after the frame
  std::string pending_storage;            // to write to localStorage after the frame
  std::vector<std::string> banner_lines;  // "Could not read: #tp: …", dismissible
  // What the opened link's reader said (errors, then warnings), kept in the core's English so
  // banner_lines can be written again in the page's language when it changes (a lang=zh link
  // shows Chinese only once its font has arrived, after the link was read).
  std::vector<trainmem::Error> link_messages;
  bool link_had_errors = false;       // keep the unreadable link in the address bar
  bool pending_is_edit = false;       // pending_fragment comes from an edit: a history entry
  unsigned history_typing_field = 0;  // the text field whose typing made the last entry
  // The opened link could not be read in full: the config has defaults the reader never chose,
  // so no verdict is shown as theirs until they edit something.
  bool link_fallback = false;
  // While link_fallback: the link keys that were not applied, under their config keys
  // ("parallelism.tensor_parallel_degree"), so their fields are outlined like a field error.
  std::vector<trainmem::Error> link_field_errors;
  std::vector<std::pair<std::string, std::string>> link_page_keys;  // `m=…`, re-written as is
  std::vector<std::string> published_link_errors;                   // what #link-errors shows now

  // Explorer (panel_layouts.cpp, panel_heatmap.cpp).
  ResultsView view = ResultsView::kEstimate;
  bool view_requested = false;  // select `view`'s tab on the next frame (ShowLayoutsOn)
  LayoutsView layouts;
  HeatmapView heatmap;
  std::vector<std::pair<std::string, CssRect>>
      explorer_rects;                      // drawn this frame (tabs, rows, plot)
  std::string published_explorer;          // what #explorer's data-json holds now
  float device_pixel_ratio = 1.0f;         // set by main.cpp: CSS px = ImGui px / ratio
  float verdict_reserved_height = 0;       // app.cpp: the verdict never shrinks in explorer views
  float single_column_verdict_height = 0;  // app.cpp: the page scrolls when it changes
  double last_interaction_time = -1e9;     // app.cpp: ImGui time of the last press or typing

  MeasuredView measured;  // a run's log or profile beside the estimate (panel_measured.cpp)

  // UI-only state.
  std::string model_filter;
  CustomModelEditor custom_model;
  CustomDeviceEditor custom_device;
  ImportPanelState import_panel;  // files given to the page (panel_import.cpp)
  std::string feedback;           // "Link copied", shown briefly in the header
  double feedback_until = 0;      // ImGui time at which the feedback disappears
  bool presets_fetched = false;
  Language wanted_language = Language::kEnglish;  // ShowLanguage: shown once its glyphs are in
  // The language was chosen (the switch, a link's lang=), not taken from the browser: links
  // carry it then (LinkFragment).
  bool language_chosen = false;
  bool cjk_font_requested = false;

  // Frames the main loop must still draw: set by actions that change what is on screen
  // (main.cpp wakes the paused loop when this is positive).
  int frames_requested = 0;
  double wake_after_seconds = 0;  // a delayed redraw (feedback timeout), 0 = none
};

}  // namespace app
