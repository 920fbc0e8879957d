// [SECTION] index
//   Committing a valid config (estimate, URL, storage, DOM mirror)
//   Start-up and share links
//   Model and device resolution
//   Recommendations and whole configs
//   Errors, frames, feedback
// Share/export helpers are in app_export.cpp.
#include "app/app_actions.h"

#include <algorithm>
#include <cstdio>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "app/i18n.h"
#include "app/labels.h"
#include "app/results_text.h"
#include "core/report.h"
#include "core/share_link.h"
#include "data/builtin_presets.h"
#include "platform/platform.h"

namespace app {
namespace {

using trainmem::Config;
using trainmem::Error;

constexpr const char* kStorageKey = "trainmem.last_fragment";

// The seed example (seed/README.md, Llama3 8B): what the page shows on a first visit.
constexpr const char* kSeedConfig = R"({
  "version": 1, "mode": "detailed", "framework": "torchtitan-npu",
  "model": "llama3-8b", "device": "ascend-910b", "world_size": 8,
  "training": {"local_batch_size": 2, "seq_len": 2048},
  "activation_checkpoint": {"mode": "selective"},
  "optimizer": {"swap_optimizer": true}
})";

// ---- Committing a valid config ---------------------------------------------------------------

std::string SummaryLine(const AppState& state) {
  const auto& budget = state.estimate.budget;
  return TrFormat(Str::kSummaryTemplate, ModelDisplayName(state.config).c_str(),
                  state.config.device.name.c_str(),
                  trainmem::FormatGiB(state.estimate.per_device.total).c_str(),
                  trainmem::FormatGiB(budget.usable_bytes).c_str(),
                  Tr(budget.fits ? Str::kSummaryFits : Str::kSummaryDoesNotFit));
}

// Writes the config where it is shared: the DOM mirror and title now; the URL fragment and
// localStorage through FlushShareState, after the frame (see there).
void Publish(AppState& state, bool write_url) {
  const std::string fragment = trainmem::EncodeShareFragment(state.config);
  if (write_url) {
    const std::string url_fragment = state.embed ? fragment + "&embed=1" : fragment;
    state.pending_fragment = url_fragment == state.written_fragment ? "" : url_fragment;
    state.pending_storage = state.embed ? "" : fragment;  // an embedded card keeps the reader's own
  }
  const std::string summary = SummaryLine(state);
  platform::SetResultMirror(state.estimate_json, summary);
  platform::SetResultText(ResultTextJson(state, summary));
  platform::SetDocumentTitle(TrFormat(Str::kDocumentTitle, ModelDisplayName(state.config).c_str(),
                                      state.config.device.name.c_str()));
}

void Commit(AppState& state, const Config& config, bool write_url) {
  state.config = config;
  ++state.config_version;
  state.estimate = trainmem::EstimateWithAdvice(config);
  Config other = config;
  other.mode = config.mode == trainmem::Mode::kTemplate ? trainmem::Mode::kDetailed
                                                        : trainmem::Mode::kTemplate;
  state.other_mode_estimate = trainmem::EstimateMemory(other);
  state.estimate_json = trainmem::EstimateToJson(state.estimate).dump();
  Publish(state, write_url);
  RequestFrames(state);
}

// An edit: once written to the URL it becomes a new browser history entry (FlushShareState).
void Revalidate(AppState& state) {
  state.draft_errors = trainmem::ValidateConfig(state.draft);
  if (state.draft_errors.empty()) {
    Commit(state, state.draft, true);
    state.pending_is_edit = !state.pending_fragment.empty();
  }
  RequestFrames(state);
}

// A config in which any model fits any device: one rank, default parallelism. Resolving a model
// or device on it isolates that pick from the rest of the draft (which may be mid-edit).
Config NeutralBase(const AppState& state) {
  Config base = state.config;
  base.world_size = 1;
  base.parallelism = trainmem::Parallelism{};
  return base;
}

}  // namespace

// ---- Start-up and share links ----------------------------------------------------------------

