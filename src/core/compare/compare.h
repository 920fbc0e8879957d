// Measured beside estimated, like with like (reference/README.md): reserved ↔ total,
// max allocated / active ↔ peak_allocated, allocated between steps ↔ parameters + gradients +
// optimizer states, device used ↔ total (the device figure also holds the runtime context),
// each against the pipeline stage the measuring rank holds when the input names the rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/compare/measurement.h"
#include "core/estimate/estimate.h"

namespace trainmem::compare {

struct RankRow {
  int rank = -1;
  int stage = 0;
  std::int64_t measured_bytes = 0;
  std::int64_t estimate_bytes = 0;
};

struct MetricRow {
  Metric metric = Metric::kReserved;
  std::int64_t measured_bytes = 0;  // the largest over ranks
  std::int64_t estimate_bytes = 0;
  double error = 0;  // (estimate − measured) / measured, as bench/accuracy.cpp reports it
  double ratio = 0;  // measured / estimate (0 when the estimate is 0)
  std::string source;
  int rank = -1;
  int stage = 0;
  std::string estimate_basis;  // "total (max reserved) of stage 0"
  std::string stage_basis;     // how the stage was chosen
  std::int64_t rounding = 0;
  bool at_init = false;
  std::vector<RankRow> per_rank;  // every rank, when the input names more than one
};

struct ComponentRow {
  std::string name;  // "parameters", "gradients", "optimizer_states", "activations", "temporary"
  std::int64_t measured_bytes = 0;
  std::int64_t estimate_bytes = 0;
  double ratio = 0;  // measured / estimate
};

struct Comparison {
  std::vector<MetricRow> metrics;
  std::vector<ComponentRow> components;  // when a profile gave a breakdown
  std::string components_source;
  std::string sentence;  // the largest gap, in plain words
  std::vector<std::string> notes;
  SnapshotFacts snapshot;
  std::vector<std::string> formats;
  std::vector<Error> skipped;
  std::int64_t skipped_count = 0;
};

Comparison CompareWithEstimate(const Estimate& estimate, const Measurement& measured);

// {"schema": "trainmem.compare/v1", "measured": [...], "components": [...], "sentence", …}.
nlohmann::json ComparisonToJson(const Comparison& comparison);
std::string ComparisonToText(const Comparison& comparison);

// One row for a calibration file (tests/data/calibration.jsonl): `id`, `source`, `config`
// (the resolved config), `measured` {metric, peak_gib, stage, peak_bytes, rank, source} and
// `notes`. The metric is the first of reserved, max_allocated, active that was measured;
// `stage` is "max" unless one stage was measured ("last" when it is the last).
// Fails when the measurement has none of those metrics.
Result<nlohmann::json> CalibrationRow(const Estimate& estimate, const Comparison& comparison,
                                      const std::string& id, const std::string& source);

// "1.4×" style ratio text and "84.31 GiB" figures for sentences.
std::string FormatRatio(double ratio);

}  // namespace trainmem::compare
