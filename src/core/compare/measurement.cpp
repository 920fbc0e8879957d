// Picks the reader for an input and merges several inputs of one run.
#include "core/compare/measurement.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/compare/text_scan.h"
#include "core/input_limits.h"

namespace trainmem::compare {

const char* MetricName(Metric metric) {
  switch (metric) {
    case Metric::kReserved:
      return "reserved";
    case Metric::kMaxAllocated:
      return "max_allocated";
    case Metric::kAllocated:
      return "allocated";
    case Metric::kActive:
      return "active";
    case Metric::kDeviceUsed:
      return "device_used";
  }
  return "reserved";
}

namespace {

// "[[" (possibly with spaces or line breaks between) opens export_memory_timeline's JSON; a
// log line starting with "[rank0]:" or "[titan]" does not.
bool LooksLikeTimeline(std::string_view data) {
  std::size_t i = data.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || data[i] != '[') return false;
  i = data.find_first_not_of(" \t\r\n", i + 1);
  return i != std::string_view::npos && data[i] == '[';
}

Result<Measurement> Named(Result<Measurement> r, std::string_view name) {
  if (r.ok() || name.empty()) return r;
  std::vector<Error> errors = r.errors();
  for (Error& e : errors)
    e.path = e.path.empty() ? std::string(name) : std::string(name) + ": " + e.path;
  return Result<Measurement>::Failure(errors);
}

}  // namespace

Result<Measurement> ReadMeasurement(std::string_view data, std::string_view name) {
  if (data.empty()) return Named(Result<Measurement>::Failure("", "the input is empty"), name);
  if (auto refused = CheckInputSize(data, kMaxMeasurementBytes, "the input")) {
    return Named(Result<Measurement>::Failure("", refused->path + " " + refused->message), name);
  }
  const unsigned char first = static_cast<unsigned char>(data[0]);
  if (first == 0x1f && data.size() > 1 && static_cast<unsigned char>(data[1]) == 0x8b) {
    return Named(Result<Measurement>::Failure(
                     "",
                     "gzip-compressed: decompress it first (gunzip), then paste or drop "
                     "the .json or .pickle inside"),
                 name);
  }
  if (first == 0x80) return Named(ReadAllocatorSnapshot(data), name);
  // export_memory_timeline("….html") embeds a PNG of the plot: no figures to read.
  const std::string_view head = scan::Trim(data.substr(0, 64));
  if (scan::StartsWith(head, "<html") || scan::StartsWith(head, "<!DOCTYPE")) {
    return Named(Result<Measurement>::Failure(
                     "",
                     "an HTML page (export_memory_timeline(\"….html\") holds only a picture "
                     "of the plot): export the timeline to a .json file instead"),
                 name);
  }
  if (LooksLikeTimeline(data)) return Named(ReadMemoryTimeline(data), name);
  return Named(ReadLogText(data), name);
}

Measurement MergeMeasurements(const std::vector<Measurement>& parts) {
  Measurement out;
  std::map<std::tuple<int, int, bool>, Peak> peaks;
  auto add_unique = [](std::vector<std::string>& into, const std::vector<std::string>& from) {
    for (const std::string& s : from) {
      if (std::find(into.begin(), into.end(), s) == into.end()) into.push_back(s);
    }
  };
  for (const Measurement& m : parts) {
    add_unique(out.formats, m.formats);
    add_unique(out.notes, m.notes);
    out.skipped.insert(out.skipped.end(), m.skipped.begin(), m.skipped.end());
    out.skipped_count += m.skipped_count;
    out.lines_read += m.lines_read;
    out.lines_used += m.lines_used;
    if (m.components.present &&
        (!out.components.present || m.components.total > out.components.total)) {
      out.components = m.components;
    }
    if (m.snapshot.present &&
        (!out.snapshot.present || m.snapshot.reserved_bytes > out.snapshot.reserved_bytes)) {
      out.snapshot = m.snapshot;
    }
    for (const Peak& p : m.peaks) {
      auto key = std::make_tuple(static_cast<int>(p.metric), p.rank, p.at_init);
      auto it = peaks.find(key);
      if (it == peaks.end() || p.bytes > it->second.bytes) peaks[key] = p;
    }
  }
  for (const auto& [key, p] : peaks) out.peaks.push_back(p);
  return out;
}

const Peak* LargestPeak(const Measurement& m, Metric metric) {
  const Peak* best = nullptr;
  for (bool at_init : {false, true}) {
    for (const Peak& p : m.peaks) {
      if (p.metric != metric || p.at_init != at_init) continue;
      if (best == nullptr || p.bytes > best->bytes) best = &p;
    }
    if (best != nullptr) return best;
  }
  return nullptr;
}

bool ParseByteSize(std::string_view text, std::int64_t& bytes) {
  text = scan::Trim(text);
  double value = 0;
  std::size_t used = 0;
  if (scan::ReadNumber(text, value, used) != scan::NumberProblem::kNone) return false;
  const std::string_view unit = scan::Trim(text.substr(used));
  static const std::pair<std::string_view, double> kUnits[] = {{"", 1},
                                                               {"B", 1},
                                                               {"KiB", 1024.0},
                                                               {"MiB", 1048576.0},
                                                               {"GiB", 1073741824.0},
                                                               {"TiB", 1099511627776.0},
                                                               {"KB", 1e3},
                                                               {"MB", 1e6},
                                                               {"GB", 1e9},
                                                               {"TB", 1e12}};
  for (const auto& [name, scale] : kUnits) {
    if (unit != name) continue;
    const double b = std::round(value * scale);
    if (!std::isfinite(b) || b < 0 || b > 4.6e18) return false;
    bytes = static_cast<std::int64_t>(b);
    return true;
  }
  return false;
}

}  // namespace trainmem::compare
