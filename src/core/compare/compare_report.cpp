// Serialising a Comparison: the trainmem.compare/v1 JSON, a plain-text table, and a row for a
// calibration file in the format of tests/data/calibration.jsonl (read by bench/accuracy.cpp).
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/compare/compare.h"
#include "core/config/config.h"
#include "core/report/report.h"

namespace trainmem::compare {

namespace {

using nlohmann::json;

json Rounded(double value, double scale) {
  if (!std::isfinite(value)) return nullptr;
  return std::round(value * scale) / scale;
}

json RankJson(int rank) { return rank >= 0 ? json(rank) : json(nullptr); }

}  // namespace

json ComparisonToJson(const Comparison& c) {
  json measured = json::array();
  for (const MetricRow& r : c.metrics) {
    json row = {{"metric", MetricName(r.metric)},
                {"peak_bytes", r.measured_bytes},
                {"estimate_bytes", r.estimate_bytes},
                {"error", r.measured_bytes > 0 ? Rounded(r.error, 1e4) : json(nullptr)},
                {"ratio", r.estimate_bytes > 0 ? Rounded(r.ratio, 1e4) : json(nullptr)},
                {"source", r.source},
                {"rank", RankJson(r.rank)},
                {"stage", r.stage},
                {"estimate_basis", r.estimate_basis},
                {"stage_basis", r.stage_basis},
                {"rounding_bytes", r.rounding}};
    if (r.at_init) row["after_model_init"] = true;
    if (!r.per_rank.empty()) {
      json ranks = json::array();
      for (const RankRow& k : r.per_rank) {
        ranks.push_back({{"rank", RankJson(k.rank)},
                         {"stage", k.stage},
                         {"peak_bytes", k.measured_bytes},
                         {"estimate_bytes", k.estimate_bytes}});
      }
      row["per_rank"] = std::move(ranks);
    }
    measured.push_back(std::move(row));
  }
  json components = json::array();
  for (const ComponentRow& r : c.components) {
    components.push_back({{"component", r.name},
                          {"measured_bytes", r.measured_bytes},
                          {"estimate_bytes", r.estimate_bytes},
                          {"ratio", r.estimate_bytes > 0 ? Rounded(r.ratio, 1e4) : json(nullptr)}});
  }
  json j = {{"schema", "trainmem.compare/v1"}, {"formats", c.formats},
            {"measured", std::move(measured)}, {"components", std::move(components)},
            {"sentence", c.sentence},          {"notes", c.notes}};
  if (!c.components_source.empty()) j["components_source"] = c.components_source;
  if (c.snapshot.present) {
    const SnapshotFacts& s = c.snapshot;
    j["snapshot"] = {{"device", s.device},
                     {"segments", s.segments},
                     {"reserved_bytes", s.reserved_bytes},
                     {"allocated_bytes", s.allocated_bytes},
                     {"active_bytes", s.active_bytes},
                     {"free_in_segments_fraction", Rounded(s.free_in_segments_fraction, 1e4)},
                     {"largest_free_block_bytes", s.largest_free_block},
                     {"trace_events", s.trace_events},
                     {"peak_allocated_bytes", s.peak_allocated_bytes},
                     {"peak_reserved_bytes", s.peak_reserved_bytes}};
  }
  json skipped = json::array();
  for (const Error& e : c.skipped) skipped.push_back({{"where", e.path}, {"why", e.message}});
  j["skipped"] = std::move(skipped);
  j["skipped_count"] = c.skipped_count;
  return j;
}

// snprintf, not {fmt}: +20.9 kB brotli in the page (measured; see FormatGiB in report.cpp).
std::string ComparisonToText(const Comparison& c) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-24s %12s %12s %8s  %s\n", "measured", "run", "estimate",
                "error", "source");
  out += line;
  for (const MetricRow& r : c.metrics) {
    char error[32] = "-";
    if (r.measured_bytes > 0) std::snprintf(error, sizeof error, "%+.1f%%", 100.0 * r.error);
    std::string where = r.source;
    if (r.rank >= 0) where += ", rank " + std::to_string(r.rank);
    std::snprintf(line, sizeof line, "  %-22s %12s %12s %8s  %s\n", MetricName(r.metric),
                  FormatGiB(r.measured_bytes).c_str(), FormatGiB(r.estimate_bytes).c_str(), error,
                  where.c_str());
    out += line;
    out +=
        "  " + std::string(24, ' ') + "estimate: " + r.estimate_basis + "; " + r.stage_basis + "\n";
    for (const RankRow& k : r.per_rank) {
      std::snprintf(line, sizeof line, "    rank %-6d stage %-4d %12s %12s\n", k.rank, k.stage,
                    FormatGiB(k.measured_bytes).c_str(), FormatGiB(k.estimate_bytes).c_str());
      out += line;
    }
  }
  if (!c.components.empty()) {
    out += "\ncomponents at the profile's peak (" + c.components_source + ")\n";
    for (const ComponentRow& r : c.components) {
      char ratio[32] = "-";
      if (r.estimate_bytes > 0)
        std::snprintf(ratio, sizeof ratio, "%s", FormatRatio(r.ratio).c_str());
      std::snprintf(line, sizeof line, "  %-22s %12s %12s %8s\n", r.name.c_str(),
                    FormatGiB(r.measured_bytes).c_str(), FormatGiB(r.estimate_bytes).c_str(),
                    ratio);
      out += line;
    }
  }
  if (c.snapshot.present) {
    const SnapshotFacts& s = c.snapshot;
    std::snprintf(line, sizeof line,
                  "\nallocator snapshot (device %d): %lld segments, %s reserved, %s allocated, "
                  "%.1f%% of reserved not allocated, largest free block %s\n",
                  s.device, static_cast<long long>(s.segments), FormatGiB(s.reserved_bytes).c_str(),
                  FormatGiB(s.allocated_bytes).c_str(), 100.0 * s.free_in_segments_fraction,
                  FormatGiB(s.largest_free_block).c_str());
    out += line;
  }
  if (!c.sentence.empty()) out += "\n" + c.sentence + "\n";
  if (!c.notes.empty()) {
    out += "\nnotes:\n";
    for (const std::string& n : c.notes) out += "  - " + n + "\n";
  }
  if (c.skipped_count > 0) {
    out += "\nskipped " + std::to_string(c.skipped_count) + " line(s):\n";
    for (const Error& e : c.skipped) out += "  " + FormatError(e) + "\n";
    if (c.skipped_count > static_cast<std::int64_t>(c.skipped.size())) out += "  …\n";
  }
  return out;
}

