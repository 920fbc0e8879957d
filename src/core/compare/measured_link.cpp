#include "core/compare/measured_link.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace trainmem::compare {

namespace {

constexpr Metric kMetrics[] = {Metric::kReserved, Metric::kMaxAllocated, Metric::kActive,
                               Metric::kAllocated, Metric::kDeviceUsed};

struct ComponentKey {
  const char* key;
  std::int64_t MeasuredComponents::*field;
};
constexpr ComponentKey kComponents[] = {
    {"params", &MeasuredComponents::parameters},      {"grads", &MeasuredComponents::gradients},
    {"optim", &MeasuredComponents::optimizer_states}, {"act", &MeasuredComponents::activations},
    {"temp", &MeasuredComponents::temporary},
};

// snprintf, not {fmt}: +20.9 kB brotli in the page (measured; see FormatGiB in report.cpp).
std::string GiBText(std::int64_t bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(bytes) / 1073741824.0);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s + "GiB";
}

}  // namespace

std::string EncodeMeasuredLinkValue(const Measurement& m) {
  std::string out;
  auto add = [&out](const std::string& item) { out += (out.empty() ? "" : ",") + item; };
  for (Metric metric : kMetrics) {
    const Peak* p = LargestPeak(m, metric);
    if (p == nullptr) continue;
    std::string item = std::string(MetricName(metric)) + ":" + GiBText(p->bytes);
    if (p->rank >= 0) item += "@r" + std::to_string(p->rank);
    add(item);
  }
  if (m.components.present) {
    for (const ComponentKey& c : kComponents) {
      add(std::string(c.key) + ":" + GiBText(m.components.*c.field));
    }
  }
  return out;
}

Result<Measurement> DecodeMeasuredLinkValue(std::string_view value) {
  Measurement m;
  std::vector<Error> errors;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t comma = value.find(',', start);
    if (comma == std::string_view::npos) comma = value.size();
    const std::string_view item = value.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) continue;
    const std::size_t colon = item.find(':');
    if (colon == std::string_view::npos) {
      errors.push_back({"#m", "'" + std::string(item) + "' is not name:size (reserved:84.3GiB)"});
      continue;
    }
    const std::string_view name = item.substr(0, colon);
    std::string_view size = item.substr(colon + 1);
    int rank = -1;
    const std::size_t at = size.find("@r");
    if (at != std::string_view::npos) {
      const std::string digits(size.substr(at + 2));
      char* end = nullptr;
      const long r = std::strtol(digits.c_str(), &end, 10);
      if (digits.empty() || *end != '\0' || r < 0 || r > 10000000) {
        errors.push_back({"#m", "'" + std::string(item) + "': the rank after @r is not a number"});
        continue;
      }
      rank = static_cast<int>(r);
      size = size.substr(0, at);
    }
    std::int64_t bytes = 0;
    if (!ParseByteSize(size, bytes)) {
      errors.push_back({"#m", "'" + std::string(item) +
                                  "': the size is not a non-negative number with a unit "
                                  "(GiB, MiB, GB)"});
      continue;
    }
    bool known = false;
    for (Metric metric : kMetrics) {
      if (name != MetricName(metric)) continue;
      Peak p;
      p.metric = metric;
      p.bytes = bytes;
      p.rank = rank;
      p.source = "share link";
      m.peaks.push_back(p);
      known = true;
    }
    for (const ComponentKey& c : kComponents) {
      if (name != c.key) continue;
      m.components.*c.field = bytes;
      m.components.present = true;
      m.components.source = "share link";
      known = true;
    }
    if (!known) {
      errors.push_back({"#m", "'" + std::string(name) +
                                  "' is not a measured metric (reserved, max_allocated, "
                                  "allocated, active, device_used) or component (params, grads, "
                                  "optim, act, temp)"});
    }
  }
  if (m.peaks.empty() && !m.components.present) {
    if (errors.empty()) errors.push_back({"#m", "empty measurement"});
    return Result<Measurement>::Failure(errors);
  }
  MeasuredComponents& c = m.components;
  c.total = c.parameters + c.gradients + c.optimizer_states + c.activations + c.temporary;
  m.formats.push_back("share link");
  m.skipped = errors;  // what could not be read is reported, the rest is kept
  m.skipped_count = static_cast<std::int64_t>(errors.size());
  return Result<Measurement>::Success(std::move(m));
}

}  // namespace trainmem::compare
