// Layout search (issue #5): every parallel layout of a job that fits its devices, ranked by a
// cost proxy, and 2-D heatmaps of the estimate over two settings. Pure core: no I/O.
//
// Validity is ValidateConfig's alone; memory is EstimateMemory's alone. The search only decides
// which configs to ask about and in which order (search.cpp), and how to rank them
// (search_cost.cpp documents the cost proxy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/config/config.h"
#include "core/estimate/estimate.h"

namespace trainmem {

struct SearchOptions {
  bool vary_ac = true;    // try activation checkpointing none / selective "op" / full
  bool vary_swap = true;  // try the optimizer states on and off the device (OptimizerOffDeviceKey)
  std::int64_t max_tp = 0;  // largest tensor-parallel degree tried; 0 = device.devices_per_node
  std::size_t limit = 0;    // keep the `limit` cheapest fitting layouts; 0 = all of them
};

struct LayoutResult {
  Config config;               // the base config with this layout: reproduces per_device
  MemoryBreakdown per_device;  // EstimateMemory(config).per_device
  bool fits = false;
  double cost = 0;        // relative step time, 1.0 = ideal (search_cost.cpp)
  std::string cost_note;  // what the cost is made of, e.g. "TP 8 in-node +12%, full AC +33%"
  std::int64_t headroom_bytes = 0;  // usable − total
  // fits, or close to the limit when the total is within the estimate's error band of the budget
  // (the same verdict the estimate's headline gives this config).
  Verdict verdict = Verdict::kFits;
};

struct SearchResult {
  std::vector<LayoutResult> layouts;  // fitting layouts, cheapest first
  std::size_t evaluated = 0;          // candidates estimated with EstimateMemory
  std::size_t valid = 0;  // candidates (layout × AC × optimizer placement) ValidateConfig accepts
  std::int64_t usable_bytes = 0;  // the device budget every layout was checked against
  std::string message;            // one line for a person: what was found, or why nothing was
};

// Enumerates dp_replicate · dp_shard · tp · pp · cp = world_size (ep and etp borrow from those
// ranks, as in torchtitan), × the AC modes × optimizer placement, keeps the candidates
// ValidateConfig accepts, estimates them in cost order and returns those that fit, ranked by
// (cost, total bytes, dp_replicate, dp_shard, tp, pp, cp, ep, etp, AC, optimizer placement).
// With a limit, estimation stops once `limit` layouts fit and no cheaper-or-equal candidate is
// left, so `evaluated` can be far below `valid`; the layouts are exactly the first `limit` of
// the full search. The page should pass a limit: a full search estimates every candidate (4.5k
// for a dense model on 1024 devices, 44k for DeepSeek-V3), a limit of 20 about 200 and 2.3k
// (bench/search_bench.cpp).
SearchResult SearchLayouts(const Config& base, const SearchOptions& options);

// The cost proxy both the layout search and the advice's cheapest combination rank by
// (search_cost.cpp documents each term): the step time of `job` run on `layout` with activation
// checkpointing `ac`, the optimizer placement `optimizer` and a local batch of
// `local_batch_size` (the job's own, or a smaller one the advice considers), relative to an ideal
// layout. Lower is better; rounded to 1e-6 so that equal costs compare equal and fall through to
// the tie-breaks (the smaller total first, in both).
double LayoutCost(const Config& job, const Layout& layout, const ActivationCheckpoint& ac,
                  const Optimizer& optimizer, std::int64_t local_batch_size);

// "trainmem.search/v1": each layout's `config` is ConfigToJson and reproduces its
// per_device_bytes through `trainmem estimate`.
nlohmann::json SearchToJson(const SearchResult& result);

// --- heatmaps ---------------------------------------------------------------------------------

// One axis: a setting's short alias (b, s, tp, pp, cp, ep, etp, dpr, dp, mbs) or its dotted path,
// and the values to try.
struct HeatmapAxis {
  std::string key;
  std::vector<std::int64_t> values;
};

struct HeatmapCell {
  bool valid = false;  // ValidateConfig accepted the config
  bool fits = false;
  std::int64_t total_bytes = 0;  // per_device.total; 0 when invalid
  MemoryBreakdown per_device;
  std::string reason;  // the first validation error when invalid, else empty
};

struct Heatmap {
  HeatmapAxis x, y;
  std::vector<HeatmapCell> cells;    // row-major: row = y index, column = x index
  std::int64_t usable_bytes = 0;     // the estimate's budget; 0 when no cell is valid
  std::int64_t min_total_bytes = 0;  // over valid cells (0 when none): the colour scale
  std::int64_t max_total_bytes = 0;
  std::string error;  // unknown key: cells is empty

  const HeatmapCell& at(std::size_t x_index, std::size_t y_index) const {
    return cells[y_index * x.values.size() + x_index];
  }
};

// Cell (i, j) is EstimateMemory of `base` with x.key = x.values[i] and y.key = y.values[j]. When
// an axis is a parallel degree, dp_shard is reset to -1 so the leftover ranks absorb the change.
Heatmap ComputeHeatmap(const Config& base, const HeatmapAxis& x, const HeatmapAxis& y);

// The keys ComputeHeatmap accepts (short aliases), for the UI's axis pickers.
const std::vector<std::string>& HeatmapKeys();

// Whether ComputeHeatmap resets dp_shard to -1 for this axis because it moves ranks: true for
// tp, pp, cp, ep, etp, dpr, ws (alias or dotted path); false for b, s, dp, mbs and unknown keys.
// Code that rebuilds a cell's config (applying a clicked cell) asks this instead of guessing.
bool HeatmapKeyMovesRanks(const std::string& key);

nlohmann::json HeatmapToJson(const Heatmap& heatmap);

}  // namespace trainmem
