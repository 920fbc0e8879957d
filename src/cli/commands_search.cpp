// `trainmem search [CONFIG.json] [--model ID] [--device ID] [--set key=value]... [--json] [--limit
// N]`: every parallel layout of the config's world_size that fits, cheapest first
// (core/search/search.h). The config's own degrees are the starting point only; the search replaces
// them.
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/report/report.h"
#include "core/search/search.h"

namespace trainmem::cli {
namespace {

std::string AcLabel(const ActivationCheckpoint& ac) {
  if (ac.mode == AcMode::kSelective) return "sel(" + ac.selective_ac_option + ")";
  return AcModeName(ac.mode);
}

std::string HostOptimizerLabel(const Optimizer& o) {
  if (o.offload) return "offload";
  return o.swap_optimizer ? "swap" : "-";
}

double Gib(std::int64_t bytes) { return static_cast<double>(bytes) / 1073741824.0; }

void PrintTable(const Config& base, const SearchResult& r, std::ostream& out) {
  out << "search: " << base.model_name << " on " << base.world_size << " x " << base.device.name
      << " (" << FormatGiB(r.usable_bytes) << " usable per device)\n"
      << r.message << "\n";
  if (r.layouts.empty()) return;
  out << "\nrank  dp_replicate  dp_shard   tp   pp   cp   ep  etp  ac        swap     "
         "total GiB  headroom GiB    cost  cost made of\n";
  std::size_t rank = 0;
  for (const LayoutResult& l : r.layouts) {
    const Parallelism& p = l.config.parallelism;
    out << fmt::format(
        "{:4}  {:12}  {:8}  {:3}  {:3}  {:3}  {:3}  {:3}  {:<8}  {:<7}  {:9.2f}  {:12.2f}  {:6.3f} "
        " ",
        ++rank, p.dp_replicate, p.dp_shard, p.tp, p.pp, p.cp, p.ep, p.etp,
        AcLabel(l.config.activation_checkpoint), HostOptimizerLabel(l.config.optimizer),
        Gib(l.per_device.total), Gib(l.headroom_bytes), l.cost);
    out << (l.verdict == Verdict::kFits ? "" : "[close to the limit] ") << l.cost_note << "\n";
  }
  out << "\ncost = step time relative to an ideal layout (1.000: pure data parallel, no "
         "recompute,\n"
         "no pipeline bubble); see src/core/search/search_cost.cpp for the proxy.\n";
}

}  // namespace

int RunSearch(const Options& o, const Presets& presets, Output io) {
  if (o.limit < 0) {
    io.err << "trainmem: --limit must be 0 (all layouts) or more, got " << o.limit << "\n";
    return 2;
  }
  bool reported = false;
  Result<Config> config = LoadConfig(o, presets, io.err, reported);
  if (!config.ok()) {
    if (!reported) PrintErrors(config.errors(), o.config_path, io.err);
    return 2;
  }
  SearchOptions options;
  options.limit = static_cast<std::size_t>(o.limit);
  const SearchResult result = SearchLayouts(config.value(), options);
  if (o.format == "json")
    io.out << SearchToJson(result).dump(2) << "\n";
  else
    PrintTable(config.value(), result, io.out);
  return 0;
}

}  // namespace trainmem::cli
