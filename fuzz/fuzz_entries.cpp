// Fuzz entry points (fuzz_entries.h). Each checks, besides "no crash, no sanitizer report", the
// promises the headers make for every input a parser accepts:
//   - a parsed config is valid, and its JSON and share link read back to the same config
//     (config.h ConfigToJson, share_link.h DecodeShareFragment);
//   - a decoded link is always a valid config, whatever the link held (share_link.h);
//   - a parsed model writes back (ModelArchToJson) to an architecture with the same counts;
//   - estimates never have negative components (estimate.h: bytes are counts of memory);
//   - every JSON a user can export dumps without throwing (the CLI dumps it strictly).
// Work per input is bounded so a run stays fast: the layout search runs on world sizes ≤ 64
// with a limit, the heatmap on 3 × 3 cells.

#include "fuzz_entries.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/advice/advice.h"
#include "core/compare/compare.h"
#include "core/compare/measurement.h"
#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/input_limits.h"
#include "core/link/share_link.h"
#include "core/model/model.h"
#include "core/model/presets.h"
#include "core/report/report.h"
#include "core/search/search.h"
#include "data/builtin_presets.h"

namespace trainmem::fuzz {
namespace {

using nlohmann::json;

const Presets& BuiltIn() {
  static const Presets presets = BuiltinPresets();
  return presets;
}

std::string_view Text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A broken promise: print it and abort (libFuzzer saves the input as a crash).
void Require(bool holds, const char* promise, const std::string& detail = {}) {
  if (holds) return;
  std::fprintf(stderr, "fuzz: broken promise: %s\n%s\n", promise, detail.c_str());
  std::abort();
}

std::string Errors(const std::vector<Error>& errors) {
  std::string all;
  for (const Error& e : errors) all += FormatError(e) + "\n";
  return all;
}

void CheckBreakdown(const MemoryBreakdown& b) {
  Require(b.parameters >= 0 && b.gradients >= 0 && b.optimizer_states >= 0 && b.activations >= 0 &&
              b.temporary >= 0 && b.total >= 0 && b.peak_allocated >= 0,
          "estimate components are non-negative");
}

// The estimate and its reports; with `deep`, also advice, the layout search and a heatmap.
void Exercise(const Config& config, bool deep) {
  const Estimate e = EstimateMemory(config);
  CheckBreakdown(e.per_device);
  for (const StageEstimate& s : e.stages) CheckBreakdown(s.bytes);
  (void)EstimateToText(e);
  (void)EstimateToCsv(e);
  (void)EstimateToJson(e).dump();
  if (!deep) return;
  for (const Recommendation& r : AdviceLadder(config)) Require(r.total_bytes >= 0, "advice bytes");
  (void)CheapestFit(config);
  if (config.world_size <= 64) {
    SearchOptions options;
    options.limit = 3;
    const SearchResult found = SearchLayouts(config, options);
    for (const LayoutResult& l : found.layouts) CheckBreakdown(l.per_device);
    (void)SearchToJson(found).dump();
  }
  const Heatmap map = ComputeHeatmap(config, {"tp", {1, 2, 4}}, {"b", {1, 2, 4}});
  (void)HeatmapToJson(map).dump();
}

void CheckRoundTrips(const Config& c) {
  const std::vector<Error> problems = ValidateConfig(c);
  Require(problems.empty(), "an accepted config validates", Errors(problems));
  const json written = ConfigToJson(c);
  const Result<Config> again = ConfigFromJson(written, BuiltIn());
  Require(again.ok(), "ConfigToJson reads back", Errors(again.errors()) + written.dump());
  Require(ConfigToJson(again.value()) == written, "ConfigToJson is stable", written.dump());
  const std::string fragment = EncodeShareFragment(c);
  const DecodedLink link = DecodeShareFragment(fragment, BuiltIn());
  Require(link.errors.empty(), "a config's own link opens without errors",
          Errors(link.errors) + fragment);
  Require(ConfigToJson(link.config) == written, "a config's own link opens to the same config",
          fragment + "\n" + written.dump() + "\n" + ConfigToJson(link.config).dump());
}

void FuzzConfig(const std::uint8_t* data, std::size_t size) {
  const Result<Config> r = ParseConfig(Text(data, size), BuiltIn());
  if (!r.ok()) return;
  CheckRoundTrips(r.value());
  Exercise(r.value(), false);
}

void FuzzEstimate(const std::uint8_t* data, std::size_t size) {
  const Result<Config> r = ParseConfig(Text(data, size), BuiltIn());
  if (r.ok()) Exercise(r.value(), true);
}

void FuzzLink(const std::uint8_t* data, std::size_t size) {
  const DecodedLink link = DecodeShareFragment(Text(data, size), BuiltIn());
  const std::vector<Error> problems = ValidateConfig(link.config);
  Require(problems.empty(), "a decoded link is a valid config", Errors(problems));
  const std::string fragment = EncodeShareFragment(link.config);
  const DecodedLink again = DecodeShareFragment(fragment, BuiltIn());
  Require(again.errors.empty(), "a decoded link re-encodes to a clean link",
          Errors(again.errors) + fragment);
  Exercise(link.config, false);
}

void CheckModel(const ModelArch& arch) {
  const ParamCounts counts = CountParams(arch, true);
  Require(counts.total >= 0 && counts.active >= 0, "parameter counts are non-negative");
  const json written = ModelArchToJson(arch);
  const Result<ModelArch> again = ParseModelArch(written, "model");
  Require(again.ok(), "ModelArchToJson reads back", Errors(again.errors()) + written.dump());
  Require(CountParams(again.value(), true).total == counts.total,
          "ModelArchToJson keeps the parameter count", written.dump());
}

void FuzzHfConfig(const std::uint8_t* data, std::size_t size) {
  json j;
  if (ParseJsonLimited(Text(data, size), kMaxJsonTextBytes, "config.json", j)) return;
  const Result<ModelArch> arch = ParseModelArch(j, "model");
  if (!arch.ok()) return;
  CheckModel(arch.value());
  // The page's "use this config.json" path: the model set on the default config.
  const Result<Config> base = ParseConfig("{}", BuiltIn());
  if (!base.ok()) return;
  const Result<Config> with = ApplySetting(base.value(), "model", j.dump(), BuiltIn());
  if (with.ok()) Exercise(with.value(), false);
}

void FuzzPreset(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = Text(data, size);
  const Result<ModelPreset> model = ParseModelPreset(text);
  if (model.ok()) CheckModel(model.value().arch);
  (void)ParseDevicePreset(text);
  Presets presets = BuiltIn();
  (void)AddPresetFiles(presets, {{"presets/models/fuzz.json", std::string(text)},
                                 {"presets/devices/fuzz.json", std::string(text)}});
}

// Lines "key=value" (as `--set key=value` or a link's `&key=value`), applied together.
void FuzzSetting(const std::uint8_t* data, std::size_t size) {
  std::vector<std::pair<std::string, std::string>> settings;
  std::string_view text = Text(data, size);
  while (!text.empty() && settings.size() < 16) {
    const std::string_view line = text.substr(0, text.find('\n'));
    text.remove_prefix(std::min(text.size(), line.size() + 1));
    const std::size_t eq = line.find('=');
    settings.emplace_back(std::string(line.substr(0, eq)),
                          eq == std::string_view::npos ? "" : std::string(line.substr(eq + 1)));
  }
  const Result<Config> base = ParseConfig("{}", BuiltIn());
  if (!base.ok()) return;
  const Result<Config> r = ApplySettings(base.value(), settings, BuiltIn());
  if (!r.ok()) return;
  CheckRoundTrips(r.value());
  Exercise(r.value(), false);
}

// What the compare readers accepted, put beside a fixed estimate and exported.
void CompareAndExport(const compare::Measurement& m) {
  static const Estimate estimate = [] {
    const Result<Config> c = ParseConfig(R"({"model": "llama3-8b", "world_size": 8})", BuiltIn());
    Require(c.ok(), "the compare baseline config parses");
    return EstimateMemory(c.value());
  }();
  const compare::Comparison comparison = compare::CompareWithEstimate(estimate, m);
  (void)compare::ComparisonToText(comparison);
  (void)compare::ComparisonToJson(comparison).dump();
  const Result<json> row = compare::CalibrationRow(estimate, comparison, "fuzz", "fuzz");
  if (row.ok()) (void)row.value().dump();
  (void)compare::MergeMeasurements({m, m});
}

void FuzzLog(const std::uint8_t* data, std::size_t size) {
  const Result<compare::Measurement> m = compare::ReadLogText(Text(data, size));
  if (m.ok()) CompareAndExport(m.value());
}

void FuzzTimeline(const std::uint8_t* data, std::size_t size) {
  const Result<compare::Measurement> m = compare::ReadMemoryTimeline(Text(data, size));
  if (m.ok()) CompareAndExport(m.value());
}

void FuzzSnapshot(const std::uint8_t* data, std::size_t size) {
  const Result<compare::Measurement> m = compare::ReadAllocatorSnapshot(Text(data, size));
  if (m.ok()) CompareAndExport(m.value());
}

void FuzzMeasurement(const std::uint8_t* data, std::size_t size) {
  const Result<compare::Measurement> m = compare::ReadMeasurement(Text(data, size), "input");
  if (m.ok()) CompareAndExport(m.value());
}

}  // namespace

const std::vector<Target>& Targets() {
  static const std::vector<Target> targets = [] {
    std::vector<Target> all = {
        {"config", FuzzConfig},
        {"link", FuzzLink},
        {"hf_config", FuzzHfConfig},
        {"preset", FuzzPreset},
        {"estimate", FuzzEstimate},
        {"setting", FuzzSetting},
        {"log", FuzzLog},
        {"timeline", FuzzTimeline},
        {"snapshot", FuzzSnapshot},
        {"measurement", FuzzMeasurement},
    };
    AppendImportTargets(all);
    return all;
  }();
  return targets;
}

Entry FindEntry(std::string_view name) {
  for (const Target& t : Targets()) {
    if (name == t.name) return t.entry;
  }
  return nullptr;
}

}  // namespace trainmem::fuzz