Result<json> CalibrationRow(const Estimate& e, const Comparison& c, const std::string& id,
                            const std::string& source) {
  const MetricRow* chosen = nullptr;
  for (Metric metric : {Metric::kReserved, Metric::kMaxAllocated, Metric::kActive}) {
    for (const MetricRow& r : c.metrics) {
      if (r.metric == metric && !r.at_init && chosen == nullptr) chosen = &r;
    }
  }
  if (chosen == nullptr) {
    return Result<json>::Failure(
        "measured",
        "a calibration row needs max reserved, max allocated or peak active; this "
        "input has none (device_used and allocated are not peaks the estimate models)");
  }
  const int last = static_cast<int>(e.stages.size()) - 1;
  std::string stage = "max";
  if (chosen->rank >= 0 && last > 0 && chosen->per_rank.empty() && chosen->stage == last) {
    stage = "last";
  }
  json measured = {{"metric", MetricName(chosen->metric)},
                   {"peak_gib", std::round(chosen->measured_bytes / 1073741824.0 * 1e4) / 1e4},
                   {"stage", stage},
                   {"peak_bytes", chosen->measured_bytes},
                   {"rank", RankJson(chosen->rank)},
                   {"source", chosen->source}};
  std::string notes = "Added by trainmem compare. Measured: " + chosen->source + " = " +
                      FormatGiB(chosen->measured_bytes) + "; estimate " +
                      FormatGiB(chosen->estimate_bytes) + " (" + chosen->estimate_basis + "; " +
                      chosen->stage_basis + ").";
  json row = {{"id", id},
              {"source", source},
              {"ambiguous", false},
              {"config", ConfigToJson(e.config)},
              {"measured", std::move(measured)},
              {"notes", notes},
              {"hardware", e.config.device.name}};
  return Result<json>::Success(std::move(row));
}

}  // namespace trainmem::compare
