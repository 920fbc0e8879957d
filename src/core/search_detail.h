// Internals of the layout search shared by its translation units (not part of the public API).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"

namespace trainmem::search_detail {

// One point of the search space, small so that tens of thousands sort quickly: the degrees,
// and indices into the AC and optimizer variants the search tries.
struct Candidate {
  Layout layout;
  std::uint8_t ac_index = 0;
  std::uint8_t optimizer_index = 0;
  double cost = 0;
};

// The settings a candidate applies on top of the base config.
struct Variants {
  std::vector<ActivationCheckpoint> ac;
  std::vector<Optimizer> optimizer;
};

// Relative step time of a layout (search_cost.cpp documents the proxy); rounded to 1e-6 so that
// mathematically equal costs compare equal and fall through to the deterministic tie-breaks.
double LayoutCost(const Config& base, const Layout& layout, const ActivationCheckpoint& ac,
                  const Optimizer& optimizer);
// The non-zero terms of LayoutCost in words: "TP 8 in-node +12%, full AC +33%".
std::string CostNote(const Config& base, const Layout& layout, const ActivationCheckpoint& ac,
                     const Optimizer& optimizer);

// The base config with the candidate's degrees (dp_shard explicit) and variants applied.
void ApplyCandidate(const Candidate& candidate, const Variants& variants, Config& config);

// "dp_shard 8, tp 2, pp 1, cp 1, ep 1, etp 1, selective AC, swap" for messages.
std::string DescribeLayout(const Config& config);

}  // namespace trainmem::search_detail
