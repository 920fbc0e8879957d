// Accuracy against measured peaks: reads calibration rows (JSON lines with `id`, `config`,
// `measured` {metric, peak_gib, stage}) and prints estimate vs measurement, then the median and
// p90 of |estimate − measured| / measured.
//
// Like with like (reference/README.md): `reserved` ↔ total (worst stage); `max_allocated` ↔
// peak_allocated of the stage measured (`last` = the last pipeline stage, `max` = the largest);
// `active` ↔ peak_allocated.
//
//   trainmem_accuracy [ROWS.jsonl ...]     (default: tests/data/calibration.jsonl)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config.h"
#include "core/estimate.h"
#include "data/builtin_presets.h"

namespace {

using nlohmann::json;

double Compared(const trainmem::Estimate& e, const std::string& metric, const std::string& stage) {
  if (metric == "reserved") return static_cast<double>(e.per_device.total);
  if (stage == "last" && !e.stages.empty())
    return static_cast<double>(e.stages.back().bytes.peak_allocated);
  std::int64_t best = 0;
  for (const auto& s : e.stages) best = std::max(best, s.bytes.peak_allocated);
  return static_cast<double>(best);
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double idx = p * static_cast<double>(v.size() - 1);
  std::size_t lo = static_cast<std::size_t>(std::floor(idx));
  std::size_t hi = static_cast<std::size_t>(std::ceil(idx));
  return v[lo] + (v[hi] - v[lo]) * (idx - static_cast<double>(lo));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) files.emplace_back(argv[i]);
  if (files.empty()) files.emplace_back(TRAINMEM_CALIBRATION_FILE);
  const trainmem::Presets presets = trainmem::BuiltinPresets();
  std::vector<double> errors;
  int failed = 0;
  std::printf("%-58s %-13s %10s %10s %8s\n", "run", "metric", "measured", "estimate", "error");
  for (const std::string& path : files) {
    std::ifstream in(path);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", path.c_str());
      return 2;
    }
    std::string line;
    while (std::getline(in, line)) {
      json row = json::parse(line, nullptr, false);
      if (row.is_discarded() || !row.is_object()) continue;
      const std::string id = row.value("id", "?");
      auto config = trainmem::ConfigFromJson(row["config"], presets);
      if (!config.ok()) {
        std::printf("%-58s config error: %s\n", id.c_str(),
                    trainmem::FormatError(config.errors().front()).c_str());
        ++failed;
        continue;
      }
      const json& m = row["measured"];
      const std::string metric = m.value("metric", "reserved");
      const double measured = m.value("peak_gib", 0.0) * 1073741824.0;
      const trainmem::Estimate e = trainmem::EstimateMemory(config.value());
      const double estimate = Compared(e, metric, m.value("stage", "max"));
      const double err = (estimate - measured) / measured;
      errors.push_back(std::fabs(err));
      std::printf("%-58s %-13s %7.2f GiB %7.2f GiB %+7.1f%%\n", id.c_str(), metric.c_str(),
                  measured / 1073741824.0, estimate / 1073741824.0, 100 * err);
    }
  }
  std::printf("\nrows %zu, config errors %d, median |error| %.1f%%, p90 |error| %.1f%%\n",
              errors.size(), failed, 100 * Percentile(errors, 0.5), 100 * Percentile(errors, 0.9));
  return failed == 0 ? 0 : 1;
}