void InitAppState(AppState& state) {
  state.presets = trainmem::BuiltinPresets();
  auto seed = trainmem::ParseConfig(kSeedConfig, state.presets);
  Config start = seed.ok() ? seed.value() : Config{};
  for (const Error& e : seed.errors()) state.banner_lines.push_back(trainmem::FormatError(e));
  state.draft = start;
  Commit(state, start, false);

  const std::string fragment = platform::GetUrlFragment();
  if (!fragment.empty()) {
    LoadFragment(state, fragment);
    return;
  }
  if (auto stored = platform::StorageGet(kStorageKey)) {
    auto decoded = trainmem::DecodeShareFragment(*stored, state.presets);
    if (decoded.errors.empty() && trainmem::ValidateConfig(decoded.config).empty()) {
      state.draft = decoded.config;
      Commit(state, decoded.config, true);
      return;
    }
  }
  Publish(state, true);
}

void LoadFragment(AppState& state, const std::string& fragment) {
  if (fragment.empty() || fragment == state.written_fragment) return;
  state.pending_fragment.clear();  // the link just opened wins over an edit not yet written
  state.pending_storage.clear();
  state.pending_is_edit = false;
  auto decoded = trainmem::DecodeShareFragment(fragment, state.presets);
  state.embed = decoded.embed;
  state.banner_lines.clear();
  for (const Error& e : decoded.errors) {
    state.banner_lines.push_back(
        TrFormat(Str::kCouldNotReadTemplate, trainmem::FormatError(e).c_str()));
  }
  // Keep a link we could not fully read in the address bar (the reader may fix it by hand, and
  // presets fetched later may resolve it); it is replaced on the next edit.
  state.link_had_errors = !decoded.errors.empty();
  state.written_fragment = fragment;
  state.draft = decoded.config;
  state.draft_errors = trainmem::ValidateConfig(state.draft);
  if (state.draft_errors.empty()) Commit(state, state.draft, !state.link_had_errors);
  RequestFrames(state);
}

// ---- Model and device resolution -------------------------------------------------------------

namespace {

void CopyModel(const Config& from, Config& to) {
  to.model_id = from.model_id;
  to.model_name = from.model_name;
  to.model = from.model;
  to.nominal_params = from.nominal_params;
  to.nominal_expert_params = from.nominal_expert_params;
}

// Hugging Face writes the repo id or local folder a config.json came from into `_name_or_path`
// ("meta-llama/Llama-3.1-8B"): a better name for a pasted model than "Custom model". Its last
// path component is the model's own name, without the organisation or a local folder.
std::string NameOrPath(const nlohmann::json& hf_config, std::string fallback) {
  const auto it = hf_config.find("_name_or_path");
  if (it == hf_config.end() || !it->is_string()) return fallback;
  std::string name = it->get<std::string>();
  while (!name.empty() && (name.back() == '/' || name.back() == '\\')) name.pop_back();
  const std::size_t slash = name.find_last_of("/\\");
  if (slash != std::string::npos) name = name.substr(slash + 1);
  return name.empty() ? fallback : name;
}

void ReportPickErrors(AppState& state, const std::vector<Error>& errors) {
  state.draft_errors = trainmem::ValidateConfig(state.draft);
  state.draft_errors.insert(state.draft_errors.end(), errors.begin(), errors.end());
  RequestFrames(state);
}

}  // namespace

void SelectModelPreset(AppState& state, const std::string& id) {
  auto resolved = trainmem::ApplySetting(NeutralBase(state), "model", id, state.presets);
  if (!resolved.ok()) return ReportPickErrors(state, resolved.errors());
  state.custom_model.open = false;
  state.custom_model.pasted_name.clear();
  EditDraft(state, [&](Config& c) { CopyModel(resolved.value(), c); });
}

bool UseCustomModel(AppState& state, const std::string& hf_json_text, std::vector<Error>* errors) {
  const auto parsed = nlohmann::json::parse(hf_json_text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    *errors = {{"config.json", Tr(Str::kErrNotJsonObject)}};
    return false;
  }
  auto arch = trainmem::ParseModelArch(parsed, "model");
  if (!arch.ok()) {
    *errors = arch.errors();
    return false;
  }
  auto resolved = trainmem::ApplySetting(NeutralBase(state), "model", parsed.dump(), state.presets);
  if (!resolved.ok()) {
    *errors = resolved.errors();
    return false;
  }
  errors->clear();
  // The architecture form re-submits the fields without `_name_or_path`: keep the pasted name.
  std::string& pasted_name = state.custom_model.pasted_name;
  pasted_name = NameOrPath(parsed, pasted_name);
  Config named = resolved.value();
  if (!pasted_name.empty()) named.model_name = pasted_name;
  EditDraft(state, [&](Config& c) { CopyModel(named, c); });
  return true;
}

