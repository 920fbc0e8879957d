// Human-readable renderings of an Estimate: an aligned text table (CLI), Markdown (to paste in
// a design doc) and CSV (spreadsheets). Units are always printed.
#include <algorithm>
#include <cstdio>
#include <string>

#include "core/report/report.h"

namespace trainmem {
namespace {

struct Row {
  const char* name;
  std::int64_t bytes;
};

std::vector<Row> Rows(const MemoryBreakdown& m) {
  return {{"parameters", m.parameters},
          {"gradients", m.gradients},
          {"optimizer states", m.optimizer_states},
          {"activations", m.activations},
          {"temporary", m.temporary},
          {"total", m.total},
          {"peak allocated", m.peak_allocated}};
}

std::string Percent(std::int64_t part, std::int64_t whole) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%",
                whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

std::string Title(const Estimate& e) {
  const Config& c = e.config;
  std::string model =
      c.model_name.empty() ? (c.model_id.empty() ? "custom model" : c.model_id) : c.model_name;
  std::string device = c.device.name.empty() ? c.device.id : c.device.name;
  return model + " on " + device + " (" + std::to_string(c.world_size) + " devices, " +
         ModeName(c.mode) + " mode, " + FrameworkName(c.framework) + ")";
}

// "FITS", "CLOSE TO THE LIMIT" (within the family's error band of the budget) or "DOES NOT FIT",
// then the figures and the band they carry.
std::string VerdictLine(const Estimate& e) {
  const Budget& b = e.budget;
  std::string s = VerdictName(b.verdict);
  for (char& ch : s) ch = ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch;
  s += ": " + FormatGiB(e.per_device.total) + " of " + FormatGiB(b.usable_bytes) + " usable (" +
       FormatGiB(b.device_bytes) + " device" +
       (b.outside_allocator_bytes > 0
            ? ", less " + FormatGiB(b.outside_allocator_bytes) + " of EP dispatch buffers"
            : std::string()) +
       "); headroom " + FormatGiB(b.headroom_bytes);
  s += "\nexpected error: " + ErrorBandText(e.accuracy);
  return s;
}

}  // namespace

// Plain std::string appends, not iostreams: <sstream> pulls ~50 kB of locale code into the wasm.
// snprintf, not {fmt}: +21.2 kB brotli in the page (measured; see FormatGiB in report.cpp).
std::string EstimateToText(const Estimate& e) {
  std::string out;
  char line[200];
  out += Title(e) + "\n";
  std::snprintf(
      line, sizeof line,
      "layout: dp_replicate %lld, dp_shard %lld, tp %lld, pp %lld, cp %lld, ep %lld, etp %lld\n",
      static_cast<long long>(e.layout.dp_replicate), static_cast<long long>(e.layout.dp_shard),
      static_cast<long long>(e.layout.tp), static_cast<long long>(e.layout.pp),
      static_cast<long long>(e.layout.cp), static_cast<long long>(e.layout.ep),
      static_cast<long long>(e.layout.etp));
  out += line;
  out += "params: total " + FormatCount(e.params.total) + ", active " +
         FormatCount(e.params.active) + ", dense " + FormatCount(e.params.dense) + ", expert " +
         FormatCount(e.params.expert) + "\n\n";
  std::snprintf(line, sizeof line, "%-18s %14s %14s %8s\n", "per device", "GiB", "GB", "share");
  out += line;
  for (const Row& r : Rows(e.per_device)) {
    std::snprintf(line, sizeof line, "%-18s %14s %14s %8s\n", r.name, FormatGiB(r.bytes).c_str(),
                  FormatGB(r.bytes).c_str(), Percent(r.bytes, e.per_device.total).c_str());
    out += line;
  }
  out += "\n" + VerdictLine(e) + "\n";
  if (e.stages.size() > 1) {
    out += "\npipeline stages (worst: " + std::to_string(e.worst_stage) + ")\n";
    for (const StageEstimate& s : e.stages) {
      char layers[32] = "   none";  // a rank without blocks (placeholder layers)
      if (s.num_layers > 0)
        std::snprintf(layers, sizeof layers, "%3lld-%-3lld", static_cast<long long>(s.first_layer),
                      static_cast<long long>(s.first_layer + s.num_layers - 1));
      std::snprintf(line, sizeof line, "  stage %-3d layers %-7s total %14s  allocated %14s\n",
                    s.stage, layers, FormatGiB(s.bytes.total).c_str(),
                    FormatGiB(s.bytes.peak_allocated).c_str());
      out += line;
    }
  }
  if (e.host_optimizer_bytes > 0)
    out += "host memory for optimizer states: " + FormatGiB(e.host_optimizer_bytes) + " per rank\n";
  if (!e.recommendations.empty()) {
    out += "\nto make it fit:\n";
    for (const Recommendation& r : e.recommendations)
      out += std::string("  ") +
             (r.verdict == Verdict::kFits           ? "[fits]  "
              : r.verdict == Verdict::kCloseToLimit ? "[close] "
                                                    : "        ") +
             r.action + " -> " + FormatGiB(r.total_bytes) + "\n";
  }
  if (e.devices_needed > 0) {
    const bool some_close = std::any_of(e.recommendations.begin(), e.recommendations.end(),
                                        [](const Recommendation& r) { return r.fits; });
    out += std::string(some_close ? "  none of these fits clear of the error band"
                                  : "  none of these fits") +
           "; a layout fits on " + std::to_string(e.devices_needed) +
           " devices (trainmem search --set world_size=" + std::to_string(e.devices_needed) + ")\n";
  }
  for (const std::string& w : e.warnings) out += "note: " + w + "\n";
  return out;
}

std::string EstimateToMarkdown(const Estimate& e) {
  std::string out =
      "**" + Title(e) + "**\n\n| component | GiB | GB | share |\n|---|---:|---:|---:|\n";
  for (const Row& r : Rows(e.per_device))
    out += std::string("| ") + r.name + " | " + FormatGiB(r.bytes) + " | " + FormatGB(r.bytes) +
           " | " + Percent(r.bytes, e.per_device.total) + " |\n";
  out += "\n" + VerdictLine(e) + "\n";
  if (!e.recommendations.empty()) {
    out += "\n| to make it fit | total | fits |\n|---|---:|---|\n";
    for (const Recommendation& r : e.recommendations)
      out += "| " + r.action + " | " + FormatGiB(r.total_bytes) + " | " +
             (r.verdict == Verdict::kFits           ? "yes"
              : r.verdict == Verdict::kCloseToLimit ? "close to the limit"
                                                    : "no") +
             " |\n";
  }
  if (e.devices_needed > 0)
    out += "\nNone of these fits; a layout fits on " + std::to_string(e.devices_needed) +
           " devices.\n";
  return out;
}

std::string EstimateToCsv(const Estimate& e) {
  std::string out = "stage,component,bytes,gib,gb\n";
  auto emit = [&out](const std::string& stage, const MemoryBreakdown& m) {
    for (const Row& r : Rows(m)) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%lld,%.4f,%.4f", static_cast<long long>(r.bytes),
                    static_cast<double>(r.bytes) / 1073741824.0,
                    static_cast<double>(r.bytes) / 1e9);
      out += stage + "," + r.name + "," + buf + "\n";
    }
  };
  emit("worst", e.per_device);
  if (e.stages.size() > 1)
    for (const StageEstimate& s : e.stages) emit(std::to_string(s.stage), s.bytes);
  return out;
}

}  // namespace trainmem
