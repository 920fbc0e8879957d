// Internals of the layout search shared by its translation units (not part of the public API).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/config.h"

namespace trainmem::search_detail {

// The non-zero terms of LayoutCost (search.h) at the job's own batch, in words:
// "TP 8 in-node +12%, full AC +33%".
std::string CostNote(const Config& base, const Layout& layout, const ActivationCheckpoint& ac,
                     const Optimizer& optimizer);

}  // namespace trainmem::search_detail
