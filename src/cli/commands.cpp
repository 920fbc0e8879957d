#include "cli/commands.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/advice/advice.h"
#include "core/config/config.h"
#include "core/estimate/estimate.h"
#include "core/input_limits.h"
#include "core/link/share_link.h"
#include "core/model/model.h"
#include "core/report/report.h"

namespace trainmem::cli {

using nlohmann::json;

bool ReadFile(const std::string& path, std::string& text, std::ostream& err) {
  if (path == "-") {
    static bool stdin_taken = false;  // a second "-" would silently read nothing
    if (stdin_taken) {
      err << "trainmem: '-' (standard input) can be given only once\n";
      return false;
    }
    stdin_taken = true;
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << "trainmem: cannot read '" << path << "'\n";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

void PrintErrors(const std::vector<Error>& errors, const std::string& where, std::ostream& err) {
  for (const Error& e : errors)
    err << "trainmem: " << (where.empty() ? "" : where + ": ") << FormatError(e) << "\n";
}

// Builds the config from a file (or the defaults), then --model/--device/--set in order.
Result<Config> LoadConfig(const Options& o, const Presets& presets, std::ostream& err,
                          bool& reported) {
  reported = false;
  std::string text = R"({"model": "llama3-8b"})";
  if (!o.config_path.empty() && !ReadFile(o.config_path, text, err)) {
    reported = true;
    return Result<Config>::Failure("", "cannot read config");
  }
  if (!o.config_path.empty() &&
      !ImportIfForeign(o.config_path, o.extra_paths, text, presets, err)) {
    reported = true;
    return Result<Config>::Failure("", "cannot import");
  }
  // Over the size or depth limit: left to ParseConfig, which refuses it with the limit.
  json j = CheckJsonInput(text, kMaxJsonTextBytes, "") ? json(json::value_t::discarded)
                                                       : json::parse(text, nullptr, false);
  if (!j.is_discarded() && j.is_object() && !j.contains("model") && !o.model.empty())
    j["model"] = o.model;
  Result<Config> config =
      j.is_discarded() ? ParseConfig(text, presets) : ConfigFromJson(j, presets);
  if (!config.ok()) return config;
  std::vector<std::pair<std::string, std::string>> settings;
  if (!o.model.empty()) settings.emplace_back("model", o.model);
  if (!o.device.empty()) settings.emplace_back("device", o.device);
  settings.insert(settings.end(), o.settings.begin(), o.settings.end());
  return ApplySettings(config.value(), settings, presets);
}

int RunEstimate(const Options& o, const Presets& presets, Output io) {
  bool reported = false;
  Result<Config> config = LoadConfig(o, presets, io.err, reported);
  if (!config.ok()) {
    if (!reported) PrintErrors(config.errors(), o.config_path, io.err);
    return 2;
  }
  Estimate e = EstimateWithAdvice(config.value());
  if (o.format == "json")
    io.out << EstimateToJson(e).dump(2) << "\n";
  else if (o.format == "markdown")
    io.out << EstimateToMarkdown(e);
  else if (o.format == "csv")
    io.out << EstimateToCsv(e);
  else
    io.out << EstimateToText(e);
  return 0;
}

int RunLink(const Options& o, const Presets& presets, Output io) {
  bool reported = false;
  Result<Config> config = LoadConfig(o, presets, io.err, reported);
  if (!config.ok()) {
    if (!reported) PrintErrors(config.errors(), o.config_path, io.err);
    return 2;
  }
  io.out << ShareUrl(config.value(), o.base) << "\n";
  return 0;
}

int RunPresets(const Options& o, const Presets& presets, Output io) {
  if (o.format == "json") {
    json j = {{"models", json::array()}, {"devices", json::array()}};
    for (const auto& [id, m] : presets.models) {
      ParamCounts p = CountParams(m.arch, false);
      j["models"].push_back(
          {{"id", id}, {"name", m.name}, {"family", m.family}, {"total_params", p.total}});
    }
    for (const auto& [id, d] : presets.devices)
      j["devices"].push_back({{"id", id}, {"name", d.name}, {"memory_gib", d.memory_gib}});
    io.out << j.dump(2) << "\n";
    return 0;
  }
  io.out << "models:\n";
  for (const auto& [id, m] : presets.models) {
    io.out << fmt::format("  {:<18} {:<28} {:<12} {:>10} params\n", id, m.name, m.family,
                          FormatCount(CountParams(m.arch, false).total));
  }
  io.out << "devices:\n";
  for (const auto& [id, d] : presets.devices) {
    io.out << fmt::format("  {:<18} {:<34} {:8.1f} GiB visible to the framework\n", id, d.name,
                          d.memory_gib);
  }
  return 0;
}

}  // namespace trainmem::cli
