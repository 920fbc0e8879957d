// Advice: what to change when a configuration does not fit. The ladder follows the seed's order
// (activation checkpointing → optimizer states off the device → TP / PP / EP → smaller batch /
// sequence); the cheapest fit and the device count use the layout search (core/search).
#pragma once

#include <cstdint>
#include <vector>

#include "core/config/config.h"
#include "core/estimate/estimate.h"

namespace trainmem {

// The seed's ladder alone, in the practitioner's order, each step cumulative. A step is listed
// only when it lowers the total; the ladder stops at the first that fits.
std::vector<Recommendation> AdviceLadder(const Config& config);

// The lowest-cost combination of the ladder's levers that fits (cost: search/search_cost.cpp,
// the same proxy the Layouts tab ranks by); an empty `changes` means nothing within reach fits.
Recommendation CheapestFit(const Config& config);

// The smallest world size (doubling from config.world_size) at which SearchLayouts finds a
// fitting layout, or 0 when none does up to kMaxDevicesAdvised.
inline constexpr std::int64_t kMaxDevicesAdvised = 16384;
std::int64_t DevicesNeeded(const Config& config);

// EstimateMemory plus the advice ladder when the config does not fit.
Estimate EstimateWithAdvice(const Config& config);

}  // namespace trainmem
