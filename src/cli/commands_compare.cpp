// trainmem compare CONFIG LOG... [--json] [--append FILE.jsonl [--id ID] [--source TEXT]]
//                                [--model ID] [--device ID] [--set key=value]...
//
// Reads each LOG (training log, nvidia-smi/npu-smi output, torch.profiler memory timeline
// JSON, allocator snapshot pickle), merges them as one run and prints the measured peaks beside
// the estimate of the same metric. --append adds the (config, measurement) pair to a
// calibration file in the format of tests/data/calibration.jsonl.
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/compare/compare.h"
#include "core/compare/measurement.h"
#include "core/estimate/estimate.h"

namespace trainmem::cli {

namespace {

std::string Stem(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  const std::size_t dot = name.find('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

}  // namespace

int RunCompare(const CompareRequest& a, const Presets& presets, Output io) {
  const Options& o = a.config;
  bool reported = false;
  Result<Config> config = LoadConfig(o, presets, io.err, reported);
  if (!config.ok()) {
    if (!reported) PrintErrors(config.errors(), o.config_path, io.err);
    return 2;
  }
  std::vector<compare::Measurement> parts;
  for (const std::string& path : a.logs) {
    std::string data;
    if (!ReadFile(path, data, io.err)) return 2;
    Result<compare::Measurement> m = compare::ReadMeasurement(data, path);
    if (!m.ok()) {
      PrintErrors(m.errors(), "", io.err);
      return 2;
    }
    parts.push_back(std::move(m).value());
  }
  const compare::Measurement merged = compare::MergeMeasurements(parts);
  const Estimate estimate = EstimateMemory(config.value());
  const compare::Comparison comparison = compare::CompareWithEstimate(estimate, merged);
  if (a.json) {
    io.out << compare::ComparisonToJson(comparison).dump(2) << "\n";
  } else {
    io.out << compare::ComparisonToText(comparison);
  }
  if (a.append.empty()) return 0;

  const std::string id = a.id.empty() ? "compare-" + Stem(a.logs.front()) : a.id;
  std::string source = a.source;
  if (source.empty()) {
    for (const std::string& path : a.logs) source += (source.empty() ? "" : ", ") + path;
  }
  Result<nlohmann::json> row = compare::CalibrationRow(estimate, comparison, id, source);
  if (!row.ok()) {
    PrintErrors(row.errors(), a.append, io.err);
    return 2;
  }
  // A file that does not end in a newline gets one first, so the new row stays its own line.
  bool needs_newline = false;
  {
    std::ifstream existing(a.append, std::ios::binary | std::ios::ate);
    if (existing && existing.tellg() > 0) {
      existing.seekg(-1, std::ios::end);
      needs_newline = existing.get() != '\n';
    }
  }
  std::ofstream out(a.append, std::ios::app | std::ios::binary);
  if (!out) {
    io.err << "trainmem: cannot write '" << a.append << "'\n";
    return 2;
  }
  out << (needs_newline ? "\n" : "") << row.value().dump() << "\n";
  io.err << "trainmem: appended '" << id << "' to " << a.append << "\n";
  return 0;
}

}  // namespace trainmem::cli
