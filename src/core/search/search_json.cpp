// SearchToJson ("trainmem.search/v1") and HeatmapToJson ("trainmem.heatmap/v1").
#include <nlohmann/json.hpp>

#include "core/report/report.h"
#include "core/search/search.h"

namespace trainmem {
namespace {

using nlohmann::json;

json LayoutJson(const LayoutResult& r) {
  const Parallelism& p = r.config.parallelism;
  return {{"config", ConfigToJson(r.config)},
          {"layout",
           {{"dp_replicate", p.dp_replicate},
            {"dp_shard", p.dp_shard},
            {"tp", p.tp},
            {"pp", p.pp},
            {"cp", p.cp},
            {"ep", p.ep},
            {"etp", p.etp}}},
          {"per_device_bytes", BreakdownToJson(r.per_device)},
          {"headroom_bytes", r.headroom_bytes},
          {"fits", r.fits},
          {"verdict", VerdictName(r.verdict)},
          {"cost", r.cost},
          {"cost_note", r.cost_note}};
}

}  // namespace

json SearchToJson(const SearchResult& result) {
  json layouts = json::array();
  for (const LayoutResult& r : result.layouts) layouts.push_back(LayoutJson(r));
  return {{"schema", "trainmem.search/v1"}, {"evaluated", result.evaluated},
          {"valid", result.valid},          {"usable_bytes", result.usable_bytes},
          {"message", result.message},      {"layouts", layouts}};
}

json HeatmapToJson(const Heatmap& heatmap) {
  json cells = json::array();
  for (const HeatmapCell& c : heatmap.cells) {
    json cell = {{"valid", c.valid}, {"fits", c.fits}, {"total_bytes", c.total_bytes}};
    if (c.valid)
      cell["per_device_bytes"] = BreakdownToJson(c.per_device);
    else
      cell["reason"] = c.reason;
    cells.push_back(cell);
  }
  json j = {{"schema", "trainmem.heatmap/v1"},
            {"x", {{"key", heatmap.x.key}, {"values", heatmap.x.values}}},
            {"y", {{"key", heatmap.y.key}, {"values", heatmap.y.values}}},
            {"usable_bytes", heatmap.usable_bytes},
            {"cells", cells}};
  if (!heatmap.error.empty()) j["error"] = heatmap.error;
  return j;
}

}  // namespace trainmem
