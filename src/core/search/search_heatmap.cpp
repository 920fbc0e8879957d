// ComputeHeatmap: the estimate over a 2-D grid of two integer settings. Each cell is
// ValidateConfig then EstimateMemory of the base config with the two values set, nothing more,
// so a cell always equals what `trainmem estimate --set x=… --set y=…` prints.
#include <algorithm>

#include "core/search/search.h"

namespace trainmem {
namespace {

struct AxisField {
  const char* alias;  // as in SettingAliases(): `--set tp=8`, `#tp=8`
  std::int64_t& (*field)(Config&);
  bool is_degree;  // changing it moves ranks: dp_shard = -1 absorbs them
};

// Integer settings worth a heatmap. Setting the field directly (not through ApplySetting) keeps a
// 64×64 grid within the page's frame budget; the keys are the same aliases.
const std::vector<AxisField>& AxisFields() {
  static const std::vector<AxisField> fields = {
      {"b", [](Config& c) -> std::int64_t& { return c.training.local_batch_size; }, false},
      {"s", [](Config& c) -> std::int64_t& { return c.training.seq_len; }, false},
      {"tp", [](Config& c) -> std::int64_t& { return c.parallelism.tp; }, true},
      {"pp", [](Config& c) -> std::int64_t& { return c.parallelism.pp; }, true},
      {"cp", [](Config& c) -> std::int64_t& { return c.parallelism.cp; }, true},
      {"ep", [](Config& c) -> std::int64_t& { return c.parallelism.ep; }, true},
      {"etp", [](Config& c) -> std::int64_t& { return c.parallelism.etp; }, true},
      {"dpr", [](Config& c) -> std::int64_t& { return c.parallelism.dp_replicate; }, true},
      {"dp", [](Config& c) -> std::int64_t& { return c.parallelism.dp_shard; }, false},
      {"ws", [](Config& c) -> std::int64_t& { return c.world_size; }, true},
      {"mbs", [](Config& c) -> std::int64_t& { return c.parallelism.pp_microbatch_size; }, false},
  };
  return fields;
}

const AxisField* FindAxisField(const std::string& key) {
  const std::string path = ResolveSettingKey(key);
  for (const AxisField& f : AxisFields()) {
    if (ResolveSettingKey(f.alias) == path) return &f;
  }
  return nullptr;
}

HeatmapCell EstimateCell(const Config& config, const ModelCounts& counts,
                         std::int64_t& usable_bytes) {
  HeatmapCell cell;
  const std::vector<Error> errors = ValidateConfig(config);
  if (!errors.empty()) {
    cell.reason = FormatError(errors.front());
    return cell;
  }
  const TotalsEstimate e = EstimateTotals(config, counts);  // validated just above
  cell.valid = e.valid;
  cell.fits = e.budget.fits;
  cell.total_bytes = e.per_device.total;
  cell.per_device = e.per_device;
  usable_bytes = e.budget.usable_bytes;
  return cell;
}

}  // namespace

const std::vector<std::string>& HeatmapKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const AxisField& f : AxisFields()) out.push_back(f.alias);
    return out;
  }();
  return keys;
}

bool HeatmapKeyMovesRanks(const std::string& key) {
  const AxisField* field = FindAxisField(key);
  return field != nullptr && field->is_degree;
}

Heatmap ComputeHeatmap(const Config& base, const HeatmapAxis& x, const HeatmapAxis& y) {
  Heatmap map;
  map.x = x;
  map.y = y;
  const AxisField* fx = FindAxisField(x.key);
  const AxisField* fy = FindAxisField(y.key);
  if (fx == nullptr || fy == nullptr) {
    map.error = "heatmap axis '" + (fx == nullptr ? x.key : y.key) +
                "' is not one of: b, s, tp, pp, cp, ep, etp, dpr, dp, ws, mbs";
    return map;
  }
  Config config = base;
  if (fx->is_degree || fy->is_degree) config.parallelism.dp_shard = -1;
  const ModelCounts counts = CountModel(base.model);  // no axis changes the model
  map.cells.reserve(x.values.size() * y.values.size());
  bool any_valid = false;
  for (std::int64_t y_value : y.values) {
    fy->field(config) = y_value;
    for (std::int64_t x_value : x.values) {
      fx->field(config) = x_value;
      map.cells.push_back(EstimateCell(config, counts, map.usable_bytes));
      const HeatmapCell& cell = map.cells.back();
      if (!cell.valid) continue;
      map.min_total_bytes =
          any_valid ? std::min(map.min_total_bytes, cell.total_bytes) : cell.total_bytes;
      map.max_total_bytes = std::max(map.max_total_bytes, cell.total_bytes);
      any_valid = true;
    }
  }
  return map;
}

}  // namespace trainmem