void SelectDevicePreset(AppState& state, const std::string& id) {
  auto resolved = trainmem::ApplySetting(NeutralBase(state), "device", id, state.presets);
  if (!resolved.ok()) return ReportPickErrors(state, resolved.errors());
  state.custom_device.open = false;
  EditDraft(state, [&](Config& c) { c.device = resolved.value().device; });
}

void UseCustomDevice(AppState& state, const std::string& name, double memory_gib) {
  const nlohmann::json device = {{"name", name}, {"memory_gib", memory_gib}};
  auto resolved =
      trainmem::ApplySetting(NeutralBase(state), "device", device.dump(), state.presets);
  if (!resolved.ok()) return ReportPickErrors(state, resolved.errors());
  EditDraft(state, [&](Config& c) { c.device = resolved.value().device; });
}

void EditDraft(AppState& state, const std::function<void(Config&)>& mutate) {
  mutate(state.draft);
  Revalidate(state);
}

// ---- Recommendations and whole configs ------------------------------------------------------

// ApplySettings applies every change, then validates once: a step's keys may only be valid
// together (tp and dp_shard, world_size and a degree).
void ApplyRecommendation(AppState& state, const trainmem::Recommendation& rec) {
  auto next = trainmem::ApplySettings(state.config, rec.changes, state.presets);
  if (!next.ok()) return ReportPickErrors(state, next.errors());
  UseConfig(state, next.value());
}

void UseConfig(AppState& state, const Config& config) {
  state.draft = config;
  Revalidate(state);
}

// Browsers throttle history.replaceState (Chrome: 100 calls per 10 s), and dragging a slider
// changes the config every frame; so the URL is written once the mouse is released.
// An edit makes a new history entry (Back undoes it), except while the same text field is
// being typed into: "4096" typed digit by digit is one entry, not four.
void FlushShareState(AppState& state, bool mouse_down, unsigned typing_field) {
  if (mouse_down) return;
  if (!state.pending_fragment.empty()) {
    const bool same_typing = typing_field != 0 && typing_field == state.history_typing_field;
    if (state.pending_is_edit && !same_typing)
      platform::PushUrlFragment(state.pending_fragment);
    else
      platform::ReplaceUrlFragment(state.pending_fragment);
    state.history_typing_field = state.pending_is_edit ? typing_field : 0;
    state.written_fragment = state.pending_fragment;
    state.pending_fragment.clear();
    state.pending_is_edit = false;
  }
  if (!state.pending_storage.empty()) {
    platform::StorageSet(kStorageKey, state.pending_storage);
    state.pending_storage.clear();
  }
}

// The banner's lines, mirrored to <div id="link-errors" role="alert"> for screen readers and
// tests (the canvas is opaque to both); compared first so the DOM is written only on change.
void PublishLinkErrors(AppState& state) {
  if (state.banner_lines == state.published_link_errors) return;
  state.published_link_errors = state.banner_lines;
  platform::SetLinkErrors(state.banner_lines);
}

// ---- Errors, frames, feedback ------------------------------------------------------------------

std::vector<const Error*> ErrorsFor(const AppState& state, const char* key, bool sub_paths) {
  std::vector<const Error*> found;
  const std::string prefix = key;
  for (const Error& e : state.draft_errors) {
    const bool exact = e.path == prefix;
    const bool below = sub_paths && e.path.size() > prefix.size() &&
                       e.path.compare(0, prefix.size(), prefix) == 0 &&
                       (e.path[prefix.size()] == '.' || e.path[prefix.size()] == '[');
    if (exact || below) found.push_back(&e);
  }
  return found;
}

void RequestFrames(AppState& state, int frames) {
  state.frames_requested = std::max(state.frames_requested, frames);
}

void ShowFeedback(AppState& state, std::string text) {
  constexpr double kFeedbackSeconds = 2.0;
  state.feedback = std::move(text);
  state.feedback_until = ImGui::GetTime() + kFeedbackSeconds;
  state.wake_after_seconds = kFeedbackSeconds + 0.05;
  RequestFrames(state);
}

}  // namespace app
