// The import panel's actions (app_import.h). The reading itself is the core's ImportFiles; this
// file only routes files and applies the result through UseConfig like any other whole config.
#include "app/app_import.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/app_actions.h"
#include "app/measured_hook.h"
#include "core/import/import.h"

namespace app {
namespace {

using nlohmann::json;

void SetDotted(json& config, const std::string& key, json value) {
  json* node = &config;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    const std::string part = key.substr(start, dot - start);
    if (dot == std::string::npos) {
      (*node)[part] = std::move(value);
      return;
    }
    json& next = (*node)[part];
    if (!next.is_object()) next = json::object();
    node = &next;
    start = dot + 1;
  }
}

// Files that describe only a model (Hugging Face config.json files): nothing of the job.
bool ModelOnly(const trainmem::ImportReport& report) {
  if (report.kinds.empty()) return false;
  for (trainmem::InputKind kind : report.kinds)
    if (kind != trainmem::InputKind::kHfConfig) return false;
  return true;
}

// A config.json replaces the model of the page's job, as "Edit architecture" does; the device,
// world size, framework and training settings it cannot state stay as they are. The report
// then has nothing missing and reads the model alone.
void ApplyModelOnly(AppState& state) {
  ImportPanelState& panel = state.import_panel;
  const json& model = panel.result.config["model"];
  std::vector<trainmem::Error> errors;
  if (model.is_string()) {
    SelectModelPreset(state, model.get<std::string>());
  } else {
    UseCustomModel(state, model.dump(), &errors);
  }
  panel.result.config_valid = errors.empty();
  panel.result.config_errors = errors;
  trainmem::ImportReport& report = panel.result.report;
  report.missing.clear();
  report.read.erase(std::remove_if(report.read.begin(), report.read.end(),
                                   [](const trainmem::ImportRead& r) { return r.key != "model"; }),
                    report.read.end());
  report.notes.push_back(Tr(Str::kImportModelOnly));
}

// Makes the imported config current when it is valid.
void ApplyResult(AppState& state) {
  ImportPanelState& panel = state.import_panel;
  if (ModelOnly(panel.result.report) && panel.result.config.contains("model"))
    return ApplyModelOnly(state);
  trainmem::Result<trainmem::Config> config =
      trainmem::ConfigFromJson(panel.result.config, state.presets);
  panel.result.config_valid = config.ok();
  panel.result.config_errors = config.ok() ? std::vector<trainmem::Error>{} : config.errors();
  if (config.ok()) UseConfig(state, config.value());
}

}  // namespace

void ReceiveFiles(AppState& state, std::vector<platform::File> files) {
  ImportPanelState& panel = state.import_panel;
  for (platform::File& f : files) panel.pending.push_back(std::move(f));
  panel.pending_shown = false;
  RequestFrames(state, 3);
}

void ProcessPendingFiles(AppState& state) {
  ImportPanelState& panel = state.import_panel;
  if (panel.pending.empty()) return;
  if (!panel.pending_shown) {  // draw "Reading…" once before the work
    panel.pending_shown = true;
    RequestFrames(state, 2);
    return;
  }
  std::vector<platform::File> pending;
  pending.swap(panel.pending);
  std::vector<platform::File> measurements;
  bool jobs_changed = false;
  for (platform::File& f : pending) {
    const trainmem::InputKind kind = trainmem::DetectInputKind(f.name, f.text);
    if (trainmem::IsMeasurementKind(kind)) {
      measurements.push_back(std::move(f));
      continue;
    }
    bool replaced = false;
    for (trainmem::InputFile& existing : panel.files)
      if (existing.name == f.name) {
        existing.text = std::move(f.text);
        replaced = true;
      }
    if (!replaced) panel.files.push_back({f.name, std::move(f.text)});
    jobs_changed = true;
  }
  if (!measurements.empty()) {
    panel.measurement_note =
        TrFormat(Str::kImportMeasurementsTemplate, static_cast<int>(measurements.size()));
    OnMeasurementFiles(state, measurements);
  }
  if (jobs_changed) RunImport(state);
  RequestFrames(state, 3);
}

void RunImport(AppState& state) {
  ImportPanelState& panel = state.import_panel;
  panel.errors.clear();
  panel.typed.clear();
  panel.kept.clear();
  panel.has_result = false;
  if (panel.files.empty()) return;
  trainmem::ImportOptions options;
  options.function = panel.function;
  trainmem::Result<trainmem::ImportResult> result =
      trainmem::ImportFiles(panel.files, options, state.presets);
  panel.open = true;
  if (!result.ok()) {
    panel.errors = result.errors();
    return;
  }
  panel.result = std::move(result).value();
  panel.function = panel.result.report.function;
  panel.has_result = true;
  // The files go over the job on the page: what they do not state stays as it is.
  panel.kept.clear();
  if (!ModelOnly(panel.result.report))
    panel.kept =
        trainmem::KeepPageValues(panel.result, trainmem::ConfigToJson(state.config), state.presets);
  ApplyResult(state);
}

void ApplyMissingValues(AppState& state) {
  ImportPanelState& panel = state.import_panel;
  if (!panel.has_result) return;
  for (const auto& [key, text] : panel.typed) {
    if (text.empty()) continue;
    json value = json::parse(text, nullptr, false);
    if (value.is_discarded()) value = text;  // a preset id, a dtype name, …
    SetDotted(panel.result.config, key, value);
    auto& missing = panel.result.report.missing;
    for (auto it = missing.begin(); it != missing.end(); ++it)
      if (it->key == key) {
        panel.result.report.read.push_back({key, value, "typed on the page", "", 0});
        missing.erase(it);
        break;
      }
  }
  panel.typed.clear();
  ApplyResult(state);
}

void ClearImport(AppState& state) {
  ImportPanelState& panel = state.import_panel;
  panel = ImportPanelState{};
  RequestFrames(state, 2);
}

std::string ImportWantedLine(const ImportPanelState& panel) {
  const std::vector<std::string>& wanted = panel.result.report.wanted_files;
  if (wanted.empty()) return "";
  std::string names;
  for (const std::string& f : wanted) names += (names.empty() ? "" : ", ") + f;
  return TrFormat(Str::kImportWantedTemplate, names.c_str());
}

std::vector<std::string> ImportConfigErrorLines(const ImportPanelState& panel) {
  std::vector<std::string> lines;
  // The key and the message apart: a template matches the message, not "key: message".
  for (const trainmem::Error& e : panel.result.config_errors) {
    const std::string message = TrCore(e.message);
    lines.push_back(e.path.empty()
                        ? message
                        : TrFormat(Str::kLinkKeyProblemTemplate, e.path.c_str(), message.c_str()));
  }
  return lines;
}

std::vector<std::string> ImportProblemsShown(const ImportPanelState& panel) {
  std::vector<std::string> shown;
  // The config's errors are the problems under kConfigProblemPrefix (import.cpp Validate, and
  // KeepPageValues relists them for the config kept): shown in red above, not again here.
  for (const std::string& p : panel.result.report.problems)
    if (p.rfind(trainmem::kConfigProblemPrefix, 0) != 0) shown.push_back(TrCore(p));
  return shown;
}

}  // namespace app
