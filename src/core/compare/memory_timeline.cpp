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
// The ".json.gz" export is the same JSON gzipped (refused with a hint to gunzip it), the
// ".raw.json.gz" export lists events instead (ReadRawTimeline), and the ".html" export holds
// only a picture (refused: measurement.cpp).
//
// Mapping onto the estimate's five components (estimate.h):
//   PARAMETER → parameters, OPTIMIZER_STATE → optimizer_states, GRADIENT → gradients,
//   ACTIVATION and INPUT (the batch and what forward saves) → activations,
//   TEMPORARY, AUTOGRAD_DETAIL (backward's intermediates) and unknown → temporary.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
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

// Fills the components and the peak from the category bytes of the peak row. Sizes past
// kMaxBytes (4 EiB, as text_scan's ToBytes) are a misread, not a device: refused, and the sum
// of the categories then stays inside int64 (5 × 4.6e18 would not).
constexpr double kMaxBytes = 4.6e18;
std::optional<Error> SetPeak(Measurement& m, const std::array<double, kCategories>& peak,
                             const std::string& where) {
  double total = 0;
  for (double v : peak) {
    if (!std::isfinite(v) || v < 0) total = kMaxBytes * 2;
    total += v;
  }
  if (!(total <= kMaxBytes)) {
    return Error{"memory timeline",
                 "the sizes at the peak (" + where + ") add up past 4 EiB: not a device's memory"};
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
  parts.source = "torch.profiler memory timeline, " + where;

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
  return std::nullopt;
}

// export_memory_timeline("….raw.json.gz") (after gunzip): export_memory_timeline_raw writes
// json.dump(raw_events), one [time_ns, action, numbytes, category] per event, where numbytes is
// negative for a destroyed tensor (and for the old version at an in-place update) and category
// is _CATEGORY_TO_INDEX (0 PARAMETER … 6 AUTOGRAD_DETAIL, 7 uncategorised). Pre-existing
// tensors carry time -1. Replaying the events gives the same rows as the coalesced export:
// the bytes alive after each time's events.
Result<Measurement> ReadRawTimeline(const json& events) {
  Measurement m;
  m.formats.push_back("memory_timeline");
  std::array<double, kCategories> alive{}, peak{};
  double peak_total = -1;
  json peak_time;
  bool negative = false;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const json& e = events[i];
    const std::string where = "event[" + std::to_string(i) + "]";
    if (!e.is_array() || e.size() != 4 || !e[0].is_number() || !e[1].is_number_integer() ||
        !e[2].is_number() || !e[3].is_number_integer()) {
      return Result<Measurement>::Failure("memory timeline",
                                          where +
                                              " is not [time, action, bytes, category] as "
                                              "export_memory_timeline_raw writes");
    }
    const std::int64_t category = e[3].get<std::int64_t>();
    const double bytes = e[2].get<double>();
    if (category < 0 || category >= kCategories) {
      return Result<Measurement>::Failure("memory timeline",
                                          where + " has category " + std::to_string(category) +
                                              ", outside 0–7 (PARAMETER … uncategorised)");
    }
    if (!std::isfinite(bytes)) {
      return Result<Measurement>::Failure("memory timeline", where + " bytes are not finite");
    }
    alive[category] += bytes;
    if (alive[category] < 0) negative = true;
    const bool last_of_time = i + 1 == events.size() || !events[i + 1].is_array() ||
                              events[i + 1].empty() || events[i + 1][0] != e[0];
    if (!last_of_time) continue;
    double total = 0;
    for (double b : alive) total += std::max(0.0, b);
    if (total > peak_total) {
      peak_total = total;
      for (int c = 0; c < kCategories; ++c) peak[c] = std::max(0.0, alive[c]);
      peak_time = e[0];
    }
  }
  m.lines_read = m.lines_used = static_cast<std::int64_t>(events.size());
  if (peak_total < 0) {
    return Result<Measurement>::Failure("memory timeline", "the raw timeline has no events");
  }
  if (negative) {
    m.notes.push_back(
        "The raw timeline frees bytes it never recorded in some category (counted as zero).");
  }
  if (auto refused = SetPeak(m, peak, "raw events, peak at t=" + peak_time.dump() + " ns")) {
    return Result<Measurement>::Failure({*refused});
  }
  return Result<Measurement>::Success(std::move(m));
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
  // The raw export: a list of 4-number events (two events would also be a pair of lists, but
  // of numbers, where the coalesced export's second list holds rows).
  if (doc.is_array() && !doc.empty() && doc[0].is_array() && doc[0].size() == 4 &&
      (doc.size() != 2 || (doc[1].is_array() && !doc[1].empty() && !doc[1][0].is_array()))) {
    return ReadRawTimeline(doc);
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
  const std::string at =
      times[peak_index].is_number() ? " at t=" + times[peak_index].dump() + " us" : "";
  if (auto refused = SetPeak(m, peak, "peak row " + std::to_string(peak_index) + at)) {
    return Result<Measurement>::Failure({*refused});
  }
  return Result<Measurement>::Success(std::move(m));
}

}  // namespace trainmem::compare
