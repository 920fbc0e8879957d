// torch.profiler memory timeline: profile.export_memory_timeline("x.json", device).
//
// torch/profiler/_memory_profiler.py, MemoryProfileTimeline.export_memory_timeline writes
// json.dump([times, sizes]): `times` in microseconds, and for each time a row of
// 1 + len(_CATEGORY_TO_INDEX) byte counts. _coalesce_timeline starts each row with a 0
// placeholder and adds a tensor's bytes at index _CATEGORY_TO_INDEX[category] + 1, where the
// categories are ordered as _CATEGORY_TO_COLORS lists them: PARAMETER, OPTIMIZER_STATE, INPUT,
// TEMPORARY, ACTIVATION, GRADIENT, AUTOGRAD_DETAIL, then None (tensors it could not
// categorise). Each row is the bytes alive after that time's events, so the row with the
// largest sum is the profile's peak.
//
// Mapping onto the estimate's five components (estimate.h):
//   PARAMETER → parameters, OPTIMIZER_STATE → optimizer_states, GRADIENT → gradients,
//   ACTIVATION and INPUT (the batch and what forward saves) → activations,
//   TEMPORARY, AUTOGRAD_DETAIL (backward's intermediates) and unknown → temporary.
#include <array>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "core/compare/measurement.h"
#include "core/input_limits.h"

namespace trainmem::compare {

namespace {

using nlohmann::json;

constexpr int kCategories = 8;
enum Category {
  kParameter,
  kOptimizerState,
  kInput,
  kTemporary,
  kActivation,
  kGradient,
  kAutogradDetail,
  kUnknown
};
constexpr const char* kCategoryNames[kCategories] = {
    "PARAMETER",  "OPTIMIZER_STATE", "INPUT",           "TEMPORARY",
    "ACTIVATION", "GRADIENT",        "AUTOGRAD_DETAIL", "unknown"};

// Reads one row into `bytes`; an error message naming the row when it cannot.
std::string ReadRow(const json& row, std::size_t index, std::array<double, kCategories>& bytes) {
  const std::string where = "sizes[" + std::to_string(index) + "]";
  if (!row.is_array()) return where + " is not a list of byte counts";
  // The current layout has the leading placeholder (9 entries); accept a row without it (8).
  std::size_t offset = 0;
  if (row.size() == kCategories + 1) {
    offset = 1;
  } else if (row.size() != kCategories) {
    return where + " has " + std::to_string(row.size()) + " entries, expected 9 (a placeholder " +
           "and 8 categories) as export_memory_timeline writes";
  }
  for (int c = 0; c < kCategories; ++c) {
    const json& v = row[offset + c];
    if (!v.is_number()) return where + "[" + std::to_string(offset + c) + "] is not a number";
    const double b = v.get<double>();
    if (!std::isfinite(b)) return where + " " + kCategoryNames[c] + " is not finite";
    if (b < 0) return where + " " + kCategoryNames[c] + " is negative";
    bytes[c] = b;
  }
  return "";
}

}  // namespace

Result<Measurement> ReadMemoryTimeline(std::string_view json_text) {
  if (auto refused = CheckJsonInput(json_text, kMaxMeasurementBytes, "memory timeline")) {
    return Result<Measurement>::Failure({*refused});
  }
  json doc = json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (doc.is_discarded()) {
    return Result<Measurement>::Failure("memory timeline", "not valid JSON (cut short?)");
  }
  if (!doc.is_array() || doc.size() != 2 || !doc[0].is_array() || !doc[1].is_array()) {
    return Result<Measurement>::Failure(
        "memory timeline",
        "expected [times, sizes] as torch.profiler's export_memory_timeline(\"….json\") writes");
  }
  const json& times = doc[0];
  const json& sizes = doc[1];
  if (times.size() != sizes.size()) {
    return Result<Measurement>::Failure(
        "memory timeline", "times has " + std::to_string(times.size()) + " entries but sizes has " +
                               std::to_string(sizes.size()));
  }
  if (sizes.empty())
    return Result<Measurement>::Failure("memory timeline", "the timeline is empty");

  Measurement m;
  m.formats.push_back("memory_timeline");
  std::array<double, kCategories> peak{};
  double peak_total = -1;
  std::size_t peak_index = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    std::array<double, kCategories> bytes{};
    const std::string problem = ReadRow(sizes[i], i, bytes);
    if (!problem.empty()) {
      ++m.skipped_count;
      if (m.skipped.size() < 20) m.skipped.push_back({"memory timeline", problem});
      continue;
    }
    double total = 0;
    for (double b : bytes) total += b;
    if (total > peak_total) {
      peak_total = total;
      peak = bytes;
      peak_index = i;
    }
  }
  m.lines_read = static_cast<std::int64_t>(sizes.size());
  m.lines_used = m.lines_read - m.skipped_count;
  if (peak_total < 0) {
    std::vector<Error> errors{{"memory timeline", "no readable row"}};
    errors.insert(errors.end(), m.skipped.begin(), m.skipped.end());
    return Result<Measurement>::Failure(errors);
  }
  auto b = [&](int c) { return static_cast<std::int64_t>(std::llround(peak[c])); };
  MeasuredComponents& parts = m.components;
  parts.present = true;
  parts.parameters = b(kParameter);
  parts.optimizer_states = b(kOptimizerState);
  parts.gradients = b(kGradient);
  parts.activations = b(kActivation) + b(kInput);
  parts.temporary = b(kTemporary) + b(kAutogradDetail) + b(kUnknown);
  parts.unknown = b(kUnknown);
  parts.total = parts.parameters + parts.optimizer_states + parts.gradients + parts.activations +
                parts.temporary;
  const std::string at =
      times[peak_index].is_number() ? " at t=" + times[peak_index].dump() + " us" : "";
  parts.source = "torch.profiler memory timeline, peak row " + std::to_string(peak_index) + at;

  Peak p;
  p.metric = Metric::kMaxAllocated;
  p.bytes = parts.total;
  p.source =
      "torch.profiler memory timeline (sum of categories at the peak: tensors the profiler saw)";
  m.peaks.push_back(p);
  m.notes.push_back(
      "The memory timeline counts tensors the profiler recorded during the profiled steps; its "
      "peak is compared with the estimate's peak allocated. INPUT is counted with activations; "
      "TEMPORARY, AUTOGRAD_DETAIL and uncategorised bytes with temporary.");
  return Result<Measurement>::Success(std::move(m));
}

}  // namespace trainmem::compare
