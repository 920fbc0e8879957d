// Everything that changes AppState outside plain widget edits: loading the first config,
// committing a valid draft (estimate, URL, storage, DOM mirror), presets, share links, advice,
// exports. Panels call these; none of them draws.
#pragma once

#include <functional>
#include <string>

#include "app/app_state.h"
#include "app/draw/theme.h"
#include "core/estimate/estimate.h"

namespace app {

// Builtin presets, then the URL fragment, else the last config in localStorage, else the first
// visit's link (the seed's Llama 3 8B example on 8 × H100 with torchtitan: v1 link defaults).
void InitAppState(AppState& state);

// Shows the page in `language`. Chinese first fetches the CJK glyphs (once); the page switches
// when they arrive, so it never shows characters it cannot draw. Links carry lang=zh when it was
// chosen.
void ShowLanguage(AppState& state, Language language);

// Edits the draft with `mutate`, validates it, and when it is valid makes it the config.
void EditDraft(AppState& state, const std::function<void(trainmem::Config&)>& mutate);
// EditDraft for the field with config key `key`: an error the edit causes is shown there.
void EditField(AppState& state, const char* key,
               const std::function<void(trainmem::Config&)>& mutate);

// Model and device go through the core's resolver (ApplySetting "model"/"device") so preset
// lookup and HF parsing stay in the core. Errors land in draft_errors under "model"/"device".
void SelectModelPreset(AppState& state, const std::string& id);
bool UseCustomModel(AppState& state, const std::string& hf_json_text,
                    std::vector<trainmem::Error>* errors);
// A device from another family moves the framework with it (torchtitan ↔ torchtitan-npu) and
// turns off options the new framework lacks; state.framework_note says what changed.
void SelectDevicePreset(AppState& state, const std::string& id);
void SelectFramework(AppState& state, trainmem::Framework framework);
void UseCustomDevice(AppState& state, const std::string& name, double memory_gib);

// Applies a recommendation's changes together (ApplySettings) to the current config.
void ApplyRecommendation(AppState& state, const trainmem::Recommendation& recommendation);

// The advice's "N devices would fit": world size N (FSDP takes the rest) and the Layouts tab.
void ShowLayoutsOn(AppState& state, std::int64_t devices);

// Makes a whole config (a layout from the search, a heatmap cell) the draft, and the config when
// it is valid.
void UseConfig(AppState& state, const trainmem::Config& config);

// A share fragment arrived (page load, hashchange): decode it, keep what could be read.
void LoadFragment(AppState& state, const std::string& fragment);

// Writes a pending URL fragment and localStorage entry (main.cpp, after each frame), unless a
// mouse button is down (a slider being dragged). An edit becomes a history entry (pushState);
// `typing_field` is the ImGui id of the text field being typed into (0 if none): further edits
// from the same field replace that entry instead of adding one per keystroke.
void FlushShareState(AppState& state, bool mouse_down, unsigned typing_field);
// Mirrors the "Could not read" lines to the DOM when they changed (main.cpp, after each frame).
void PublishLinkErrors(AppState& state);

// The verdict in words ("FITS", "CLOSE TO THE LIMIT", "DOES NOT FIT"): core's Verdict, which
// widens the budget test by the family's measured error band (core/estimate/accuracy.h); its
// colours; and the band as a sentence for under the headline.
const char* VerdictWords(const trainmem::Estimate& e);
StatusColors VerdictColors(const trainmem::Estimate& e);
std::string AccuracyLine(const trainmem::Estimate& e);

// Share and export.
// The config's link plus the page's keys (lang=zh when Chinese was chosen, a link's m=…).
std::string LinkFragment(const AppState& state);
std::string ShareLink(const AppState& state);     // full URL of the current config
std::string EmbedSnippet(const AppState& state);  // <iframe …#…&embed=1 …>
void OpenFullApp(const AppState& state);          // the embed card's "Open in trainmem"
enum class ExportFormat { kMarkdown, kCsv, kJson };
std::string ExportText(const AppState& state, ExportFormat format);
void CopyExport(AppState& state, ExportFormat format);
void DownloadExport(AppState& state, ExportFormat format);
void CopyShareLink(AppState& state);
void CopyEmbedSnippet(AppState& state);

// Errors in draft_errors that belong to `key`: exactly, or (with sub_paths) below it, such as
// "model.hidden_size" under "model".
std::vector<const trainmem::Error*> ErrorsFor(const AppState& state, const char* key,
                                              bool sub_paths = true);

// Asks the main loop for `frames` more frames (and, for feedback, a redraw after `seconds`).
void RequestFrames(AppState& state, int frames = 3);
void ShowFeedback(AppState& state, std::string text);

}  // namespace app
