// Internals of the layout search shared by its translation units (not part of the public API).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/config.h"

namespace trainmem::search_detail {

// Relative step time of a layout (search_cost.cpp documents the proxy); rounded to 1e-6 so that
// mathematically equal costs compare equal and fall through to the deterministic tie-breaks.
double LayoutCost(const Config& base, const Layout& layout, const ActivationCheckpoint& ac,
                  const Optimizer& optimizer);
// The non-zero terms of LayoutCost in words: "TP 8 in-node +12%, full AC +33%".
std::string CostNote(const Config& base, const Layout& layout, const ActivationCheckpoint& ac,
                     const Optimizer& optimizer);

}  // namespace trainmem::search_detail
