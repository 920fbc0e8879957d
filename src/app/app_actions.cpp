// [SECTION] index
//   Committing a valid config (estimate, URL, storage, DOM mirror)
//   Start-up and share links
//   Model and device resolution
//   Recommendations and whole configs
//   Errors, frames, feedback
// Share/export helpers are in app_export.cpp.
#include "app/app_actions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "app/draw/fonts_cjk.h"
#include "app/results_text.h"
#include "app/words/i18n.h"
#include "app/words/labels.h"
#include "core/advice/advice.h"
#include "core/input_limits.h"
#include "core/link/share_link.h"
#include "core/link/share_link_detail.h"
#include "core/report/report.h"
#include "data/builtin_presets.h"
#include "platform/platform.h"

namespace app {

// The config's link plus the page's own keys: the language when it is Chinese, and whatever
// page keys (measurements) the opened link carried.
std::string LinkFragment(const AppState& state) {
  std::string fragment = trainmem::EncodeShareFragment(state.config);
  // A measurement belongs to the config it was taken with: a link of another config leaves it
  // out (the page keeps it, greyed, with a way back: panel_measured.cpp).
  const bool measured_elsewhere = state.measured.has_measurement &&
                                  !state.measured.config_link.empty() &&
                                  fragment != state.measured.config_link;
  for (const auto& [key, value] : state.link_page_keys) {
    if (key == "m" && measured_elsewhere) continue;
    fragment += "&" + key + "=" + trainmem::detail::PercentEncodePageValue(value);
  }
  // Only a language someone chose (the switch, or the lang= of the link opened): one taken from
  // the browser is this reader's, and the link's recipients have their own.
  if (state.language_chosen && CurrentLanguage() == Language::kChinese) fragment += "&lang=zh";
  return fragment;
}

namespace {

using trainmem::Config;
using trainmem::Error;

constexpr const char* kStorageKey = "trainmem.last_fragment";
// The Chinese glyphs, a separate site file (src/app/CMakeLists.txt), fetched on first use.
constexpr const char* kCjkFontPath = "fonts/cjk-ui.ttf";

// What a first visit shows: the seed's Llama 3 8B example (local_batch_size 2, seq_len 2048,
// selective checkpointing) on 8 devices, written as a link so that a first visit and a link
// agree on every default (v1's frozen defaults: H100 80GB, torchtitan). The URL gets this link
// at once, so the first visit is shareable as is.
constexpr const char* kFirstVisitLink = "v1&model=llama3-8b&ws=8&b=2&acopt=op";

// ---- Committing a valid config ---------------------------------------------------------------

std::string SummaryLine(const AppState& state) {
  const auto& budget = state.estimate.budget;
  if (state.link_fallback) {
    return TrFormat(Str::kSummaryTemplate, ModelDisplayName(state.config).c_str(),
                    state.config.device.name.c_str(),
                    trainmem::FormatGiB(state.estimate.per_device.total).c_str(),
                    trainmem::FormatGiB(budget.usable_bytes).c_str(), Tr(Str::kSummaryLinkPartly));
  }
  return TrFormat(
      Str::kSummaryTemplate, ModelDisplayName(state.config).c_str(),
      state.config.device.name.c_str(),
      trainmem::FormatGiB(state.estimate.per_device.total).c_str(),
      trainmem::FormatGiB(budget.usable_bytes).c_str(),
      Tr(budget.verdict == trainmem::Verdict::kFits           ? Str::kSummaryFits
         : budget.verdict == trainmem::Verdict::kCloseToLimit ? Str::kSummaryClose
                                                              : Str::kSummaryDoesNotFit));
}

// Writes the config where it is shared: the DOM mirror and title now; the URL fragment and
// localStorage through FlushShareState, after the frame (see there).
void Publish(AppState& state, bool write_url) {
  const std::string fragment = LinkFragment(state);
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
  state.edited_since_commit.clear();
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

// An error caused by an edit belongs at the field edited: TP 7 on 8 devices is reported by the
// core at world_size ("8 is not divisible by … 7"), but the reader changed TP. Errors at a
// field edited since the last valid config stay where they are; the others move to the field
// just edited.
void PlaceErrorsAtEditedField(AppState& state) {
  if (state.edited_key.empty()) return;
  for (trainmem::Error& e : state.draft_errors) {
    const bool edited =
        std::find(state.edited_since_commit.begin(), state.edited_since_commit.end(), e.path) !=
        state.edited_since_commit.end();
    if (!edited) e.path = state.edited_key;
  }
}

// An edit: once written to the URL it becomes a new browser history entry (FlushShareState).
void Revalidate(AppState& state) {
  state.draft_errors = trainmem::ValidateConfig(state.draft);
  if (state.draft_errors.empty()) {
    state.link_fallback = false;  // an edit makes the page the reader's own config
    Commit(state, state.draft, true);
    state.pending_is_edit = !state.pending_fragment.empty();
  } else {
    PlaceErrorsAtEditedField(state);
    // The text mirror withholds the advice as the Advice card does (results_text.cpp).
    platform::SetResultText(ResultTextJson(state, SummaryLine(state)));
  }
  state.edited_key.clear();
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

const char* VerdictWords(const trainmem::Estimate& e) {
  switch (e.budget.verdict) {
    case trainmem::Verdict::kFits:
      return Tr(Str::kVerdictFits);
    case trainmem::Verdict::kCloseToLimit:
      return Tr(Str::kVerdictClose);
    case trainmem::Verdict::kDoesNotFit:
      break;
  }
  return Tr(Str::kVerdictDoesNotFit);
}

StatusColors VerdictColors(const trainmem::Estimate& e) {
  switch (e.budget.verdict) {
    case trainmem::Verdict::kFits:
      return FitsColors();
    case trainmem::Verdict::kCloseToLimit:
      return WarningColors();
    case trainmem::Verdict::kDoesNotFit:
      break;
  }
  return DoesNotFitColors();
}

std::string AccuracyLine(const trainmem::Estimate& e) {
  const trainmem::ErrorBand& b = e.accuracy;
  if (b.template_mode) return Tr(Str::kAccuracyTemplateMode);
  if (b.runs <= 0) return TrFormat(Str::kAccuracyUnknownTemplate, b.label);
  const bool close = e.budget.verdict == trainmem::Verdict::kCloseToLimit;
  if (b.runs == 1)
    return TrFormat(
        Str::kAccuracyBandOneTemplate, b.label, static_cast<int>(std::ceil(b.below * 100)),
        static_cast<int>(std::ceil(b.band * 100)), close ? Tr(Str::kAccuracyCloseSuffix) : "");
  return TrFormat(Str::kAccuracyBandTemplate, static_cast<int>(std::ceil(b.below * 100)),
                  static_cast<int>(std::ceil(b.band * 100)), b.runs, b.label,
                  close ? Tr(Str::kAccuracyCloseSuffix) : "");
}

// ---- Start-up and share links ----------------------------------------------------------------

void InitAppState(AppState& state) {
  state.presets = trainmem::BuiltinPresets();
  // The browser's language first; a link's lang= (read below) wins over it.
  if (platform::BrowserLanguage().rfind("zh", 0) == 0) ShowLanguage(state, Language::kChinese);
  const Config start = trainmem::DecodeShareFragment(kFirstVisitLink, state.presets).config;
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

namespace {

// A link message in the page's language. The decoder ends a key's message with what the key
// takes, "… (tp expects the tensor-parallel degree, …)": the reason and that phrase are
// translated apart, as the phrase may hold parentheses of its own.
std::string TrLinkMessage(const std::string& message) {
  const std::size_t expects = message.rfind(" expects ");
  const std::size_t open = expects == std::string::npos ? expects : message.rfind(" (", expects);
  if (open != std::string::npos) {
    const std::string key = message.substr(open + 2, expects - open - 2);
    const std::string what = trainmem::LinkKeyExpects(key);
    if (!what.empty() &&
        message.compare(open, std::string::npos, " (" + key + " expects " + what + ")") == 0) {
      return TrFormat(Str::kLinkReasonExpectsTemplate, TrCore(message.substr(0, open)).c_str(),
                      key.c_str(), TrCore(what).c_str());
    }
  }
  return TrCore(message);
}

// The banner, one line per link message, in the page's language.
void WriteBannerLines(AppState& state) {
  state.banner_lines.clear();
  for (const Error& e : state.link_messages) {
    const std::string message = TrLinkMessage(e.message);
    state.banner_lines.push_back(
        e.path.empty() ? message
                       : TrFormat(Str::kLinkKeyProblemTemplate, e.path.c_str(), message.c_str()));
  }
}

}  // namespace

void LoadFragment(AppState& state, const std::string& fragment) {
  if (fragment.empty() || fragment == state.written_fragment) return;
  state.pending_fragment.clear();  // the link just opened wins over an edit not yet written
  state.pending_storage.clear();
  state.pending_is_edit = false;
  auto decoded = trainmem::DecodeShareFragment(fragment, state.presets);
  state.embed = decoded.embed;
  state.link_page_keys = decoded.page_keys;
  // A link's m=… was measured with the link's own config (ReadLinkMeasurement shows it).
  for (const auto& [key, value] : decoded.page_keys)
    if (key == "m") {
      state.measured.config_link = trainmem::EncodeShareFragment(decoded.config);
      state.measured.compared_for = 0;  // compare (and name the changes) again
    }
  if (decoded.lang.rfind("zh", 0) == 0) ShowLanguage(state, Language::kChinese);
  if (decoded.lang.rfind("en", 0) == 0) ShowLanguage(state, Language::kEnglish);
  if (!decoded.lang.empty()) state.language_chosen = true;
  state.link_messages = decoded.errors;
  state.link_messages.insert(state.link_messages.end(), decoded.warnings.begin(),
                             decoded.warnings.end());
  WriteBannerLines(state);
  state.link_field_errors.clear();
  // The field each unread key belongs to is outlined (ErrorsFor), with the link's message.
  for (const Error& e : decoded.errors)
    if (!e.path.empty())
      state.link_field_errors.push_back({trainmem::LinkKeyConfigPath(e.path), e.message});
  // What could not be read fell back to defaults the reader never chose: the page says so
  // instead of showing a verdict as if it were theirs, until they edit something.
  state.link_fallback = !decoded.errors.empty();
  // Keep a link we could not fully read in the address bar (the reader may fix it by hand, and
  // presets fetched later may resolve it); it is replaced on the next edit.
  state.link_had_errors = !decoded.errors.empty();
  state.written_fragment = fragment;
  if (decoded.refused) {
    // Nothing of it was read: the config on the page stays, and so does its verdict.
    state.link_fallback = false;
    RequestFrames(state);
    return;
  }
  state.draft = decoded.config;
  state.draft_errors = trainmem::ValidateConfig(state.draft);
  if (state.draft_errors.empty()) Commit(state, state.draft, !state.link_had_errors);
  RequestFrames(state);
}

// ---- Language --------------------------------------------------------------------------------

namespace {

void ApplyLanguage(AppState& state, Language language) {
  SetLanguage(language);
  WriteBannerLines(state);
  platform::SetDocumentLanguage(language == Language::kChinese ? "zh-CN" : "en");
  // The title, the summary, the link (lang=zh) and the banner's lines follow.
  Publish(state, !state.written_fragment.empty() || !state.pending_fragment.empty());
  RequestFrames(state);
}

}  // namespace

void ShowLanguage(AppState& state, Language language) {
  state.wanted_language = language;
  if (language == Language::kChinese && !CjkFontLoaded()) {
    // English stays until the glyphs are there: no frame of "???".
    if (state.cjk_font_requested) return;
    state.cjk_font_requested = true;
    platform::FetchBinary(kCjkFontPath, [&state](std::vector<unsigned char> bytes) {
      state.cjk_font_requested = false;
      if (bytes.empty()) return;  // the fetch failed: the page stays in English
      SetCjkFontData(std::move(bytes));
      ApplyLanguage(state, state.wanted_language);
    });
    return;
  }
  ApplyLanguage(state, language);
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
  if (auto refused =
          trainmem::CheckJsonInput(hf_json_text, trainmem::kMaxJsonTextBytes, "config.json")) {
    *errors = {*refused};  // over a size or nesting limit
    return false;
  }
  const auto parsed = trainmem::ParseJsonAllowingPythonFloats(hf_json_text);
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

namespace {

bool IsAscend(const trainmem::Presets& presets, const trainmem::Device& device) {
  const trainmem::DevicePreset* preset = presets.FindDevice(device.id);
  return preset != nullptr && preset->vendor == "Huawei";
}

// Options the framework does not have are turned off (frameworks.cpp says which); returns the
// note's words for each, empty when nothing changed.
std::string DropUnsupportedOptions(Config& c) {
  std::string note;
  if (c.optimizer.swap_optimizer && !trainmem::FrameworkHasSwapOptimizer(c.framework)) {
    c.optimizer.swap_optimizer = false;
    note += TrFormat(Str::kNoteSwapOff, Tr(FrameworkLabel(c.framework)));
  }
  if (c.optimizer.offload && !trainmem::FrameworkHasOptimizerOffload(c.framework)) {
    c.optimizer.offload = false;
    note += TrFormat(Str::kNoteOffloadOff, Tr(FrameworkLabel(c.framework)));
  }
  return note;
}

}  // namespace

void SelectFramework(AppState& state, trainmem::Framework framework) {
  state.framework_note.clear();
  EditDraft(state, [&](Config& c) {
    c.framework = framework;
    state.framework_note = DropUnsupportedOptions(c);
  });
}

void SelectDevicePreset(AppState& state, const std::string& id) {
  auto resolved = trainmem::ApplySetting(NeutralBase(state), "device", id, state.presets);
  if (!resolved.ok()) return ReportPickErrors(state, resolved.errors());
  state.custom_device.open = false;
  const trainmem::Device device = resolved.value().device;
  const bool was_ascend = IsAscend(state.presets, state.draft.device);
  const bool now_ascend = IsAscend(state.presets, device);
  EditDraft(state, [&](Config& c) {
    c.device = device;
    // torchtitan-npu is torchtitan for Ascend NPUs: moving between device families moves the
    // framework with it, and options the other framework lacks are turned off, with a note.
    trainmem::Framework to = c.framework;
    if (!now_ascend && c.framework == trainmem::Framework::kTorchtitanNpu)
      to = trainmem::Framework::kTorchtitan;
    if (now_ascend && !was_ascend && c.framework == trainmem::Framework::kTorchtitan)
      to = trainmem::Framework::kTorchtitanNpu;
    if (to == c.framework) return;
    const trainmem::Framework from = c.framework;
    c.framework = to;
    state.framework_note = TrFormat(Str::kNoteFrameworkSwitched, Tr(FrameworkLabel(from)),
                                    Tr(FrameworkLabel(to)), device.name.c_str()) +
                           DropUnsupportedOptions(c);
  });
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

void EditField(AppState& state, const char* key, const std::function<void(Config&)>& mutate) {
  state.edited_key = key;
  state.edited_since_commit.push_back(key);
  EditDraft(state, mutate);
}

// ---- Recommendations and whole configs ------------------------------------------------------

// ApplySettings applies every change, then validates once: a step's keys may only be valid
// together (tp and dp_shard, world_size and a degree).
void ApplyRecommendation(AppState& state, const trainmem::Recommendation& rec) {
  auto next = trainmem::ApplySettings(state.config, rec.changes, state.presets);
  if (!next.ok()) return ReportPickErrors(state, next.errors());
  UseConfig(state, next.value());
}

void ShowLayoutsOn(AppState& state, std::int64_t devices) {
  Config next = state.config;
  next.world_size = devices;
  next.parallelism.dp_shard = -1;
  if (!trainmem::ValidateConfig(next).empty()) next.parallelism = trainmem::Parallelism{};
  UseConfig(state, next);
  state.view = ResultsView::kLayouts;
  state.view_requested = true;
  RequestFrames(state);
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
  const auto add = [&](const std::vector<Error>& errors) {
    for (const Error& e : errors) {
      const bool exact = e.path == prefix;
      const bool below = sub_paths && e.path.size() > prefix.size() &&
                         e.path.compare(0, prefix.size(), prefix) == 0 &&
                         (e.path[prefix.size()] == '.' || e.path[prefix.size()] == '[');
      if (exact || below) found.push_back(&e);
    }
  };
  add(state.draft_errors);
  // A link key that was not applied marks its field until the reader edits something.
  if (state.link_fallback) add(state.link_field_errors);
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
